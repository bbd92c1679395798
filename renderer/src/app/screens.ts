import { SCREEN_COMMANDS, type ShortcutCommand } from '../../../electron/shared/shortcuts';
import type { MessageKey } from '../i18n/i18n';

/**
 * The screens of the app, in the order the sidebar shows them, with their names' message keys.
 * Their order is also that of SCREEN_COMMANDS (the keys Mod+1 to Mod+9).
 */
export const SCREENS = [
  { id: 'chat', title: 'screen.chat' },
  { id: 'prompts', title: 'screen.prompts' },
  { id: 'knowledge', title: 'screen.knowledge' },
  { id: 'models', title: 'screen.models' },
  { id: 'embeddings', title: 'screen.embeddings' },
  { id: 'images', title: 'screen.images' },
  { id: 'tools', title: 'screen.tools' },
  { id: 'usage', title: 'screen.usage' },
  { id: 'connections', title: 'screen.connections' },
  { id: 'settings', title: 'screen.settings' },
] as const satisfies readonly { id: string; title: MessageKey }[];

export type ScreenId = (typeof SCREENS)[number]['id'];

export const SCREEN_TITLES = Object.fromEntries(SCREENS.map((s) => [s.id, s.title])) as Record<
  ScreenId,
  MessageKey
>;

/** The screen each "go to" command shows: Mod+1 to Mod+9 in the sidebar's order. */
export const SCREEN_OF_COMMAND: Partial<Record<ShortcutCommand, ScreenId>> =
  Object.fromEntries(SCREEN_COMMANDS);
