/**
 * One side of the context bridge: the copy rules of Electron's `contextBridge`, run inside one
 * JavaScript realm (a Chromium world, or a `vm` context in Node) and talking to its other side in
 * the other realm through a synchronous `send`.
 *
 * Bundled on its own and evaluated in each realm, so every value it makes (objects, arrays,
 * errors, promises, proxy functions) is made with that realm's own constructors, as Electron makes
 * them in the destination context. It follows `PassValueToOtherContextInner` in Electron's
 * shell/renderer/api/electron_api_context_bridge.cc, in its order:
 *
 * 1. primitives (string, number, boolean, null, undefined, bigint, symbol) pass as they are; a
 *    symbol keeps its identity across the bridge (the realms here do not share a V8 isolate as
 *    Electron's worlds do, so each side maps the other's symbols to stand-ins, and a stand-in
 *    sent back is the original again);
 * 2. a value met twice in one copy is the same copy (cycles too);
 * 3. a function becomes a proxy in the destination that calls it synchronously, its arguments and
 *    its return value copied by these same rules; a proxy sent back is its original function; a
 *    synchronous throw arrives as `new Error(message)` (or Electron's "An unknown exception…"
 *    text for a thrown value with no message), a return value that cannot be copied as
 *    `new Error('Uncaught …')`;
 * 4. a promise becomes a promise of the destination, settled with a copy of what it settled with;
 * 5. a native error becomes `new Error(message)` in the destination: every other property is lost;
 * 6. a plain array is copied element by element;
 * 7. an Element or a Blob (in a window) crosses by reference (`options.references`);
 * 8. any other object that is not one of V8's special kinds (`IsPlainObject`: a class instance
 *    too, its prototype dropped) becomes a new object with its own enumerable properties, string
 *    and symbol keys, each read with [[Get]] (a getter is run) and copied by these rules;
 * 9. anything else (Date, RegExp, Map, Set, typed arrays, ArrayBuffer, boxed primitives…) goes
 *    through the structured clone, which refuses what it cannot copy ("An object could not be
 *    cloned.", thrown in the world the value came from).
 *
 * Nesting deeper than 1000 throws Electron's TypeError. `exposeInMainWorld` copies the API into the
 * other world, deep-freezes it and defines it read-only and non-configurable on its global.
 */

/** A value as it crosses: primitives as they are, everything else described. */
export type Wire =
  | string
  | number
  | boolean
  | null
  | undefined
  | bigint
  | { $: 'sym'; wk?: string; key?: string; id?: number; back?: number; d?: string | undefined }
  | { $: 'fn'; id: number }
  | { $: 'fnBack'; id: number }
  | { $: 'promise'; id: number }
  | { $: 'error'; message: string }
  | { $: 'array'; c: number; items: Wire[] }
  | { $: 'object'; c: number; keys: Wire[]; values: Wire[] }
  | { $: 'seen'; c: number }
  | { $: 'ref'; i: number }
  | { $: 'clone'; c: number; v: unknown };

export type Message =
  | { type: 'call'; fn: number; args: Wire[] }
  | { type: 'settle'; promise: number; ok: boolean; value?: Wire; message?: string }
  | { type: 'expose'; key: string; api: Wire }
  | { type: 'release'; fn: number };

/** What a message is answered with: a value, or the message of an error to throw. */
export type Reply = { ok: true; value: Wire } | { ok: false; message: string };

/** A message or a reply, with the values it passes by reference (Elements, Files). */
export interface Envelope<T> {
  body: T;
  refs: unknown[];
}

export interface WorldOptions {
  /** This realm's global object (where an exposed API is defined, in the destination). */
  global: object;
  /**
   * Hands a message to the other side and returns its reply, synchronously. The message has been
   * through the structured clone on the way (as Electron's copies go through V8's serializer).
   */
  send(message: Envelope<Message>): Envelope<Reply | undefined>;
  /** Throws when structured clone refuses `value` (the transport's own clone). */
  cloneCheck(value: unknown): void;
  /** Values that cross by reference: Elements and Blobs in a window (Electron's `IsApiWrapper`). */
  isReference?(value: object): boolean;
  /**
   * Host objects that cross as a structured clone where Electron passes a reference (a Blob that
   * is not a File: the harness has no way to hand over the same one).
   */
  isCloneOnly?(value: object): boolean;
  /** A structured-cloned value made with this realm's constructors (realms that do not). */
  adopt?(value: unknown): unknown;
}

