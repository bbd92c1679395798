/**
 * Binary values (typed arrays, such as a page of embedding vectors as `Float32Array`) across the
 * test transport.
 *
 * In the app they cross IPC as they are: Electron's IPC and the context bridge copy typed arrays
 * as bytes (the structured clone algorithm). The harness's transport is a Playwright binding,
 * whose answers are JSON, where a typed array would arrive as an object of numbers; so the
 * harness encodes each typed array of an answer as base64 on the way out (`encodeBinary`, in the
 * test process) and decodes it back in the page (`decodeBinary`, in the page bridge). That is work
 * the app does not do: both sides add up its time (`binaryTransportCost`, and the page's
 * `__relayBinaryDecodeMs`) for the benchmarks to report beside their figures.
 */

const TAG = '__relayBinary';

type TypedArrayName =
  | 'Float32Array'
  | 'Float64Array'
  | 'Uint8Array'
  | 'Int8Array'
  | 'Uint16Array'
  | 'Int16Array'
  | 'Uint32Array'
  | 'Int32Array';

interface Encoded {
  [TAG]: TypedArrayName;
  base64: string;
}

/** What the test process spent encoding, and how many bytes it encoded. */
export const binaryTransportCost = { encodeMs: 0, bytes: 0 };

function isPlain(value: unknown): value is Record<string, unknown> {
  return (
    value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype
  );
}

/** In the test process: every typed array in `value` as tagged base64. */
export function encodeBinary(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const started = performance.now();
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    const encoded: Encoded = {
      [TAG]: value.constructor.name as TypedArrayName,
      base64: bytes.toString('base64'),
    };
    binaryTransportCost.encodeMs += performance.now() - started;
    binaryTransportCost.bytes += value.byteLength;
    return encoded;
  }
  if (Array.isArray(value)) return value.map(encodeBinary);
  if (isPlain(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = encodeBinary(item);
    return out;
  }
  return value;
}

const CONSTRUCTORS = {
  Float32Array,
  Float64Array,
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
} as const;

/** In the page: every tagged value of `value` back as its typed array. */
export function decodeBinary(value: unknown, cost: { decodeMs: number }): unknown {
  if (isPlain(value) && typeof value[TAG] === 'string' && typeof value.base64 === 'string') {
    const started = performance.now();
    const text = atob(value.base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    const View = CONSTRUCTORS[value[TAG] as TypedArrayName];
    const decoded = new View(bytes.buffer);
    cost.decodeMs += performance.now() - started;
    return decoded;
  }
  if (Array.isArray(value)) return value.map((item) => decodeBinary(item, cost));
  if (isPlain(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = decodeBinary(item, cost);
    return out;
  }
  return value;
}
