/**
 * The IPC router: sender check, then zod parse, then a thin handler.
 *
 * Plain functions of `(channel, payload, sender)`: `dispatch` for a call (`ipcMain.handle` in the
 * app), `receive` for a one-way route (`ipcMain.on`); the e2e harness and the benchmarks call the
 * same functions over Playwright bindings. Neither throws: every call's outcome is an
 * `IpcResult`, so a malformed payload or a failing handler cannot crash main or leave the
 * renderer with an opaque "Error invoking remote method"; a one-way message that fails a check is
 * dropped, its handler not run, and reported to `onRefused`.
 */
import type { z } from 'zod';
import { issuePathToParam } from '../../shared/relay-requests';
import type { IpcError, IpcResult, RouteSpec } from '../../shared/ipc/define';
import { errorInfo, faultInfo } from '../services/app-error';
import { issueSaid, messageFields, said, type Said } from '../services/words';

/** What the router knows of who is calling: the frame that sent the message. */
export interface IpcSender {
  /** The URL of the sending frame. */
  url: string;
  /** Whether the frame is the top frame of its page (not an iframe). */
  isMainFrame: boolean;
  /** Which window's contents sent it. */
  webContentsId: number;
}

export type Handlers<Routes extends Record<string, RouteSpec>> = {
  [Name in keyof Routes]: (
    request: z.output<Routes[Name]['request']>,
    sender: IpcSender,
  ) => Routes[Name] extends { oneWay: true }
    ? void | Promise<void>
    : Promise<z.input<Routes[Name]['response']>> | z.input<Routes[Name]['response']>;
};

export interface RouterOptions {
  /** Whether a message may be answered: our window's top frame, on our origin. */
  isTrustedSender: (sender: IpcSender) => boolean;
  /**
   * Whether this trusted sender may call this route (its name in the contract): each window gets
   * the routes it needs (`window-routes.ts`). All of them when absent.
   */
  mayCall?: (sender: IpcSender, route: string) => boolean;
  /** Where faults inside handlers are reported (never to the renderer in detail). */
  onInternalError?: (channel: string, error: unknown) => void;
  /** Where a one-way message refused by a check is reported (there is no answer to carry it). */
  onRefused?: (channel: string, error: IpcError) => void;
}

export type Dispatch = (
  channel: string,
  payload: unknown,
  sender: IpcSender,
) => Promise<IpcResult<unknown>>;

/** Takes a one-way message: resolves once its handler ran, or it was refused. */
export type Receive = (channel: string, payload: unknown, sender: IpcSender) => Promise<void>;

export interface Router {
  dispatch: Dispatch;
  receive: Receive;
  /** The channels of the routes that answer (`ipcMain.handle`). */
  channels: string[];
  /** The channels of the one-way routes (`ipcMain.on`). */
  oneWayChannels: string[];
}

type Entry = {
  name: string;
  spec: RouteSpec;
  handler: (request: unknown, sender: IpcSender) => unknown;
};

/**
 * A payload its schema refused: "The request to … is not valid: param: detail", the detail in
 * the schema's words (their key when they have one, so the page shows them in its language).
 */
function requestRefused(channel: string, param: string, issue: z.core.$ZodIssue | undefined): Said {
  let detail: string | Said;
  if (issue === undefined) detail = said('router.doesNotFit');
  else if (issue.code === 'unrecognized_keys') {
    detail = said('form.unexpectedFields', {
      fields: issue.keys.map((k) => JSON.stringify(k)).join(', '),
    });
  } else {
    detail = issueSaid(issue);
  }
  return param
    ? said('form.requestInvalidAt', { channel, param, detail })
    : said('form.requestInvalid', { channel, detail });
}

/** A refusal of the router, in words of main's catalogue. */
function refused(kind: IpcError['kind'], words: Said): IpcError {
  return { kind, ...messageFields(words) };
}

function fail(error: IpcError): IpcResult<never> {
  return { ok: false, error };
}

