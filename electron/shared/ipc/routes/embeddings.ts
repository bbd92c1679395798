/** The embeddings part of the IPC contract (see ../contract.ts). */
import type { EventSpec, RouteSpec } from '../define';

export const EMBEDDINGS_ROUTES = {} as const satisfies Record<string, RouteSpec>;

export const EMBEDDINGS_EVENTS = {} as const satisfies Record<string, EventSpec>;
