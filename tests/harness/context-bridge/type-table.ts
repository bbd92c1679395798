/**
 * The copy rules of Electron's contextBridge as cases, checked the same way in both harnesses:
 * two `vm` realms in Node (tests/unit/context-bridge) and the two worlds of a Chromium page
 * (tests/e2e/context-bridge.e2e.test.ts).
 *
 * A small preload (`TABLE_PRELOAD`, run as the built preload is) exposes an API of every kind of
 * value in the "Parameter / Error / Return Type support" table of Electron's docs/api/
 * context-bridge.md; each case is code of the page that reads it and returns what it saw, as
 * JSON. Where the table and Electron's code differ, the case follows the code and Electron's own
 * spec (spec/api-context-bridge-spec.ts): a symbol keeps its identity across the bridge and
 * works as a key ("should proxy symbols such that symbol equality works"), where the table says
 * symbols are dropped.
 */

/** A preload that exposes every kind of value, as a sandboxed preload (CommonJS, `require`). */
export const TABLE_PRELOAD = String.raw`
const { contextBridge, ipcRenderer } = require('electron');
const secret = Symbol('secret');
class Point {
  constructor() { this.x = 1; this.y = 2; }
  get length() { return 3; }
  norm() { return 5; }
}
const listeners = new Set();
ipcRenderer.on('tick', (_event, payload) => { for (const listener of listeners) listener(payload); });
let reads = 0;
const typed = (message) => Object.assign(new Error(message), { kind: 'unauthorized', status: 401 });
contextBridge.exposeInMainWorld('api', {
  text: 'words', count: 42, yes: true, nothing: null, missing: undefined, big: 10n,
  nested: { list: [1, 'two', { three: 3 }] },
  point: () => new Point(),
  withGetter: () => ({ get read() { reads += 1; return reads; } }),
  hidden: () => Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false }),
  protoKey: () => Object.defineProperty({ data: 1 }, '__proto__', {
    value: { polluted: true }, enumerable: true, writable: true, configurable: true,
  }),
  throwsTyped: () => { throw typed('bad key'); },
  throwsString: () => { throw 'no error'; },
  rejectsTyped: () => Promise.reject(typed('bad key')),
  returnsError: () => Object.assign(new TypeError('as a value'), { kind: 'internal' }),
  failureAsData: async () => ({
    ok: false,
    error: {
      kind: 'unauthorized', message: 'bad key', status: 401, param: 'apiKey',
      messageId: 'relay.unauthorized', values: { name: 'Work', count: 2 },
      parts: [{ message: 'a.exe is refused.', messageId: 'attachments.refused', values: { name: 'a.exe' } }],
    },
  }),
  later: () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 5)),
  promised: { value: Promise.resolve('inside') },
  call: (fn, value) => fn(value),
  echo: (value) => value,
  makeAdder: (n) => (m) => n + m,
  functionsInData: () => ({ items: [{ act: () => 'acted' }] }),
  cloneables: () => ({
    date: new Date(0), regexp: /a+/g, map: new Map([['k', { v: 1 }]]), set: new Set([1, 2]),
    bytes: new Uint8Array([1, 2, 3]), floats: new Float32Array([0.5]), buffer: new ArrayBuffer(4),
  }),
  notCloneable: () => new Map([['f', () => 1]]),
  secret,
  isSecret: (value) => value === secret,
  keyed: () => ({ [secret]: 'by symbol' }),
  onTick: (listener) => { listeners.add(listener); return () => listeners.delete(listener); },
  invoke: (channel, payload) => ipcRenderer.invoke(channel, payload),
  invokeFunction: () => ipcRenderer.invoke('echo', { f: () => 1 }).then(() => 'sent', (e) => e.message),
  sendFunction: () => { try { ipcRenderer.send('note', () => 1); return 'sent'; } catch (e) { return e.message; } },
  requires: (name) => { try { return Object.keys(require(name)).sort(); } catch (e) { return e.message; } },
});
let again = 'no error';
try { contextBridge.exposeInMainWorld('api', {}); } catch (e) { again = e.message; }
contextBridge.exposeInMainWorld('exposedTwice', again);
contextBridge.exposeInMainWorld('loneFunction', () => 'alone');
`;

