/**
 * The harness's stand-in for IPC's structured clone on the hop the DevTools protocol carries as
 * JSON: typed arrays bit for bit, wherever they sit, and the values JSON would change (undefined,
 * NaN, -0, dates, maps, sets, bigints) as they were; the base64 counted as the harness's cost.
 */
import { expect, it } from 'vitest';
import { browserBase64, createJsonWire } from '../../harness/context-bridge/json-wire';

const nodeBase64 = {
  encode: (bytes: Uint8Array) => Buffer.from(bytes).toString('base64'),
  decode: (text: string) => new Uint8Array(Buffer.from(text, 'base64')),
};

it('carries typed arrays through JSON bit for bit, and every other value as it was', () => {
  const wire = createJsonWire(nodeBase64);
  const values = Float32Array.from([0, -1.5, Math.PI, Number.MAX_VALUE, Number.NaN, 1e-40]);
  const view = new Float32Array(new Float32Array([9, 8, 7, 6]).buffer, 4, 2);
  const answer = {
    ok: true,
    value: {
      offset: 3,
      values,
      nested: [{ view, bytes: Uint8Array.from([0, 255]) }],
      name: 'x',
      gone: undefined,
      odd: [Number.NaN, -0, Infinity, -Infinity],
      at: new Date(5),
      map: new Map([['k', new Set([1n])]]),
      '~': 'a key like the tag',
    },
  };
  const back = wire.decode(JSON.parse(JSON.stringify(wire.encode(answer)))) as typeof answer;
  expect(wire.cost.encode.bytes).toBe(24 + 8 + 2);
  expect(wire.cost.decode.bytes).toBe(24 + 8 + 2);
  expect(back).toEqual(answer);
  expect('gone' in back.value).toBe(true);
  expect(Object.is(back.value.odd[1], -0)).toBe(true);
  expect(back.value.values).toBeInstanceOf(Float32Array);
  expect(new Uint8Array(back.value.values.buffer)).toEqual(new Uint8Array(values.buffer));
  expect(Array.from(back.value.nested[0]!.view)).toEqual([8, 7]);
});

it('refuses a function or a symbol, as the structured clone does', () => {
  const wire = createJsonWire(nodeBase64);
  expect(() => wire.encode({ f: () => 1 })).toThrow('An object could not be cloned.');
  expect(() => wire.encode([Symbol('s')])).toThrow('An object could not be cloned.');
});

it('has the browser worlds’ base64 agree with Node’s', () => {
  const bytes = Uint8Array.from({ length: 40_000 }, (_, i) => (i * 31) % 256);
  const text = browserBase64.encode(bytes);
  expect(text).toBe(nodeBase64.encode(bytes));
  expect(browserBase64.decode(text)).toEqual(bytes);
});
