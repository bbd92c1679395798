/**
 * The desktop part of the IPC contract (see ../contract.ts): how the app fits the desktop (the
 * quick ask shortcut, the tray, closing to the tray, opening at login) and the
 * `relay-desktop://connect` links a relay's console can offer.
 *
 * Changes go through `updateDesktop`, which applies them first (registers the shortcut, writes
 * the login item) and saves only what took effect, so a refusal by the system is said, not hidden.
 */
import { z } from 'zod';
import { shownText } from '../schemas';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';
import { quickAskSettingsSchema } from './quick-ask';
import { worded } from '../../messages/worded';

export const desktopSettingsSchema = z.strictObject({
  /** An icon in the system tray (menu bar on macOS) with New chat, Quick ask, Show/Hide, Quit. */
  showTray: z.boolean({ error: worded('form.desktop.showTray', 'The tray icon is on or off.') }),
  /** Closing the window hides it; the app goes on in the tray until Quit. */
  closeToTray: z.boolean({
    error: worded('form.desktop.closeToTray', 'Closing to the tray is on or off.'),
  }),
  /** Start with the session (hidden in the tray when closing to the tray is on). */
  openAtLogin: z.boolean({
    error: worded('form.desktop.openAtLogin', 'Opening at login is on or off.'),
  }),
});
export type DesktopSettings = z.infer<typeof desktopSettingsSchema>;

export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = {
  showTray: true,
  closeToTray: false,
  openAtLogin: false,
};

/** As kept in settings.json: absent (a file of an earlier version) or partial, the defaults. */
export const storedDesktopSettingsSchema = z
  .object({
    showTray: z.boolean().default(DEFAULT_DESKTOP_SETTINGS.showTray),
    closeToTray: z.boolean().default(DEFAULT_DESKTOP_SETTINGS.closeToTray),
    openAtLogin: z.boolean().default(DEFAULT_DESKTOP_SETTINGS.openAtLogin),
  })
  .prefault({});

export const desktopStatusSchema = z.object({
  shortcut: z.object({
    /** As saved: `CommandOrControl+Alt+Space`. */
    accelerator: z.string(),
    /** As this system shows it: `Ctrl+Alt+Space`, `⌥⌘Space`. */
    label: z.string(),
    registered: z.boolean(),
    /**
     * Why it is not registered, when quick ask is on: main's message by key and values, with its
     * English text as `message` (the page shows it with `mainMessageText`).
     */
    problem: z.object({ message: z.string(), ...messageRefFields }).optional(),
  }),
  tray: z.object({
    shown: z.boolean(),
    problem: z.object({ message: z.string(), ...messageRefFields }).optional(),
  }),
  openAtLogin: z.object({
    enabled: z.boolean(),
    /** Where it is kept: the autostart file on Linux, the login items elsewhere. */
    detail: z.string().optional(),
    problem: z.object({ message: z.string(), ...messageRefFields }).optional(),
  }),
});
export type DesktopStatus = z.infer<typeof desktopStatusSchema>;

/** What a `relay-desktop://connect` link asks for, checked as if typed, or why it cannot be used. */
export const connectLinkSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    draft: z.object({ name: shownText, baseUrl: z.string(), consoleUrl: z.string().optional() }),
    /** Things worth knowing: a key in the link was ignored, parameters not understood. */
    notes: z.array(z.string()),
  }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type ConnectLink = z.infer<typeof connectLinkSchema>;

export const DESKTOP_ROUTES = {
  getDesktopStatus: route('desktop:status', z.undefined(), desktopStatusSchema),
  updateDesktop: route(
    'desktop:update',
    z.strictObject({
      quickAsk: quickAskSettingsSchema.partial().strict().optional(),
      desktop: desktopSettingsSchema.partial().strict().optional(),
    }),
    z.object({
      quickAsk: quickAskSettingsSchema,
      desktop: desktopSettingsSchema,
      status: desktopStatusSchema,
    }),
  ),
  /** The link opened last that the page has not taken yet (then forgotten), or null. */
  takeConnectLink: route('desktop:take-link', z.undefined(), connectLinkSchema.nullable()),
} as const satisfies Record<string, RouteSpec>;

export const DESKTOP_EVENTS = {
  /** A `relay-desktop://connect` link was opened: take it with `takeConnectLink`. */
  connectLinkOpened: event('desktop:link-opened', z.null()),
} as const satisfies Record<string, EventSpec>;
