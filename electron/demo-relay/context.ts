/**
 * What endpoint handlers get: the relay's shared state and the request being answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Accounts } from './accounts';
import type { FaultSwitch } from './faults';
import type { ImageLinks } from './image-links';
import type { DemoRelaySettings } from './options';

export interface RelayState {
  settings: DemoRelaySettings;
  accounts: Accounts;
  faults: FaultSwitch;
  imageLinks: ImageLinks;
  /** Aborted by `close()`: every wait inside the relay listens to it. */
  closing: AbortSignal;
  /** Sequential ids (`chatcmpl-1`, ...), unique for the life of the relay. */
  nextId(prefix: string): string;
  /** The relay's own address, `http://127.0.0.1:<port>`. */
  url(): string;
  /** Whether a request's `Host` header names this relay (see `host-names.ts`). */
  acceptsHost(header: string | undefined): boolean;
}

export interface ResponseContext {
  req: IncomingMessage;
  res: ServerResponse;
  relay: RelayState;
  /** Aborted when the relay closes or the client goes away. */
  signal: AbortSignal;
}

/** A request that passed validation and is ready to be answered. */
export interface PreparedRequest {
  /** Whether the answer is an event stream (decides the headers of a stalled answer). */
  streaming: boolean;
  respond(context: ResponseContext): Promise<void>;
}

export interface Endpoint {
  method: 'GET' | 'POST';
  /** Validates the JSON body (`{}` for GET) and throws a 400 `RelayHttpError` when it is wrong. */
  prepare(body: Record<string, unknown>): PreparedRequest;
}

export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
