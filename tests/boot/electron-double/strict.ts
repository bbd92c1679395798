/**
 * What makes the Electron double strict: every object it hands the app is a Proxy that answers
 * only the properties the double implements, records every call made through it, and throws,
 * naming the whole property path (`electron.app.setAsDefaultProtocolClient`), on anything else.
 *
 * A throw can be swallowed by a `try` in the app or a library (electron-log reads `app.getPath`
 * inside one), so every miss is also written to the journal, and the boot tests fail on any.
 */

/** One call the app made into the double. */
export interface RecordedCall {
  /** Order among all calls. */
  seq: number;
  /** `app.enableSandbox`, `new BrowserWindow`, `BrowserWindow#1.loadURL`, … */
  path: string;
  /** The arguments, described as plain data (`describe`). */
  args: unknown[];
  /** Whether Electron's app was ready when the call was made. */
  afterReady: boolean;
}

/** A property the app reached for that the double does not implement. */
export interface MissingApi {
  path: string;
  how: 'get' | 'set' | 'call' | 'construct';
}

export interface Journal {
  call(path: string, args: readonly unknown[]): void;
  missing(miss: MissingApi): void;
}

export class NotImplementedError extends Error {
  override readonly name = 'NotImplementedError';
  constructor(miss: MissingApi) {
    super(
      `The Electron double does not implement ${miss.path} (${miss.how}). Add it to ` +
        'tests/boot/electron-double/electron-double.ts, doing what Electron documents, and assert ' +
        'its use in the boot test.',
    );
  }
}

/** Every proxy the double made, with its path, so arguments that are doubles print by name. */
const PATHS = new WeakMap<object, string>();

/**
 * Keys that code asks for to find out what a value is rather than to use it: a thenable check
 * (`await`), `JSON.stringify`, test matchers. Absent unless implemented, without an error.
 */
const PROBES = new Set(['then', 'toJSON', 'asymmetricMatch', '$$typeof', 'nodeType']);

function missing(journal: Journal, miss: MissingApi): never {
  journal.missing(miss);
  throw new NotImplementedError(miss);
}

/**
 * `impl` behind a proxy that allows exactly what `impl` has (own or inherited: an EventEmitter's
 * methods count, as Electron's objects are EventEmitters). Functions read through it are recorded
 * when called, as `<path>.<key>`.
 */
export function strict<T extends object>(path: string, impl: T, journal: Journal): T {
  const wrappers = new Map<string, unknown>();
  const proxy = new Proxy(impl, {
    get(target, key) {
      if (typeof key === 'symbol') return Reflect.get(target, key);
      if (!(key in target)) {
        if (PROBES.has(key)) return undefined;
        return missing(journal, { path: `${path}.${key}`, how: 'get' });
      }
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function' || PATHS.has(value)) return value;
      let wrapper = wrappers.get(key);
      if (wrapper === undefined) {
        const name = `${path}.${key}`;
        wrapper = function (this: unknown, ...args: unknown[]) {
          journal.call(name, args);
          const result: unknown = Reflect.apply(value, target, args);
          // An EventEmitter's `on` returns the emitter: hand back the proxy, not what it guards.
          return result === target ? proxy : result;
        };
        wrappers.set(key, wrapper);
      }
      return wrapper;
    },
    set(target, key, value) {
      if (typeof key === 'symbol' || !(key in target))
        return missing(journal, { path: `${path}.${String(key)}`, how: 'set' });
      journal.call(`${path}.${key} =`, [value]);
      return Reflect.set(target, key, value);
    },
  });
  PATHS.set(proxy, path);
  return proxy;
}

/**
 * A class of Electron's (`BrowserWindow`): `new` records the call and makes an instance through
 * `create`; its static methods are `statics`, strict like any object; calling it without `new`
 * throws, as a class does.
 */
export function strictClass<Instance extends object, Statics extends object>(
  path: string,
  create: (...args: unknown[]) => Instance,
  statics: Statics,
  journal: Journal,
): Statics & (new (...args: unknown[]) => Instance) {
  const members = strict(path, statics, journal);
  const target = function () {} as unknown as object;
  const proxy = new Proxy(target, {
    construct(_target, args) {
      journal.call(`new ${path}`, args);
      return create(...args);
    },
    apply() {
      throw new TypeError(`Class constructor ${path} cannot be invoked without 'new'`);
    },
    get(_target, key) {
      if (key === 'prototype') return Reflect.get(target, key);
      return Reflect.get(members, key);
    },
    set(_target, key, value) {
      return Reflect.set(members, key, value);
    },
  });
  PATHS.set(proxy, path);
  return proxy as Statics & (new (...args: unknown[]) => Instance);
}

/**
 * An export of Electron's that the double does not implement: importing it works (as it does in
 * Electron), touching it in any way throws and is recorded.
 */
export function unimplemented(path: string, journal: Journal): object {
  const target = function () {} as unknown as object;
  const proxy = new Proxy(target, {
    get(_target, key) {
      if (typeof key === 'symbol') return undefined;
      if (PROBES.has(key)) return undefined;
      return missing(journal, { path: `${path}.${key}`, how: 'get' });
    },
    set(_target, key) {
      return missing(journal, { path: `${path}.${String(key)}`, how: 'set' });
    },
    apply() {
      return missing(journal, { path, how: 'call' });
    },
    construct() {
      return missing(journal, { path: `new ${path}`, how: 'construct' });
    },
  });
  PATHS.set(proxy, path);
  return proxy;
}

/** The path of a proxy the double made, if `value` is one. */
export function pathOf(value: unknown): string | undefined {
  return typeof value === 'object' || typeof value === 'function'
    ? PATHS.get(value as object)
    : undefined;
}

/**
 * A value as plain data for the journal (sent to the test over IPC): doubles by their path,
 * functions by name, bytes by length, other class instances by class name.
 */
export function describe(value: unknown, depth = 0): unknown {
  const path = pathOf(value);
  if (path !== undefined) return { $double: path };
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function') return { $function: value.name || 'anonymous' };
    if (typeof value === 'bigint' || typeof value === 'symbol') return String(value);
    return value;
  }
  if (depth > 5) return { $deep: true };
  if (ArrayBuffer.isView(value)) return { $bytes: value.byteLength };
  if (Array.isArray(value)) return value.map((item) => describe(item, depth + 1));
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== null && proto !== Object.prototype) {
    return { $object: (value as { constructor?: { name?: string } }).constructor?.name ?? '?' };
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, describe(item, depth + 1)]),
  );
}
