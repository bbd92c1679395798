import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { oneWay, route, type IpcError } from '../../../electron/shared/ipc/define';
import { ROUTES } from '../../../electron/shared/ipc/contract';
import {
  createRouter,
  originOf,
  trustedSender,
  type Handlers,
  type IpcSender,
} from '../../../electron/main/ipc/router';
import { AppError } from '../../../electron/main/services/app-error';
import { RelayError } from '../../../electron/main/services/relay/relay-client';
import { errorText } from '../../../electron/main/services/words';

const ours: IpcSender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };
const isTrusted = trustedSender(['app://relay'], () => [1]);

const routes = {
  greet: route(
    'test:greet',
    z.strictObject({ name: z.string().min(1).max(20) }),
    z.object({ text: z.string() }),
  ),
  fail: route('test:fail', z.undefined(), z.null()),
  tick: oneWay('test:tick', z.strictObject({ frame: z.number().int().nonnegative() })),
  crash: oneWay('test:crash', z.undefined()),
};

function makeRouter(
  handlers: Partial<Handlers<typeof routes>> = {},
  onInternalError = vi.fn(),
  onRefused = vi.fn(),
) {
  const ticks: number[] = [];
  const all: Handlers<typeof routes> = {
    greet: ({ name }) => ({ text: `hello ${name}` }),
    fail: () => {
      throw new Error('disk on fire at /home/person/secret');
    },
    tick: ({ frame }) => {
      ticks.push(frame);
    },
    crash: () => {
      throw new Error('a fault in a one-way handler');
    },
    ...handlers,
  };
  return {
    router: createRouter(routes, all, { isTrustedSender: isTrusted, onInternalError, onRefused }),
    onInternalError,
    onRefused,
    ticks,
  };
}

