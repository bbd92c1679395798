import type { MessageKey } from '../i18n/i18n';

/** The screens of the app, in the order the sidebar shows them, with their names' message keys. */
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
