/**
 * The app's own part of the IPC contract (see ../contract.ts): what the shell asks of main (its
 * version, the clipboard) and what main tells every screen (a retry countdown, a menu command).
 */
import { z } from 'zod';
import { LOCALES } from '../../locales';
import { SHORTCUT_COMMANDS } from '../../shortcuts';
import { event, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, savedIdSchema } from '../schemas';
import { MAX_REPLY_CHARS } from './chat';

export const APP_ROUTES = {
  getAppInfo: route(
    'app:info',
    z.undefined(),
    z.object({
      version: z.string(),
      platform: z.string(),
      /** The app's language that best fits the system's preferred languages (main resolves it). */
      systemLocale: z.enum(LOCALES),
    }),
  ),
  /**
   * Puts text on the system clipboard. The window refuses the page every permission, clipboard
   * writes included (`navigator.clipboard.writeText` fails there), so copy buttons ask main.
   */
  copyText: route('app:copy-text', z.strictObject({ text: text(MAX_REPLY_CHARS) }), z.null()),
  /**
   * Shows a file the app saved for the person (an export, a copy of an image) in the system's
   * file manager, by the `savedId` its save answered with: only a file main wrote in this
   * session, so the page cannot point it anywhere.
   */
  showSavedFile: route('app:show-saved-file', z.strictObject({ id: savedIdSchema }), z.null()),
} as const satisfies Record<string, RouteSpec>;

export const APP_EVENTS = {
  /** A request failed in a way worth retrying; the client waits `delayMs` and tries again. */
  retryScheduled: event(
    'relay:retry-scheduled',
    z.object({
      requestId: z.string(),
      attempt: z.number().int().positive(),
      delayMs: z.number().nonnegative(),
      kind: z.string(),
      message: z.string(),
    }),
  ),
  /** Main (the application menu) asks the renderer to run a command of `shared/shortcuts.ts`. */
  shellCommand: event('shell:command', z.object({ id: z.enum(SHORTCUT_COMMANDS) })),
} as const satisfies Record<string, EventSpec>;