describe('the router, one-way routes', () => {
  it('lists them apart from the routes that answer', () => {
    const { router } = makeRouter();
    expect(router.channels.sort()).toEqual(['test:fail', 'test:greet']);
    expect(router.oneWayChannels.sort()).toEqual(['test:crash', 'test:tick']);
  });

  it('runs the handler of a valid message from our window, and answers nothing', async () => {
    const { router, ticks, onRefused } = makeRouter();
    await expect(router.receive('test:tick', { frame: 3 }, ours)).resolves.toBeUndefined();
    expect(ticks).toEqual([3]);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('drops a message from another page or frame, without running its handler', async () => {
    const { router, ticks, onRefused } = makeRouter();
    const others: IpcSender[] = [
      { ...ours, url: 'https://evil.example/' },
      { ...ours, isMainFrame: false },
      { ...ours, webContentsId: 9 },
    ];
    for (const sender of others) await router.receive('test:tick', { frame: 1 }, sender);
    expect(ticks).toEqual([]);
    expect(onRefused).toHaveBeenCalledTimes(3);
    expect(onRefused).toHaveBeenLastCalledWith(
      'test:tick',
      expect.objectContaining({ kind: 'forbidden' }),
    );
  });

  it('drops a payload that does not fit its schema, naming the field', async () => {
    const { router, ticks, onRefused } = makeRouter();
    for (const payload of [{ frame: -1 }, { frame: 1, extra: true }, 'tick', undefined])
      await router.receive('test:tick', payload, ours);
    expect(ticks).toEqual([]);
    expect(onRefused).toHaveBeenCalledTimes(4);
    expect(onRefused.mock.calls[0]).toEqual([
      'test:tick',
      expect.objectContaining({ kind: 'invalid_request', param: 'frame' }),
    ]);
  });

  it('keeps the two kinds apart: a one-way route is not called, a call is not sent', async () => {
    const { router, ticks, onRefused } = makeRouter();
    expect(await router.dispatch('test:tick', { frame: 1 }, ours)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request', message: expect.stringContaining('one way') },
    });
    expect(ticks).toEqual([]);
    const greet = vi.fn();
    const second = makeRouter({ greet });
    await second.router.receive('test:greet', { name: 'Ada' }, ours);
    await second.router.receive('test:nope', undefined, ours);
    expect(greet).not.toHaveBeenCalled();
    expect(second.onRefused).toHaveBeenCalledTimes(2);
    expect(onRefused).not.toHaveBeenCalled();
  });

  it('reports a fault in a one-way handler to main, never throwing', async () => {
    const { router, onInternalError } = makeRouter();
    await expect(router.receive('test:crash', undefined, ours)).resolves.toBeUndefined();
    expect(onInternalError).toHaveBeenCalledWith('test:crash', expect.any(Error));
  });
});

describe('the router', () => {
  it('answers a valid request from our window', async () => {
    const { router } = makeRouter();
    expect(await router.dispatch('test:greet', { name: 'Ada' }, ours)).toEqual({
      ok: true,
      value: { text: 'hello Ada' },
    });
  });

  it('refuses an unknown channel, even one named like an object property', async () => {
    const { router } = makeRouter();
    for (const channel of ['test:nope', '__proto__', 'constructor', 'toString']) {
      expect(await router.dispatch(channel, undefined, ours)).toMatchObject({
        ok: false,
        error: { kind: 'invalid_request' },
      });
    }
  });

  it.each([
    ['an iframe', { ...ours, isMainFrame: false }],
    ['another window', { ...ours, webContentsId: 2 }],
    ['another origin', { ...ours, url: 'https://evil.example/app' }],
    ['a file page', { ...ours, url: 'file:///tmp/index.html' }],
    ['a garbage url', { ...ours, url: 'not a url' }],
  ])('refuses a call from %s without running the handler', async (_name, sender) => {
    const greet = vi.fn(() => ({ text: 'x' }));
    const { router } = makeRouter({ greet });
    expect(await router.dispatch('test:greet', { name: 'Ada' }, sender)).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    expect(greet).not.toHaveBeenCalled();
  });

  it.each([
    ['a missing field', {}, 'name'],
    ['a wrong type', { name: 42 }, 'name'],
    ['an oversized string', { name: 'x'.repeat(10_000) }, 'name'],
    ['an unknown field', { name: 'Ada', admin: true }, undefined],
    ['a __proto__ key', JSON.parse('{"name":"Ada","__proto__":{"polluted":true}}'), undefined],
    ['no object at all', 'Ada', undefined],
  ])('refuses %s with a clear message', async (_name, payload, param) => {
    const greet = vi.fn(() => ({ text: 'x' }));
    const { router } = makeRouter({ greet });
    const result = await router.dispatch('test:greet', payload, ours);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('invalid_request');
      expect(result.error.message).toMatch(/^The request to test:greet is not valid: /);
      if (param) expect(result.error.param).toBe(param);
    }
    expect(greet).not.toHaveBeenCalled();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("passes a RelayError's kind and details through", async () => {
    const { router } = makeRouter({
      greet: () => {
        throw new RelayError('rate_limited', 'slow down', { status: 429, retryAfterMs: 2000 });
      },
    });
    expect(await router.dispatch('test:greet', { name: 'Ada' }, ours)).toEqual({
      ok: false,
      error: { kind: 'rate_limited', message: 'slow down', status: 429, retryAfterMs: 2000 },
    });
  });

  it('passes an AppError through and hides the details of any other error', async () => {
    const { router, onInternalError } = makeRouter({
      greet: () => {
        throw new AppError('not_found', 'No connection has that id.');
      },
    });
    expect(await router.dispatch('test:greet', { name: 'Ada' }, ours)).toEqual({
      ok: false,
      error: { kind: 'not_found', message: 'No connection has that id.' },
    });
    const named = makeRouter({
      greet: () => {
        throw new AppError('invalid_request', 'Give a name.', { param: 'name' });
      },
    });
    expect(await named.router.dispatch('test:greet', { name: 'Ada' }, ours)).toEqual({
      ok: false,
      error: { kind: 'invalid_request', message: 'Give a name.', param: 'name' },
    });
    const result = await router.dispatch('test:fail', undefined, ours);
    // Said in the person's language from its key, like every other error.
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: 'internal',
        messageId: 'app.fault.handling',
        values: { channel: 'test:fail' },
      },
    });
    expect(JSON.stringify(result)).not.toContain('/home/person');
    expect(onInternalError).toHaveBeenCalledOnce();
  });

  it('drops fields the contract does not name from an answer, and refuses an answer that does not fit', async () => {
    const leaky = makeRouter({
      greet: () => ({ text: 'hi', apiKey: 'sk-should-not-travel' }) as never,
    });
    expect(await leaky.router.dispatch('test:greet', { name: 'Ada' }, ours)).toEqual({
      ok: true,
      value: { text: 'hi' },
    });
    const wrong = makeRouter({ greet: () => ({ text: 7 }) as never });
    expect(await wrong.router.dispatch('test:greet', { name: 'Ada' }, ours)).toMatchObject({
      ok: false,
      error: { kind: 'internal', messageId: 'app.fault.contract' },
    });
  });

  it('refuses to build without a handler for every route', () => {
    expect(() =>
      createRouter(routes, { greet: () => ({ text: '' }) } as never, {
        isTrustedSender: isTrusted,
      }),
    ).toThrow(/test:fail/);
  });

  it('never throws and never runs a handler for arbitrary payloads on any route of the contract', async () => {
    const calls: string[] = [];
    const handlers = Object.fromEntries(
      Object.keys(ROUTES).map((name) => [
        name,
        () => {
          calls.push(name);
          throw new AppError('not_found', 'stub');
        },
      ]),
    ) as unknown as Handlers<typeof ROUTES>;
    const router = createRouter(ROUTES, handlers, { isTrustedSender: isTrusted });
    const channels = Object.values(ROUTES).map((r) => r.channel);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...channels),
        fc.anything({ withObjectString: true, withNullPrototype: true }),
        async (channel, payload) => {
          const result = await router.dispatch(channel, payload, ours);
          expect(typeof result.ok).toBe('boolean');
          if (!result.ok) expect(result.error.message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 2000 },
    );
    // Whatever ran was a payload the contract accepts; a foreign sender never reaches a handler.
    calls.length = 0;
    const foreign = { ...ours, url: 'https://evil.example' };
    for (const channel of channels) await router.dispatch(channel, undefined, foreign);
    expect(calls).toEqual([]);
  });
});

