/**
 * A structured-cloned value made again with this realm's constructors. Blink's structured clone
 * makes its copy in the world that reads it; in Node, `v8.deserialize` makes it in the realm of
 * the test process, so the `vm` realms (`vm-world.ts`) take each value through this on the way in.
 * Covers what the structured clone carries: primitives, plain objects and arrays, Date, RegExp,
 * Map, Set, ArrayBuffer, typed arrays and DataView, boxed primitives, errors.
 */

const TYPED: Record<string, new (buffer: ArrayBuffer, offset: number, length: number) => unknown> =
  {
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

const ERRORS: Record<string, ErrorConstructor> = {
  Error,
  EvalError,
  RangeError,
  ReferenceError,
  SyntaxError,
  TypeError,
  URIError,
};

const tagOf = (value: object) => Object.prototype.toString.call(value).slice(8, -1);

function copyBuffer(buffer: ArrayBuffer, seen: Map<unknown, unknown>): ArrayBuffer {
  const known = seen.get(buffer);
  if (known) return known as ArrayBuffer;
  const copy = new ArrayBuffer(buffer.byteLength);
  new Uint8Array(copy).set(new Uint8Array(buffer));
  seen.set(buffer, copy);
  return copy;
}

export function adopt(value: unknown, seen = new Map<unknown, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  const tag = tagOf(value);
  if (ArrayBuffer.isView(value)) {
    const buffer = copyBuffer(value.buffer as ArrayBuffer, seen);
    const View = TYPED[tag];
    const made = View
      ? new View(
          buffer,
          value.byteOffset,
          value.byteLength / (value as Uint8Array).BYTES_PER_ELEMENT,
        )
      : new DataView(buffer, value.byteOffset, value.byteLength);
    seen.set(value, made);
    return made;
  }
  let made: unknown;
  switch (tag) {
    case 'Array': {
      const array: unknown[] = [];
      seen.set(value, array);
      for (const item of value as unknown[]) array.push(adopt(item, seen));
      return array;
    }
    case 'ArrayBuffer':
      return copyBuffer(value as ArrayBuffer, seen);
    case 'Date':
      made = new Date(Date.prototype.getTime.call(value));
      break;
    case 'RegExp':
      made = new RegExp((value as RegExp).source, (value as RegExp).flags);
      break;
    case 'Map': {
      const map = new Map<unknown, unknown>();
      seen.set(value, map);
      for (const [key, item] of value as Map<unknown, unknown>)
        map.set(adopt(key, seen), adopt(item, seen));
      return map;
    }
    case 'Set': {
      const set = new Set<unknown>();
      seen.set(value, set);
      for (const item of value as Set<unknown>) set.add(adopt(item, seen));
      return set;
    }
    case 'Boolean':
    case 'Number':
    case 'String':
    case 'BigInt':
      made = Object((value as { valueOf(): unknown }).valueOf());
      break;
    case 'Error': {
      const { name, message } = value as Error;
      made = new (ERRORS[name] ?? Error)(message);
      break;
    }
    default: {
      const object: Record<string, unknown> = {};
      seen.set(value, object);
      for (const [key, item] of Object.entries(value)) object[key] = adopt(item, seen);
      return object;
    }
  }
  seen.set(value, made);
  return made;
}
