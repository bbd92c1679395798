/**
 * The IPC contract: every route and event between the renderer and main, one file per domain in
 * `routes/`, spread in here. A new domain adds `routes/<domain>.ts` with its `<DOMAIN>_ROUTES`
 * (and `<DOMAIN>_EVENTS`), and one line in each list below.
 *
 * Requests are strict (an unknown field is refused: a payload is never trusted to be what it
 * claims); responses are plain objects that drop unknown fields, so a handler that returned
 * more than the contract says (a key, say) still could not send it.
 */
import { createEmitter, type Emitter, type SendEvent } from './define';
import { APP_EVENTS, APP_ROUTES } from './routes/app';
import { BACKUPS_EVENTS, BACKUPS_ROUTES } from './routes/backups';
import { CHAT_EVENTS, CHAT_ROUTES } from './routes/chat';
import { CONNECTIONS_EVENTS, CONNECTIONS_ROUTES } from './routes/connections';
import { DESKTOP_EVENTS, DESKTOP_ROUTES } from './routes/desktop';
import { EMBEDDINGS_EVENTS, EMBEDDINGS_ROUTES } from './routes/embeddings';
import { IMAGES_EVENTS, IMAGES_ROUTES } from './routes/images';
import { KNOWLEDGE_EVENTS, KNOWLEDGE_ROUTES } from './routes/knowledge';
import { MODELS_EVENTS, MODELS_ROUTES } from './routes/models';
import { NETWORK_ROUTES } from './routes/network';
import { PROMPTS_EVENTS, PROMPTS_ROUTES } from './routes/prompts';
import { QUICK_ASK_EVENTS, QUICK_ASK_ROUTES } from './routes/quick-ask';
import { SETTINGS_EVENTS, SETTINGS_ROUTES } from './routes/settings';
import { SYNC_EVENTS, SYNC_ROUTES } from './routes/sync';
import { TOOLS_EVENTS, TOOLS_ROUTES } from './routes/tools';
import { UPDATES_EVENTS, UPDATES_ROUTES } from './routes/updates';

export const ROUTES = {
  ...APP_ROUTES,
  ...CONNECTIONS_ROUTES,
  ...MODELS_ROUTES,
  ...SETTINGS_ROUTES,
  ...CHAT_ROUTES,
  ...EMBEDDINGS_ROUTES,
  ...IMAGES_ROUTES,
  ...BACKUPS_ROUTES,
  ...QUICK_ASK_ROUTES,
  ...DESKTOP_ROUTES,
  ...UPDATES_ROUTES,
  ...NETWORK_ROUTES,
  ...PROMPTS_ROUTES,
  ...KNOWLEDGE_ROUTES,
  ...TOOLS_ROUTES,
  ...SYNC_ROUTES,
} as const;

export const EVENTS = {
  ...APP_EVENTS,
  ...CONNECTIONS_EVENTS,
  ...MODELS_EVENTS,
  ...CHAT_EVENTS,
  ...EMBEDDINGS_EVENTS,
  ...IMAGES_EVENTS,
  ...BACKUPS_EVENTS,
  ...QUICK_ASK_EVENTS,
  ...DESKTOP_EVENTS,
  ...UPDATES_EVENTS,
  ...PROMPTS_EVENTS,
  ...KNOWLEDGE_EVENTS,
  ...SETTINGS_EVENTS,
  ...TOOLS_EVENTS,
  ...SYNC_EVENTS,
} as const;

export type Routes = typeof ROUTES;
export type Events = typeof EVENTS;

/** Sends an event of the contract by its name: `emit('connectionsChanged', null)`. */
export type Emit = Emitter<Events>;

/** The `emit` of the app over the platform's `send` (the window's `webContents.send`). */
export function emitEvents(send: SendEvent): Emit {
  return createEmitter(EVENTS, send);
}