/** Main's side for the table's preload: what `ipcMain.handle` answers. */
export function tableMain(deliver: (channel: string, payload: unknown) => void) {
  class Reading {
    constructor(
      readonly value = 7,
      readonly unit = 'mm',
    ) {}
    get doubled() {
      return this.value * 2;
    }
  }
  return {
    async handle(channel: string, payload: unknown): Promise<unknown> {
      switch (channel) {
        case 'echo':
          return payload;
        case 'class':
          return new Reading();
        case 'throws':
          throw new Error('handler failed');
        case 'tick':
          deliver('tick', { n: 1, at: new Date(0) });
          deliver('tick', { n: 2 });
          return 'ticked';
        default:
          throw new Error(`No handler registered for '${channel}'`);
      }
    },
    on(): void {},
  };
}

export interface TableCase {
  name: string;
  /** The body of an async function run in the page: it returns what it saw (JSON). */
  code: string;
  expected: unknown;
}

const UNKNOWN_THROW =
  'An unknown exception occurred in the isolated context, an error occurred but a valid exception was not thrown.';

export const TABLE_CASES: TableCase[] = [
  {
    name: 'string, number, boolean, null, undefined and bigint pass as they are',
    code: `return [typeof api.text, api.text, api.count, api.yes, api.nothing, 'missing' in api,
      api.missing === undefined, typeof api.big, String(api.big)];`,
    expected: ['string', 'words', 42, true, null, true, true, 'bigint', '10'],
  },
  {
    name: 'the exposed API is copied with the page’s prototypes, deep-frozen and read-only',
    code: `const own = Object.getOwnPropertyDescriptor(globalThis, 'api');
      const list = api.nested.list;
      const strictWrite = () => { 'use strict'; try { api.count = 1; return 'written'; } catch (e) { return e instanceof TypeError; } };
      return [Object.getPrototypeOf(api) === Object.prototype, Array.isArray(list),
        Object.getPrototypeOf(list) === Array.prototype, Object.isFrozen(api),
        Object.isFrozen(api.nested), Object.isFrozen(list), Object.isFrozen(list[2]),
        Object.isFrozen(api.point), own.writable, own.configurable, own.enumerable, strictWrite()];`,
    expected: [true, true, true, true, true, true, true, true, false, false, true, true],
  },
  {
    name: 'a class instance loses its prototype: own enumerable values only',
    code: `const point = api.point();
      return [Object.keys(point), Object.getPrototypeOf(point) === Object.prototype,
        point.length === undefined, typeof point.norm];`,
    expected: [['x', 'y'], true, true, 'undefined'],
  },
  {
    name: 'a getter is read once, when the object is copied',
    code: `const copy = api.withGetter();
      const own = Object.getOwnPropertyDescriptor(copy, 'read');
      return [own.value, typeof own.get, copy.read, copy.read];`,
    expected: [1, 'undefined', 1, 1],
  },
  {
    name: 'a non-enumerable property is left out; an own "__proto__" stays an own property',
    code: `const hidden = api.hidden(); const keyed = api.protoKey();
      return [Object.keys(hidden), 'hidden' in hidden,
        Object.getPrototypeOf(keyed) === Object.prototype, keyed.polluted === undefined,
        Object.prototype.hasOwnProperty.call(keyed, '__proto__'), keyed.data];`,
    expected: [['shown'], false, true, true, true, 1],
  },
  {
    name: 'an Error thrown across the bridge arrives as a new Error with its message alone',
    code: `try { api.throwsTyped(); return 'no throw'; } catch (e) {
        return [e instanceof Error, Object.getPrototypeOf(e) === Error.prototype, e.message,
          'kind' in e, 'status' in e, Object.keys(e)];
      }`,
    expected: [true, true, 'bad key', false, false, []],
  },
  {
    name: 'a thrown value that is not an Error arrives as Electron’s unknown-exception Error',
    code: `try { api.throwsString(); return 'no throw'; } catch (e) { return [e instanceof Error, e.message]; }`,
    expected: [true, UNKNOWN_THROW],
  },
  {
    name: 'a promise rejected with a typed Error arrives as an Error with its message alone',
    code: `try { await api.rejectsTyped(); return 'resolved'; } catch (e) {
        return [Object.getPrototypeOf(e) === Error.prototype, e.message, 'kind' in e, 'status' in e];
      }`,
    expected: [true, 'bad key', false, false],
  },
  {
    name: 'an Error returned as a value becomes a plain Error with its message (its class and fields lost)',
    code: `const error = api.returnsError();
      return [Object.getPrototypeOf(error) === Error.prototype, error.message, 'kind' in error];`,
    expected: [true, 'as a value', false],
  },
  {
    name: 'a failure resolved as plain data arrives whole: kind, status, key, values, parts, field',
    code: `const result = await api.failureAsData();
      return [Object.getPrototypeOf(result) === Object.prototype, result];`,
    expected: [
      true,
      {
        ok: false,
        error: {
          kind: 'unauthorized',
          message: 'bad key',
          status: 401,
          param: 'apiKey',
          messageId: 'relay.unauthorized',
          values: { name: 'Work', count: 2 },
          parts: [
            {
              message: 'a.exe is refused.',
              messageId: 'attachments.refused',
              values: { name: 'a.exe' },
            },
          ],
        },
      },
    ],
  },
  {
    name: 'promises are proxied both ways, settled with copies',
    code: `const later = api.later();
      return [later instanceof Promise, await later, await api.promised.value,
        await api.echo(Promise.resolve(5)), api.echo(Promise.resolve(1)) instanceof Promise];`,
    expected: [true, { done: true }, 'inside', 5, true],
  },
  {
    name: 'functions are proxied both ways and called synchronously; one sent back is the original',
    code: `const mine = () => 1;
      const adder = api.makeAdder(2);
      return [api.call((v) => v * 2, 21), adder(3), typeof adder, api.echo(mine) === mine,
        api.functionsInData().items[0].act(), globalThis.loneFunction(),
        api.call(() => 'sync', 0) instanceof Promise];`,
    expected: [42, 5, 'function', true, 'acted', 'alone', false],
  },
  {
    name: 'cloneable types go through the structured clone, made with the page’s constructors',
    code: `const c = api.cloneables();
      return [c.date instanceof Date, c.date.getTime(), c.regexp instanceof RegExp, c.regexp.source,
        c.regexp.flags, c.map instanceof Map, c.map.get('k').v, c.set instanceof Set, [...c.set],
        c.bytes instanceof Uint8Array, [...c.bytes], c.floats instanceof Float32Array, c.floats[0],
        c.buffer instanceof ArrayBuffer, c.buffer.byteLength];`,
    expected: [
      true,
      0,
      true,
      'a+',
      'g',
      true,
      1,
      true,
      [1, 2],
      true,
      [1, 2, 3],
      true,
      0.5,
      true,
      4,
    ],
  },
  {
    name: 'what the structured clone refuses is refused, in the world it came from',
    code: `let returned; try { api.notCloneable(); returned = 'no throw'; } catch (e) {
        returned = [Object.getPrototypeOf(e) === Error.prototype, e.message]; }
      let passed; try { api.echo(new Map([['f', () => 1]])); passed = 'no throw'; } catch (e) {
        passed = [Object.getPrototypeOf(e) === Error.prototype, e.message]; }
      let weak; try { api.echo(new WeakMap()); weak = 'no throw'; } catch (e) { weak = e.message; }
      return [returned, passed, weak];`,
    expected: [
      [true, 'Uncaught Error: An object could not be cloned.'],
      [true, 'An object could not be cloned.'],
      'An object could not be cloned.',
    ],
  },
  {
    name: 'a getter that throws while an argument is copied throws the page’s own error',
    code: `const boom = new Error('boom');
      try { api.echo({ get bad() { throw boom; } }); return 'no throw'; } catch (e) { return [e === boom, e.message]; }`,
    expected: [true, 'boom'],
  },
  {
    name: 'symbols keep their identity across the bridge, and work as keys',
    code: `const mine = Symbol('mine');
      return [typeof api.secret, api.isSecret(api.secret), api.keyed()[api.secret],
        api.echo(api.secret) === api.secret, api.echo(mine) === mine,
        api.echo(Symbol.for('shared')) === Symbol.for('shared'),
        api.echo(Symbol.iterator) === Symbol.iterator];`,
    expected: ['symbol', true, 'by symbol', true, true, true, true],
  },
  {
    name: 'nesting deeper than 1000 is refused with Electron’s TypeError',
    code: `const nest = (n) => { let a = []; for (let i = 0; i < n; i++) a = [a]; return a; };
      let deep; try { api.echo(nest(1000)); deep = 'taken'; } catch (e) { deep = [e instanceof TypeError, e.message]; }
      return [Array.isArray(api.echo(nest(999))), deep];`,
    expected: [
      true,
      [
        true,
        'Electron contextBridge recursion depth exceeded.  Nested objects deeper than 1000 are not supported.',
      ],
    ],
  },
  {
    name: 'IPC structured-clones both ways: what main answers arrives as data, prototypes dropped',
    code: `const echoed = await api.invoke('echo', { a: 1, gone: undefined, at: new Date(0), bytes: new Uint8Array([9]) });
      const reading = await api.invoke('class');
      return [Object.keys(echoed).sort(), 'gone' in echoed, echoed.at instanceof Date, echoed.bytes instanceof Uint8Array,
        [...echoed.bytes], Object.getPrototypeOf(reading) === Object.prototype, reading, reading.doubled === undefined];`,
    expected: [
      ['a', 'at', 'bytes', 'gone'],
      true,
      true,
      true,
      [9],
      true,
      { value: 7, unit: 'mm' },
      true,
    ],
  },
  {
    name: 'IPC refuses what it cannot clone, and a handler that throws rejects the invoke',
    code: `const threw = await api.invoke('throws').then(() => 'resolved', (e) => e.message);
      return [await api.invokeFunction(), api.sendFunction(), threw];`,
    expected: [
      'An object could not be cloned.',
      'An object could not be cloned.',
      "Error invoking remote method 'throws': Error: handler failed",
    ],
  },
  {
    name: 'events reach the page’s listener with their payload only, in order, until it unsubscribes',
    code: `const got = [];
      const off = api.onTick((payload) => got.push([payload.n, payload.at instanceof Date]));
      await api.invoke('tick');
      await new Promise((resolve) => setTimeout(resolve, 20));
      off();
      await api.invoke('tick');
      await new Promise((resolve) => setTimeout(resolve, 20));
      return [typeof off, got];`,
    expected: [
      'function',
      [
        [1, true],
        [2, false],
      ],
    ],
  },
  {
    name: 'main’s events and its answers reach the page in the one order main sent them',
    code: `const seen = [];
      const off = api.onTick((payload) => seen.push('event ' + payload.n));
      await api.invoke('tick').then(() => seen.push('answer'));
      off();
      return seen;`,
    expected: ['event 1', 'event 2', 'answer'],
  },
  {
    name: 'the sandboxed preload’s require: electron, events, timers and url only',
    code: `return [api.requires('electron'), api.requires('fs'), api.requires('node:path'),
      api.requires('events').includes('EventEmitter'), api.requires('timers'), api.requires('url')];`,
    expected: [
      ['contextBridge', 'crashReporter', 'ipcRenderer', 'nativeImage', 'webFrame', 'webUtils'],
      'module not found: fs',
      'module not found: node:path',
      true,
      [
        'clearImmediate',
        'clearInterval',
        'clearTimeout',
        'setImmediate',
        'setInterval',
        'setTimeout',
      ],
      ['URL', 'URLSearchParams'],
    ],
  },
  {
    name: 'a second API on an existing name is refused',
    code: `return globalThis.exposedTwice;`,
    expected: 'Cannot bind an API on top of an existing property on the window object',
  },
];

/** The page code of a case, as one expression: an async function called at once. */
export function caseExpression(code: string): string {
  return `(async () => { const api = globalThis.api; ${code} })().then((seen) => JSON.stringify(seen))`;
}