export function createRouter<Routes extends Record<string, RouteSpec>>(
  routes: Routes,
  handlers: Handlers<Routes>,
  options: RouterOptions,
): Router {
  const byChannel = new Map<string, Entry>();
  for (const [name, spec] of Object.entries(routes)) {
    const handler = (handlers as Record<string, (request: unknown, sender: IpcSender) => unknown>)[
      name
    ];
    if (typeof handler !== 'function') throw new Error(`No handler for the route ${spec.channel}`);
    byChannel.set(spec.channel, { name, spec, handler });
  }

  /** The route and its parsed request, or why the message is refused: the same checks either way. */
  function check(
    channel: string,
    payload: unknown,
    sender: IpcSender,
    oneWay: boolean,
  ): { entry: Entry; request: unknown } | { error: IpcError } {
    const entry = typeof channel === 'string' ? byChannel.get(channel) : undefined;
    if (entry === undefined || (entry.spec.oneWay === true) !== oneWay) {
      const name = String(channel).slice(0, 100);
      return {
        error: refused(
          'invalid_request',
          said(
            entry === undefined ? 'router.noRoute' : oneWay ? 'router.answers' : 'router.oneWay',
            { channel: name },
          ),
        ),
      };
    }
    let trusted = false;
    try {
      trusted = options.isTrustedSender(sender);
    } catch {
      trusted = false;
    }
    if (!trusted) {
      return { error: refused('forbidden', said('router.foreignPage', { channel })) };
    }
    let allowed = true;
    try {
      allowed = options.mayCall?.(sender, entry.name) ?? true;
    } catch {
      allowed = false;
    }
    if (!allowed) {
      return { error: refused('forbidden', said('router.notOpenHere', { channel })) };
    }
    const parsed = entry.spec.request.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue ? issuePathToParam(issue.path) : '';
      const error = refused('invalid_request', requestRefused(channel, param, issue));
      if (param) error.param = param;
      return { error };
    }
    return { entry, request: parsed.data };
  }

  const dispatch: Dispatch = async (channel, payload, sender) => {
    const checked = check(channel, payload, sender, false);
    if ('error' in checked) return fail(checked.error);
    const { entry, request } = checked;
    try {
      const value = await entry.handler(request, sender);
      const answer = entry.spec.response.safeParse(value);
      if (!answer.success) {
        options.onInternalError?.(channel, answer.error);
        return fail(faultInfo(undefined, 'app.fault.contract', { channel: String(channel) }));
      }
      return { ok: true, value: answer.data };
    } catch (error) {
      const known = errorInfo(error);
      if (known) return fail(known);
      options.onInternalError?.(channel, error);
      return fail(faultInfo(undefined, 'app.fault.handling', { channel: String(channel) }));
    }
  };

  const receive: Receive = async (channel, payload, sender) => {
    const checked = check(channel, payload, sender, true);
    if ('error' in checked) {
      options.onRefused?.(String(channel).slice(0, 100), checked.error);
      return;
    }
    try {
      await checked.entry.handler(checked.request, sender);
    } catch (error) {
      options.onInternalError?.(channel, error);
    }
  };

  const entries = [...byChannel.values()];
  return {
    dispatch,
    receive,
    channels: entries.filter((e) => !e.spec.oneWay).map((e) => e.spec.channel),
    oneWayChannels: entries.filter((e) => e.spec.oneWay).map((e) => e.spec.channel),
  };
}

/**
 * The usual sender rule: the top frame of one of our windows, at our own origin. `origins` are
 * the app's (its custom protocol in production, the dev server in development).
 */
export function trustedSender(
  origins: readonly string[],
  windowIds: () => readonly number[],
): (sender: IpcSender) => boolean {
  // An empty entry would match every URL that has no origin: it is never trusted.
  const trusted = origins.filter((origin) => origin !== '');
  return (sender) => {
    if (!sender.isMainFrame || !windowIds().includes(sender.webContentsId)) return false;
    const origin = originOf(sender.url);
    return origin !== undefined && trusted.includes(origin);
  };
}

/**
 * `scheme://host` of a URL. WHATWG URL gives the origin "null" for schemes it does not know,
 * which a custom app protocol is outside Electron, so it is rebuilt from its parts.
 */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.origin !== 'null') return parsed.origin;
    return parsed.host === '' ? undefined : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}
