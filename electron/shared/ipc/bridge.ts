/**
 * Builds `window.relay` from the contract: one named function per route (a one-way route's
 * returns nothing), one `on…` subscriber per event, and nothing else.
 *
 * The preload passes `ipcRenderer.invoke`, `ipcRenderer.send` and a subscriber over
 * `ipcRenderer.on`; the e2e harness passes a Playwright binding's. So the page under test talks
 * to the very router the app ships.
 */
import type {
  EventSpec,
  IpcError,
  IpcResult,
  PayloadOf,
  RequestOf,
  ResponseOf,
  RouteSpec,
} from './define';

export type Invoke = (channel: string, payload: unknown) => Promise<unknown>;
/** Sends a one-way route's payload; nothing comes back. */
export type Send = (channel: string, payload: unknown) => void;
/** Subscribes to one channel; the listener gets the payload only, never an event object. */
export type Subscribe = (channel: string, listener: (payload: unknown) => void) => () => void;

/** The error a bridge function rejects with: the router's typed error, as an Error. */
export class BridgeError extends Error {
  override readonly name = 'BridgeError';
  readonly kind: IpcError['kind'];
  readonly status?: number;
  readonly param?: string;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly partialText?: string;
  /** The message's key in main's catalogue and its values: the page formats it when it shows it. */
  readonly messageId?: string;
  readonly values?: IpcError['values'];
  /** Several messages said at once, each with its key (`message` joins their English). */
  readonly parts?: IpcError['parts'];

  constructor(error: IpcError) {
    super(error.message);
    this.kind = error.kind;
    if (error.messageId !== undefined) this.messageId = error.messageId;
    if (error.values !== undefined) this.values = error.values;
    if (error.parts !== undefined) this.parts = error.parts;
    if (error.status !== undefined) this.status = error.status;
    if (error.param !== undefined) this.param = error.param;
    if (error.code !== undefined) this.code = error.code;
    if (error.retryAfterMs !== undefined) this.retryAfterMs = error.retryAfterMs;
    if (error.partialText !== undefined) this.partialText = error.partialText;
  }
}

type Capitalize1<S extends string> = S extends `${infer F}${infer R}` ? `${Uppercase<F>}${R}` : S;

/** A route's function: a promise of its answer, or nothing for a one-way route. */
type Outcome<R extends RouteSpec> = R extends { oneWay: true } ? void : Promise<ResponseOf<R>>;

export type BridgeRoutes<Routes extends Record<string, RouteSpec>> = {
  readonly [Name in keyof Routes]: undefined extends RequestOf<Routes[Name]>
    ? (payload?: RequestOf<Routes[Name]>) => Outcome<Routes[Name]>
    : (payload: RequestOf<Routes[Name]>) => Outcome<Routes[Name]>;
};

export type BridgeEvents<Events extends Record<string, EventSpec>> = {
  readonly [Name in keyof Events as `on${Capitalize1<Name & string>}`]: (
    listener: (payload: PayloadOf<Events[Name]>) => void,
  ) => () => void;
};

export type Bridge<
  Routes extends Record<string, RouteSpec>,
  Events extends Record<string, EventSpec>,
> = BridgeRoutes<Routes> & BridgeEvents<Events>;

function isResult(value: unknown): value is IpcResult<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { ok?: unknown }).ok === 'boolean'
  );
}

export function createBridge<
  Routes extends Record<string, RouteSpec>,
  Events extends Record<string, EventSpec>,
>(
  routes: Routes,
  events: Events,
  invoke: Invoke,
  subscribe: Subscribe,
  send: Send,
): Bridge<Routes, Events> {
  const bridge: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(routes)) {
    if (spec.oneWay) {
      bridge[name] = (payload?: unknown): void => send(spec.channel, payload);
      continue;
    }
    bridge[name] = async (payload?: unknown) => {
      const result = await invoke(spec.channel, payload);
      if (!isResult(result)) {
        throw new BridgeError({
          kind: 'internal',
          message: `No valid answer came back for ${spec.channel}.`,
        });
      }
      if (result.ok) return result.value;
      throw new BridgeError(result.error);
    };
  }
  for (const [name, spec] of Object.entries(events)) {
    const key = `on${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    bridge[key] = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`${key} needs a function`);
      return subscribe(spec.channel, (payload) => listener(payload));
    };
  }
  return Object.freeze(bridge) as Bridge<Routes, Events>;
}
