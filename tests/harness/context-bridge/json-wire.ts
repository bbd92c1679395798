/**
 * Structured-clone values over JSON: the hop between the test process and a Chromium world, which
 * the DevTools protocol carries as JSON (a binding's payload, an evaluated call's argument).
 *
 * In the app that hop is Electron's IPC, a structured clone: typed arrays cross as bytes, and
 * `undefined`, `NaN`, dates, maps and sets cross as what they are. Here each of those is tagged on
 * the way out and rebuilt on the way in, so what arrives is what IPC would deliver. Typed arrays
 * go as base64: work the app does not do, so its time and size are counted (`cost`) for the
 * benchmarks to report beside their figures.
 *
 * Runs in Node and in the page's worlds alike (no DOM, no Node modules): base64 is given.
 */

/** The tag of a rebuilt value: `{ "~": tag, … }`. A plain object with a "~" key is escaped. */
const TAG = '~';

type TypedArrayName =
  | 'Int8Array'
  | 'Uint8Array'
  | 'Uint8ClampedArray'
  | 'Int16Array'
  | 'Uint16Array'
  | 'Int32Array'
  | 'Uint32Array'
  | 'Float32Array'
  | 'Float64Array'
  | 'BigInt64Array'
  | 'BigUint64Array';

const TYPED_ARRAYS: Record<TypedArrayName, new (buffer: ArrayBuffer) => ArrayBufferView> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

export interface Base64 {
  encode(bytes: Uint8Array): string;
  /** The bytes, in an ArrayBuffer of their own. */
  decode(text: string): Uint8Array;
}

/** What the base64 of typed arrays cost on one side: time and bytes. */
export interface BinaryCost {
  ms: number;
  bytes: number;
}

const toStringOf = (value: object) => Object.prototype.toString.call(value).slice(8, -1);

export function createJsonWire(base64: Base64, now: () => number = () => performance.now()) {
  const cost = { encode: { ms: 0, bytes: 0 }, decode: { ms: 0, bytes: 0 } };

  function bytesOf(view: ArrayBufferView): Uint8Array {
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }

  function encode(value: unknown): unknown {
    switch (typeof value) {
      case 'undefined':
        return { [TAG]: 'undefined' };
      case 'number':
        if (Number.isNaN(value)) return { [TAG]: 'NaN' };
        if (value === Infinity) return { [TAG]: 'Infinity' };
        if (value === -Infinity) return { [TAG]: '-Infinity' };
        if (Object.is(value, -0)) return { [TAG]: '-0' };
        return value;
      case 'bigint':
        return { [TAG]: 'BigInt', v: value.toString() };
      case 'string':
      case 'boolean':
        return value;
      case 'function':
      case 'symbol':
        throw new Error('An object could not be cloned.');
    }
    if (value === null) return null;
    if (ArrayBuffer.isView(value)) {
      const started = now();
      const name = toStringOf(value);
      const bytes = bytesOf(value);
      const encoded = { [TAG]: name, b: base64.encode(bytes) };
      cost.encode.ms += now() - started;
      cost.encode.bytes += bytes.byteLength;
      return encoded;
    }
    if (Array.isArray(value)) return value.map(encode);
    const object = value as object;
    switch (toStringOf(object)) {
      case 'ArrayBuffer':
        return { [TAG]: 'ArrayBuffer', b: base64.encode(new Uint8Array(object as ArrayBuffer)) };
      case 'Date':
        return { [TAG]: 'Date', v: (object as Date).getTime() };
      case 'RegExp':
        return { [TAG]: 'RegExp', s: (object as RegExp).source, f: (object as RegExp).flags };
      case 'Map':
        return {
          [TAG]: 'Map',
          v: [...(object as Map<unknown, unknown>)].map(([k, v]) => [encode(k), encode(v)]),
        };
      case 'Set':
        return { [TAG]: 'Set', v: [...(object as Set<unknown>)].map(encode) };
      case 'Error':
        return {
          [TAG]: 'Error',
          name: (object as Error).name,
          message: (object as Error).message,
        };
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(object)) out[key] = encode(item);
    return Object.hasOwn(out, TAG) ? { [TAG]: 'Object', v: out } : out;
  }

  function decode(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(decode);
    const record = value as Record<string, unknown>;
    const tag = record[TAG];
    if (typeof tag !== 'string') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(record)) out[key] = decode(item);
      return out;
    }
    switch (tag) {
      case 'undefined':
        return undefined;
      case 'NaN':
        return NaN;
      case 'Infinity':
        return Infinity;
      case '-Infinity':
        return -Infinity;
      case '-0':
        return -0;
      case 'BigInt':
        return BigInt(record.v as string);
      case 'ArrayBuffer':
        return base64.decode(record.b as string).buffer;
      case 'Date':
        return new Date(record.v as number);
      case 'RegExp':
        return new RegExp(record.s as string, record.f as string);
      case 'Map':
        return new Map(
          (record.v as Array<[unknown, unknown]>).map(([k, v]) => [decode(k), decode(v)]),
        );
      case 'Set':
        return new Set((record.v as unknown[]).map(decode));
      case 'Error': {
        const error = new Error(record.message as string);
        error.name = record.name as string;
        return error;
      }
      case 'Object': {
        const out: Record<string, unknown> = {};
        for (const [key, item] of Object.entries(record.v as object)) out[key] = decode(item);
        return out;
      }
    }
    const View = TYPED_ARRAYS[tag as TypedArrayName];
    if (!View) throw new Error(`Unknown tag in a bridge message: ${tag}`);
    const started = now();
    const bytes = base64.decode(record.b as string);
    const decoded = new View(bytes.buffer as ArrayBuffer);
    cost.decode.ms += now() - started;
    cost.decode.bytes += bytes.byteLength;
    return decoded;
  }

  return { encode, decode, cost };
}

export type JsonWire = ReturnType<typeof createJsonWire>;

/** Base64 in a browser world (no Buffer): `btoa`/`atob` over binary strings, in chunks. */
export const browserBase64: Base64 = {
  encode(bytes) {
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(text);
  },
  decode(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  },
};