export interface World {
  /** A message from the other side. */
  receive(message: Envelope<Message>): Envelope<Reply | undefined>;
  /** `contextBridge.exposeInMainWorld(key, api)`, called on the preload's side. */
  expose(key: string, api: unknown): void;
}

const MAX_RECURSION = 1000;
const RECURSION_MESSAGE =
  'Electron contextBridge recursion depth exceeded.  Nested objects deeper than 1000 are not supported.';
const NOT_CLONED = 'An object could not be cloned.';
const UNKNOWN_THROW =
  'An unknown exception occurred in the isolated context, an error occurred but a valid exception was not thrown.';
const ALREADY_EXPOSED = 'Cannot bind an API on top of an existing property on the window object';

// This realm's intrinsics, taken before any other code of the realm can change them.
const { defineProperty, freeze, isFrozen } = Object;
const { apply, ownKeys } = Reflect;
const ObjectToString = Object.prototype.toString;
const propertyIsEnumerable = Object.prototype.propertyIsEnumerable;
const PromiseCtor = Promise;
const promiseThen = Promise.prototype.then;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const MapCtor = Map;
const WeakMapCtor = WeakMap;
const isArray = Array.isArray;
const isView = ArrayBuffer.isView;
const symbolKeyFor = Symbol.keyFor;
const symbolFor = Symbol.for;
const SymbolCtor = Symbol;
const StringCtor = String;
const Finalization = typeof FinalizationRegistry === 'function' ? FinalizationRegistry : undefined;

/** The well-known symbols, shared by every realm: `Symbol.iterator`… by name. */
const WELL_KNOWN = new MapCtor<symbol, string>();
for (const name of Object.getOwnPropertyNames(Symbol)) {
  const value = (Symbol as unknown as Record<string, unknown>)[name];
  if (typeof value === 'symbol') WELL_KNOWN.set(value, name);
}

function tagOf(value: object): string {
  return (ObjectToString.call(value) as string).slice(8, -1);
}

/** Calls `check` with `value` as `this`: true unless it throws (a brand check). */
function branded(check: ((this: unknown) => unknown) | undefined, value: object): boolean {
  if (!check) return false;
  try {
    apply(check, value, []);
    return true;
  } catch {
    return false;
  }
}

const getter = (proto: object, name: string) =>
  Object.getOwnPropertyDescriptor(proto, name)?.get as ((this: unknown) => unknown) | undefined;

/**
 * The objects V8 does not count as plain (`IsPlainObject`), besides arrays, errors, promises
 * and functions, which come first: each checked by its brand, not by what it says it is.
 */
const NOT_PLAIN: Record<string, ((value: object) => boolean) | undefined> = {
  Date: (v) => branded(Date.prototype.getTime, v),
  RegExp: (v) => branded(getter(RegExp.prototype, 'source'), v),
  Map: (v) => branded(getter(Map.prototype, 'size'), v),
  Set: (v) => branded(getter(Set.prototype, 'size'), v),
  WeakMap: (v) => branded(WeakMap.prototype.has as () => unknown, v),
  WeakSet: (v) => branded(WeakSet.prototype.has as () => unknown, v),
  ArrayBuffer: (v) => branded(getter(ArrayBuffer.prototype, 'byteLength'), v),
  SharedArrayBuffer: (v) =>
    typeof SharedArrayBuffer === 'function' &&
    branded(getter(SharedArrayBuffer.prototype, 'byteLength'), v),
  Boolean: (v) => branded(Boolean.prototype.valueOf, v),
  Number: (v) => branded(Number.prototype.valueOf, v),
  String: (v) => branded(String.prototype.valueOf, v),
  Symbol: (v) => branded(Symbol.prototype.valueOf, v),
  BigInt: (v) => typeof BigInt === 'function' && branded(BigInt.prototype.valueOf, v),
  Arguments: () => true,
  'Map Iterator': () => true,
  'Set Iterator': () => true,
  Generator: () => true,
  AsyncGenerator: () => true,
  Module: () => true,
};

