/** The images part of the IPC contract (see ../contract.ts). */
import type { EventSpec, RouteSpec } from '../define';

export const IMAGES_ROUTES = {} as const satisfies Record<string, RouteSpec>;

export const IMAGES_EVENTS = {} as const satisfies Record<string, EventSpec>;
