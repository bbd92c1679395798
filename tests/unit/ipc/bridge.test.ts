import { describe, expect, it, vi } from 'vitest';
import { BridgeError, createBridge, type Subscribe } from '../../../electron/shared/ipc/bridge';
import { EVENTS, ROUTES } from '../../../electron/shared/ipc/contract';
import { createRouter, trustedSender, type Handlers } from '../../../electron/main/ipc/router';

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

  it('calls the route channel and unwraps the answer', async () => {
    const invoke = vi.fn(async () => ({
      ok: true,
      value: { version: '1.2.3', platform: 'linux', systemLocale: 'de' },
    }));
    const bridge = createBridge(ROUTES, EVENTS, invoke, vi.fn(), vi.fn());
    expect(await bridge.getAppInfo()).toEqual({
      version: '1.2.3',
      platform: 'linux',
      systemLocale: 'de',
    });
    expect(invoke).toHaveBeenCalledWith('app:info', undefined);
  });

  it('rejects with a typed BridgeError carrying the kind', async () => {
    const bridge = createBridge(
      ROUTES,
      EVENTS,
      async () => ({ ok: false, error: { kind: 'unauthorized', message: 'bad key', status: 401 } }),
      vi.fn(),
      vi.fn(),
    );
    const error = await bridge.listModels().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ kind: 'unauthorized', message: 'bad key', status: 401 });
    const broken = createBridge(ROUTES, EVENTS, async () => 'garbage', vi.fn(), vi.fn());
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
    const bridge = createBridge(
      ROUTES,
      EVENTS,
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