function isPlainObject(value: object, tag: string): boolean {
  if (isView(value)) return false;
  const check = NOT_PLAIN[tag];
  return !(check && check(value));
}

function isNativeError(value: object, tag: string): boolean {
  const isError = (ErrorCtor as unknown as { isError?: (v: unknown) => boolean }).isError;
  return isError ? isError(value) : tag === 'Error';
}

function messageOf(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  try {
    const message = (error as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** What V8's message of an uncaught exception says: "Uncaught Error: boom". */
function uncaughtText(error: unknown): string {
  try {
    return `Uncaught ${StringCtor(error)}`;
  } catch {
    return 'Uncaught exception';
  }
}

export function createWorld(options: WorldOptions): World {
  const { global: realmGlobal } = options;

  /** Functions of this realm the other side holds proxies of, by id. */
  const exported = new MapCtor<
    number,
    { fn: (...args: unknown[]) => unknown; receiver: unknown }
  >();
  let nextFunction = 1;
  /** Proxies of the other side's functions: their id there. */
  const proxied = new WeakMapCtor<object, number>();
  const released = Finalization
    ? new Finalization<number>((id) => {
        try {
          options.send({ body: { type: 'release', fn: id }, refs: [] });
        } catch {
          // The other side is gone.
        }
      })
    : undefined;

  /** Promises of the other side this side is waiting on. */
  const pending = new MapCtor<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  let nextPromise = 1;

  /** This realm's own symbols the other side has seen, and the other side's, by id. */
  const ownSymbols = new MapCtor<symbol, number>();
  const ownSymbolsById = new MapCtor<number, symbol>();
  const foreignSymbols = new MapCtor<number, symbol>();
  const foreignSymbolIds = new MapCtor<symbol, number>();
  let nextSymbol = 1;

  interface Copy {
    seen: Map<object, number>;
    refs: unknown[];
  }

  function encodeSymbol(symbol: symbol): Wire {
    const wellKnown = WELL_KNOWN.get(symbol);
    if (wellKnown !== undefined) return { $: 'sym', wk: wellKnown };
    const key = symbolKeyFor(symbol);
    if (key !== undefined) return { $: 'sym', key };
    const back = foreignSymbolIds.get(symbol);
    if (back !== undefined) return { $: 'sym', back };
    let id = ownSymbols.get(symbol);
    if (id === undefined) {
      id = nextSymbol++;
      ownSymbols.set(symbol, id);
      ownSymbolsById.set(id, symbol);
    }
    return { $: 'sym', id, d: symbol.description };
  }

  function decodeSymbol(wire: Extract<Wire, { $: 'sym' }>): symbol {
    if (wire.wk !== undefined) return (Symbol as unknown as Record<string, symbol>)[wire.wk]!;
    if (wire.key !== undefined) return symbolFor(wire.key);
    if (wire.back !== undefined) {
      const own = ownSymbolsById.get(wire.back);
      if (own) return own;
    }
    const id = wire.id ?? 0;
    let standIn = foreignSymbols.get(id);
    if (!standIn) {
      standIn = SymbolCtor(wire.d);
      foreignSymbols.set(id, standIn);
      foreignSymbolIds.set(standIn, id);
    }
    return standIn;
  }

  function exportFunction(fn: (...args: unknown[]) => unknown, receiver: unknown): Wire {
    const back = proxied.get(fn);
    if (back !== undefined) return { $: 'fnBack', id: back };
    const id = nextFunction++;
    exported.set(id, { fn, receiver });
    return { $: 'fn', id };
  }

  function exportPromise(promise: object): Wire | undefined {
    const id = nextPromise;
    const settle = (ok: boolean) => (result: unknown) => {
      let body: Message;
      try {
        const copy: Copy = { seen: new MapCtor(), refs: [] };
        body = { type: 'settle', promise: id, ok, value: encode(result, copy, 0, realmGlobal) };
        options.send({ body, refs: copy.refs });
      } catch (error) {
        body = { type: 'settle', promise: id, ok: false, message: uncaughtText(error) };
        options.send({ body, refs: [] });
      }
    };
    try {
      apply(promiseThen, promise, [settle(true), settle(false)]);
    } catch {
      return undefined;
    }
    nextPromise++;
    return { $: 'promise', id };
  }

  function encode(value: unknown, copy: Copy, depth: number, parent: unknown): Wire {
    if (depth >= MAX_RECURSION) throw new TypeErrorCtor(RECURSION_MESSAGE);
    switch (typeof value) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'undefined':
      case 'bigint':
        return value;
      case 'symbol':
        return encodeSymbol(value);
    }
    if (value === null) return null;
    const object = value as object;
    const seen = copy.seen.get(object);
    if (seen !== undefined) return { $: 'seen', c: seen };
    if (typeof value === 'function') {
      return exportFunction(value as (...args: unknown[]) => unknown, parent);
    }
    const tag = tagOf(object);
    if (tag === 'Promise') {
      const promise = exportPromise(object);
      if (promise) return promise;
    }
    if (isNativeError(object, tag)) {
      const message = messageOf(object);
      return { $: 'error', message: message ?? uncaughtText(object) };
    }
    if (isArray(object)) {
      const c = copy.seen.size + 1;
      copy.seen.set(object, c);
      const array = object as unknown[];
      const items: Wire[] = [];
      for (let i = 0; i < array.length; i++) items.push(encode(array[i], copy, depth + 1, array));
      return { $: 'array', c, items };
    }
    if (options.isReference?.(object)) {
      copy.refs.push(object);
      return { $: 'ref', i: copy.refs.length - 1 };
    }
    if (!options.isCloneOnly?.(object) && isPlainObject(object, tag)) {
      const c = copy.seen.size + 1;
      copy.seen.set(object, c);
      const keys: Wire[] = [];
      const values: Wire[] = [];
      for (const key of ownKeys(object)) {
        if (!propertyIsEnumerable.call(object, key)) continue;
        const item = (object as Record<PropertyKey, unknown>)[key];
        keys.push(typeof key === 'symbol' ? encodeSymbol(key) : key);
        values.push(encode(item, copy, depth + 2, object));
      }
      return { $: 'object', c, keys, values };
    }
    // What the structured clone takes, and only that.
    try {
      options.cloneCheck(object);
    } catch {
      throw new ErrorCtor(NOT_CLONED);
    }
    const c = copy.seen.size + 1;
    copy.seen.set(object, c);
    return { $: 'clone', c, v: object };
  }

  function makeProxy(id: number): (...args: unknown[]) => unknown {
    const proxy = function (this: unknown, ...args: unknown[]): unknown {
      const copy: Copy = { seen: new MapCtor(), refs: [] };
      const wires: Wire[] = [];
      for (const arg of args) wires.push(encode(arg, copy, 0, realmGlobal));
      const { body: reply, refs } = options.send({
        body: { type: 'call', fn: id, args: wires },
        refs: copy.refs,
      });
      if (!reply) throw new ErrorCtor('The other side of the context bridge is gone.');
      if (!reply.ok) throw new ErrorCtor(reply.message);
      return decode(reply.value, new MapCtor(), refs);
    };
    defineProperty(proxy, 'name', { value: '' });
    proxied.set(proxy, id);
    released?.register(proxy, id);
    return proxy;
  }

  function decode(wire: Wire, seen: Map<number, unknown>, refs: unknown[]): unknown {
    if (wire === null || typeof wire !== 'object') return wire;
    switch (wire.$) {
      case 'sym':
        return decodeSymbol(wire);
      case 'fn':
        return makeProxy(wire.id);
      case 'fnBack': {
        const entry = exported.get(wire.id);
        if (!entry) throw new ErrorCtor('A function sent back over the bridge was released.');
        return entry.fn;
      }
      case 'promise':
        return new PromiseCtor((resolve, reject) => pending.set(wire.id, { resolve, reject }));
      case 'error':
        return new ErrorCtor(wire.message);
      case 'seen':
        return seen.get(wire.c);
      case 'ref':
        return refs[wire.i];
      case 'array': {
        const array: unknown[] = [];
        seen.set(wire.c, array);
        for (const item of wire.items) array.push(decode(item, seen, refs));
        return array;
      }
      case 'object': {
        const object: Record<PropertyKey, unknown> = {};
        seen.set(wire.c, object);
        for (let i = 0; i < wire.keys.length; i++) {
          const key = wire.keys[i]!;
          const name = typeof key === 'object' && key !== null ? decode(key, seen, refs) : key;
          // CreateDataProperty: a key "__proto__" is an own property, not the prototype.
          defineProperty(object, name as PropertyKey, {
            value: decode(wire.values[i], seen, refs),
            writable: true,
            enumerable: true,
            configurable: true,
          });
        }
        return object;
      }
      case 'clone': {
        const value = options.adopt ? options.adopt(wire.v) : wire.v;
        seen.set(wire.c, value);
        return value;
      }
    }
  }

  function deepFreeze(value: object, frozen: Set<object>): void {
    if (frozen.has(value)) return;
    frozen.add(value);
    for (const key of ownKeys(value)) {
      const child = (value as Record<PropertyKey, unknown>)[key];
      if (
        child !== null &&
        (typeof child === 'object' || typeof child === 'function') &&
        !isView(child)
      )
        deepFreeze(child, frozen);
    }
    if (!isFrozen(value)) freeze(value);
  }

  function answer(body: Reply | undefined, refs: unknown[] = []): Envelope<Reply | undefined> {
    return { body, refs };
  }

  function receive({ body: message, refs }: Envelope<Message>): Envelope<Reply | undefined> {
    switch (message.type) {
      case 'call': {
        const entry = exported.get(message.fn);
        if (!entry) return answer({ ok: false, message: 'This function was released.' });
        const seen = new MapCtor<number, unknown>();
        const args = message.args.map((arg) => decode(arg, seen, refs));
        let result: unknown;
        try {
          result = apply(entry.fn, entry.receiver, args);
        } catch (error) {
          const text = error !== null && typeof error === 'object' ? messageOf(error) : undefined;
          return answer({ ok: false, message: text ?? UNKNOWN_THROW });
        }
        try {
          const copy: Copy = { seen: new MapCtor(), refs: [] };
          const value = encode(result, copy, 0, realmGlobal);
          return answer({ ok: true, value }, copy.refs);
        } catch (error) {
          return answer({ ok: false, message: uncaughtText(error) });
        }
      }
      case 'settle': {
        const waiting = pending.get(message.promise);
        pending.delete(message.promise);
        if (!waiting) return answer(undefined);
        if (message.message !== undefined) waiting.reject(new ErrorCtor(message.message));
        else {
          const value = decode(message.value, new MapCtor(), refs);
          if (message.ok) waiting.resolve(value);
          else waiting.reject(value);
        }
        return answer(undefined);
      }
      case 'expose': {
        if (message.key in realmGlobal) return answer({ ok: false, message: ALREADY_EXPOSED });
        const api = decode(message.api, new MapCtor(), refs);
        if (api !== null && (typeof api === 'object' || typeof api === 'function') && !isView(api))
          deepFreeze(api, new Set());
        defineProperty(realmGlobal, message.key, {
          value: api,
          writable: false,
          enumerable: true,
          configurable: false,
        });
        return answer({ ok: true, value: undefined });
      }
      case 'release':
        exported.delete(message.fn);
        return answer(undefined);
    }
  }

  return {
    receive,
    expose(key, api) {
      const copy: Copy = { seen: new MapCtor(), refs: [] };
      const wire = encode(api, copy, 0, realmGlobal);
      const { body: reply } = options.send({
        body: { type: 'expose', key, api: wire },
        refs: copy.refs,
      });
      if (reply && !reply.ok) throw new ErrorCtor(reply.message);
    },
  };
}