describe('originOf', () => {
  it('gives scheme and host for custom protocols and standard ones', () => {
    expect(originOf('app://relay/index.html#/chat')).toBe('app://relay');
    expect(originOf('http://localhost:5173/x')).toBe('http://localhost:5173');
    expect(originOf('file:///tmp/x')).toBeUndefined();
    expect(originOf('nonsense')).toBeUndefined();
  });
});

describe('the trusted windows', () => {
  it('are exactly the ones given, top frames at our origin: the main window and the quick ask window', () => {
    const open = [1, 2];
    const trusted = trustedSender(['app://relay'], () => open);
    expect(trusted({ url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 })).toBe(
      true,
    );
    expect(trusted({ url: 'app://relay/quick.html', isMainFrame: true, webContentsId: 2 })).toBe(
      true,
    );
    // A third window, a frame inside the quick window, another origin in it: refused.
    expect(trusted({ url: 'app://relay/index.html', isMainFrame: true, webContentsId: 3 })).toBe(
      false,
    );
    expect(trusted({ url: 'app://relay/quick.html', isMainFrame: false, webContentsId: 2 })).toBe(
      false,
    );
    expect(trusted({ url: 'https://evil.example/', isMainFrame: true, webContentsId: 2 })).toBe(
      false,
    );
    // Once the quick window is closed, its id is no longer trusted.
    open.pop();
    expect(trusted({ url: 'app://relay/quick.html', isMainFrame: true, webContentsId: 2 })).toBe(
      false,
    );
  });
});

describe("the router's own words", () => {
  /** The refusal's message is the English of its key in main's catalogue, with its values. */
  function expectKeyed(error: IpcError): void {
    expect(error.messageId, error.message).toBeDefined();
    type Args = Parameters<typeof errorText>;
    expect(errorText('en', error.messageId as Args[1], error.values as Args[2])).toBe(
      error.message,
    );
  }

  async function refusalsOf(): Promise<IpcError[]> {
    const refused = vi.fn();
    const { router } = makeRouter(
      {
        greet: () => ({ text: 42 }) as unknown as { text: string },
      },
      vi.fn(),
      refused,
    );
    const closed = createRouter(
      routes,
      {
        greet: () => ({ text: '' }),
        fail: () => null,
        tick: () => undefined,
        crash: () => undefined,
      },
      { isTrustedSender: isTrusted, mayCall: () => false, onRefused: refused },
    );
    const answers = [
      await router.dispatch('test:nope', undefined, ours),
      await router.dispatch('test:tick', { frame: 1 }, ours),
      await router.dispatch('test:greet', { name: 'Ada' }, { ...ours, isMainFrame: false }),
      await closed.dispatch('test:greet', { name: 'Ada' }, ours),
      await router.dispatch('test:greet', {}, ours),
      await router.dispatch('test:greet', { name: 'Ada', extra: 1 }, ours),
      await router.dispatch('test:greet', 'Ada', ours),
      await router.dispatch('test:greet', { name: 'Ada' }, ours),
      await router.dispatch('test:fail', undefined, ours),
    ];
    await router.receive('test:greet', { name: 'Ada' }, ours);
    const errors = answers.flatMap((answer) => (answer.ok ? [] : [answer.error]));
    expect(errors).toHaveLength(answers.length);
    return [...errors, ...refused.mock.calls.map(([, error]) => error as IpcError)];
  }

  it('says every refusal and fault by a key of its catalogue, never in English alone', async () => {
    const errors = await refusalsOf();
    expect(errors.length).toBeGreaterThanOrEqual(10);
    for (const error of errors) expectKeyed(error);
  });

  it('says them in the language the page shows', async () => {
    const [noRoute, , untrusted, closed] = await refusalsOf();
    for (const error of [noRoute!, untrusted!, closed!]) {
      type Args = Parameters<typeof errorText>;
      const german = errorText('de', error.messageId as Args[1], error.values as Args[2]);
      expect(german).not.toBe(error.message);
      expect(german).toContain('test:');
    }
  });
});
