import { describe, expect, it, vi } from 'vitest';
import { createBridge, type Subscribe } from '../../../electron/shared/ipc/bridge';
import { EVENTS, ROUTES } from '../../../electron/shared/ipc/contract';
import { createRouter, trustedSender, type Handlers } from '../../../electron/main/ipc/router';
import { BridgeError } from '../../../renderer/src/lib/bridge-error';
import { pageBridge } from '../../fakes/page-bridge';

describe('createBridge', () => {
  it('exposes exactly one named function per route and one subscriber per event', () => {
    const bridge = createBridge(ROUTES, EVENTS, vi.fn(), vi.fn(), vi.fn());
    const expected = [
      ...Object.keys(ROUTES),
      ...Object.keys(EVENTS).map((n) => `on${n[0]?.toUpperCase()}${n.slice(1)}`),
    ];
    expect(Object.keys(bridge).sort()).toEqual(expected.sort());
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function');
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('calls the route channel and resolves with the answer as data', async () => {
    const answer = {
      ok: true,
      value: { version: '1.2.3', platform: 'linux', systemLocale: 'de' },
    };
    const invoke = vi.fn(async () => answer);
    const bridge = createBridge(ROUTES, EVENTS, invoke, vi.fn(), vi.fn());
    expect(await bridge.getAppInfo()).toEqual(answer);
    expect(invoke).toHaveBeenCalledWith('app:info', undefined);
  });

  it('never rejects: a refusal, a broken answer and a failed invoke all resolve as data', async () => {
    const refusal = {
      ok: false,
      error: {
        kind: 'unauthorized',
        message: 'bad key',
        status: 401,
        messageId: 'relay.unauthorized',
        values: { name: 'Work' },
      },
    };
    const bridge = createBridge(ROUTES, EVENTS, async () => refusal, vi.fn(), vi.fn());
    const result = await bridge.listModels();
    expect(result).toEqual(refusal);
    // Plain data only: nothing an Error-copying bridge could strip.
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getPrototypeOf((result as { error: object }).error)).toBe(Object.prototype);

    const broken = createBridge(ROUTES, EVENTS, async () => 'garbage', vi.fn(), vi.fn());
    await expect(broken.getSettings()).resolves.toEqual({
      ok: false,
      error: { kind: 'internal', message: 'No valid answer came back for settings:get.' },
    });
    const failing = createBridge(
      ROUTES,
      EVENTS,
      () => Promise.reject(new Error('An object could not be cloned.')),
      vi.fn(),
      vi.fn(),
    );
    await expect(failing.getSettings()).resolves.toEqual({
      ok: false,
      error: { kind: 'internal', message: 'An object could not be cloned.' },
    });
  });

  it('is unwrapped by the page into a BridgeError carrying every field of the failure', async () => {
    const error = {
      kind: 'invalid_request' as const,
      message: 'Several files were refused.',
      status: 400,
      param: 'paths',
      code: 'refused',
      retryAfterMs: 1500,
      partialText: 'Half a reply',
      messageId: 'attachments.refused',
      values: { count: 2, what: { id: 'attachments.kind', values: { n: 1 } } },
      parts: [{ message: 'a.exe is not a file the app reads.', messageId: 'a', values: { n: 1 } }],
    };
    const bridge = pageBridge(
      async () => ({ ok: false, error }),
      () => () => undefined,
      () => undefined,
    );
    const thrown = await bridge.listModels().catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(BridgeError);
    expect(thrown).toMatchObject(error);
    const broken = pageBridge(
      async () => ({ ok: false }),
      () => () => undefined,
      () => undefined,
    );
    await expect(broken.getSettings()).rejects.toMatchObject({ kind: 'internal' });
  });

  it('sends a one-way route with send, returning nothing, and never calls invoke for it', () => {
    const invoke = vi.fn();
    const send = vi.fn();
    const bridge = createBridge(ROUTES, EVENTS, invoke, vi.fn(), send);
    expect(bridge.chatFrameReady()).toBeUndefined();
    expect(send).toHaveBeenCalledExactlyOnceWith('chat:frame-ready', undefined);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('hands listeners the payload only, and returns an unsubscribe', () => {
    const listeners = new Map<string, (payload: unknown) => void>();
    const unsubscribe = vi.fn();
    const subscribe: Subscribe = (channel, listener) => {
      listeners.set(channel, listener);
      return unsubscribe;
    };
    const bridge = createBridge(ROUTES, EVENTS, vi.fn(), subscribe, vi.fn());
    const got: unknown[] = [];
    const off = bridge.onRetryScheduled((payload) => got.push(payload));
    listeners.get('relay:retry-scheduled')?.({
      requestId: 'r',
      attempt: 1,
      delayMs: 5,
      kind: 'rate_limited',
      message: 'm',
    });
    expect(got).toEqual([
      { requestId: 'r', attempt: 1, delayMs: 5, kind: 'rate_limited', message: 'm' },
    ]);
    off();
    expect(unsubscribe).toHaveBeenCalledOnce();
  });

  it('talks to the real router end to end, with errors typed on the way back', async () => {
    const handlers = {
      getAppInfo: () => ({ version: '0.1.0', platform: 'linux', systemLocale: 'en' }),
      deleteConnection: () => null,
    } as unknown as Handlers<typeof ROUTES>;
    for (const name of Object.keys(ROUTES)) {
      (handlers as Record<string, unknown>)[name] ??= () => {
        throw new Error('not wired in this test');
      };
    }
    const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };
    const router = createRouter(ROUTES, handlers, {
      isTrustedSender: trustedSender(['app://relay'], () => [1]),
    });
    const bridge = pageBridge(
      (channel, payload) => router.dispatch(channel, payload, sender),
      () => () => undefined,
      (channel, payload) => void router.receive(channel, payload, sender),
    );
    expect(await bridge.getAppInfo()).toEqual({
      version: '0.1.0',
      platform: 'linux',
      systemLocale: 'en',
    });
    await expect(bridge.deleteConnection({ id: '' })).rejects.toMatchObject({
      kind: 'invalid_request',
      param: 'id',
    });
    await expect(bridge.getSettings()).rejects.toMatchObject({ kind: 'internal' });
  });
});
