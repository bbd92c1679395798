/**
 * Builds `window.relay` from the contract: one named function per route (a one-way route's
 * returns nothing), one `on…` subscriber per event, and nothing else.
 *
 * The preload passes `ipcRenderer.invoke`, `ipcRenderer.send` and a subscriber over
 * `ipcRenderer.on`, and exposes the result with `contextBridge.exposeInMainWorld`.
 *
 * Nothing is thrown across the bridge: a route's function resolves with the router's answer as
 * plain data, `{ ok: true, value }` or `{ ok: false, error }` (an `IpcError`), whatever happened
 * (a refusal, an answer that is not one, an `invoke` that failed). Electron's contextBridge
 * copies an Error that crosses it as a new Error with its message alone, so an error thrown here
 * would reach the page without its kind, status, message key, values, parts or field; plain data
 * crosses whole. The page's own module (`renderer/src/lib/relay-bridge.ts`) turns a failure into
 * an error of the page's world.
 */
import type { EventSpec, IpcResult, PayloadOf, RequestOf, ResponseOf, RouteSpec } from './define';

export type Invoke = (channel: string, payload: unknown) => Promise<unknown>;
/** Sends a one-way route's payload; nothing comes back. */
export type Send = (channel: string, payload: unknown) => void;
/** Subscribes to one channel; the listener gets the payload only, never an event object. */
export type Subscribe = (channel: string, listener: (payload: unknown) => void) => () => void;

type Capitalize1<S extends string> = S extends `${infer F}${infer R}` ? `${Uppercase<F>}${R}` : S;

/**
 * A route's function as the bridge exposes it: a promise of its answer or its error as data, or
 * nothing for a one-way route.
 */
type Outcome<R extends RouteSpec> = R extends { oneWay: true }
  ? void
  : Promise<IpcResult<ResponseOf<R>>>;

/** The same route once the page's module has unwrapped it: its value, or a rejection. */
type Answered<R extends RouteSpec> = R extends { oneWay: true } ? void : Promise<ResponseOf<R>>;

export type BridgeRoutes<Routes extends Record<string, RouteSpec>> = {
  readonly [Name in keyof Routes]: undefined extends RequestOf<Routes[Name]>
    ? (payload?: RequestOf<Routes[Name]>) => Outcome<Routes[Name]>
    : (payload: RequestOf<Routes[Name]>) => Outcome<Routes[Name]>;
};

/**
 * The routes as the page calls them (`renderer/src/lib/relay-bridge.ts` unwraps each answer): a
 * route's function resolves with its value and rejects with an error of the page's own world.
 */
export type AnsweredRoutes<Routes extends Record<string, RouteSpec>> = {
  readonly [Name in keyof Routes]: undefined extends RequestOf<Routes[Name]>
    ? (payload?: RequestOf<Routes[Name]>) => Answered<Routes[Name]>
    : (payload: RequestOf<Routes[Name]>) => Answered<Routes[Name]>;
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

/** The bridge as the page calls it: the routes unwrapped, the events as they are. */
export type AnsweredBridge<
  Routes extends Record<string, RouteSpec>,
  Events extends Record<string, EventSpec>,
> = AnsweredRoutes<Routes> & BridgeEvents<Events>;

function isResult(value: unknown): value is IpcResult<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { ok?: unknown }).ok === 'boolean'
  );
}

function internal(message: string): IpcResult<never> {
  return { ok: false, error: { kind: 'internal', message } };
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
    bridge[name] = async (payload?: unknown): Promise<IpcResult<unknown>> => {
      let result: unknown;
      try {
        result = await invoke(spec.channel, payload);
      } catch (error) {
        // `ipcRenderer.invoke` rejects when the payload cannot be cloned or main's handler threw.
        return internal(error instanceof Error ? error.message : String(error));
      }
      return isResult(result) ? result : internal(`No valid answer came back for ${spec.channel}.`);
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
