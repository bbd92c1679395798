/** The screens of the app, in the order the sidebar shows them. */
export const SCREENS = [
  { id: 'chat', title: 'Chat' },
  { id: 'prompts', title: 'Prompts' },
  { id: 'knowledge', title: 'Knowledge' },
  { id: 'models', title: 'Models' },
  { id: 'embeddings', title: 'Embeddings' },
  { id: 'images', title: 'Images' },
  { id: 'usage', title: 'Usage' },
  { id: 'connections', title: 'Connections' },
  { id: 'settings', title: 'Settings' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

export const SCREEN_TITLES = Object.fromEntries(SCREENS.map((s) => [s.id, s.title])) as Record<
  ScreenId,
  string
>;
