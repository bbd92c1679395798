/**
 * The settings part of the IPC contract (see ../contract.ts): theme, chat defaults, timeouts and
 * the choices about keys and logs.
 */
import { z } from 'zod';
import { maxTokensSchema, temperatureSchema } from '../../relay-requests';
import { route, type RouteSpec } from '../define';

export const settingsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  chatDefaults: z.object({ temperature: temperatureSchema, maxTokens: maxTokensSchema.nullable() }),
  timeouts: z.object({
    requestSeconds: z.number().int().min(5).max(3600),
    idleSeconds: z.number().int().min(5).max(3600),
  }),
  /**
   * Where no keychain works: keep keys in a file only this user can read (not encrypted) instead
   * of in memory until quit. Off unless the person turns it on; read when the app starts.
   */
  allowPlaintextKeys: z.boolean().default(false),
  /** Write prompts, messages and embedding inputs into the support log. Off unless turned on. */
  includePromptsInLogs: z.boolean().default(false),
});
export type Settings = z.infer<typeof settingsSchema>;

export const SETTINGS_ROUTES = {
  getSettings: route('settings:get', z.undefined(), settingsSchema),
  updateSettings: route('settings:update', settingsSchema.partial().strict(), settingsSchema),
} as const satisfies Record<string, RouteSpec>;
