/** The chat part of the IPC contract (see ../contract.ts). */
import type { EventSpec, RouteSpec } from '../define';

export const CHAT_ROUTES = {} as const satisfies Record<string, RouteSpec>;

export const CHAT_EVENTS = {} as const satisfies Record<string, EventSpec>;
