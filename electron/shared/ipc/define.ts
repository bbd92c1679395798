/**
 * The building blocks of the IPC contract: a route (renderer asks, main answers), a one-way route
 * (renderer tells main, nothing comes back) and an event (main tells the renderer), each a
 * channel name with zod schemas, and the envelope every answer travels in.
 */
import { z } from 'zod';
import { RELAY_ERROR_KINDS } from '../relay-errors';

export interface RouteSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  channel: string;
  request: Req;
  response: Res;
  /** Sent one way (see `oneWay`): main answers nothing. */
  oneWay?: true;
}

export interface EventSpec<Payload extends z.ZodType = z.ZodType> {
  channel: string;
  payload: Payload;
}

export function route<Req extends z.ZodType, Res extends z.ZodType>(
  channel: string,
  request: Req,
  response: Res,
): RouteSpec<Req, Res> {
  return { channel, request, response };
}

/**
 * A one-way route: the page sends, main checks the sender and the payload exactly as for a call
 * and runs the handler, and no answer crosses back. For a signal the page sends often (a frame
 * shown, ~60 a second), where an answer to each would double the messages on the bridge.
 * The preload sends it with `ipcRenderer.send`; main listens with `ipcMain.on`.
 */
export function oneWay<Req extends z.ZodType>(
  channel: string,
  request: Req,
): RouteSpec<Req, z.ZodUndefined> & { oneWay: true } {
  return { channel, request, response: z.undefined(), oneWay: true };
}

export function event<Payload extends z.ZodType>(
  channel: string,
  payload: Payload,
): EventSpec<Payload> {
  return { channel, payload };
}

/** What the platform does with an event: sends its payload on its channel (`webContents.send`). */
export type SendEvent = (channel: string, payload: unknown) => void;

/**
 * Sends an event by its name in the contract, with a payload its schema takes: services say
 * `emit('chatReplyFinished', payload)`, never a channel string.
 */
export type Emitter<Events extends Record<string, EventSpec>> = <Name extends keyof Events>(
  name: Name,
  payload: z.input<Events[Name]['payload']>,
) => void;

export function createEmitter<Events extends Record<string, EventSpec>>(
  events: Events,
  send: SendEvent,
): Emitter<Events> {
  return (name, payload) => send(events[name]!.channel, payload);
}

/**
 * Errors an answer can carry: the relay's kinds, plus the router's own (a payload that does not
 * fit its schema, a sender that is not our window, a record that does not exist, a fault in main).
 */
export const IPC_ERROR_KINDS = [
  ...RELAY_ERROR_KINDS,
  'invalid_request',
  'forbidden',
  'not_found',
  'internal',
] as const;
export type IpcErrorKind = (typeof IPC_ERROR_KINDS)[number];

const plainValue = z.union([z.string(), z.number()]);

/**
 * A message of main's `errors` catalogue (`electron/shared/messages`) by its key, with its values
 * (text, numbers, or another message): the page formats it in the language it shows. The English
 * text stays in `message`, for logs and for data written before messages had keys.
 */
export const messageRefFields = {
  messageId: z.string().max(200).optional(),
  values: z
    .record(
      z.string(),
      z.union([
        plainValue,
        z.object({ id: z.string().max(200), values: z.record(z.string(), plainValue).optional() }),
      ]),
    )
    .optional(),
};

export const ipcErrorSchema = z.object({
  kind: z.enum(IPC_ERROR_KINDS),
  message: z.string(),
  ...messageRefFields,
  status: z.number().int().optional(),
  param: z.string().optional(),
  code: z.string().optional(),
  retryAfterMs: z.number().nonnegative().optional(),
  partialText: z.string().optional(),
  /**
   * Several messages said at once (each file a sending refuses), in order, each with its key:
   * `message` is their English, joined; the page shows each in its language.
   */
  parts: z
    .array(z.object({ message: z.string(), ...messageRefFields }))
    .max(100)
    .optional(),
});
export type IpcError = z.infer<typeof ipcErrorSchema>;

/** Every answer: the value, or the error. Thrown errors never cross the bridge as they are. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export type RequestOf<R extends RouteSpec> = z.input<R['request']>;
export type ResponseOf<R extends RouteSpec> = z.output<R['response']>;
export type PayloadOf<E extends EventSpec> = z.output<E['payload']>;
