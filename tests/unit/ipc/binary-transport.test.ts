/**
 * The e2e harness's stand-in for IPC's copy of typed arrays: base64 out of the test process,
 * typed arrays again in the page, bit for bit, wherever they sit in an answer.
 */
import { expect, it } from 'vitest';
import {
  binaryTransportCost,
  decodeBinary,
  encodeBinary,
} from '../../e2e/harness/binary-transport';

it('carries typed arrays through JSON bit for bit, and leaves everything else as it is', () => {
  const values = Float32Array.from([0, -1.5, Math.PI, Number.MAX_VALUE, Number.NaN, 1e-40]);
  const view = new Float32Array(new Float32Array([9, 8, 7, 6]).buffer, 4, 2);
  const answer = {
    ok: true,
    value: { offset: 3, values, nested: [{ view, bytes: Uint8Array.from([0, 255]) }], name: 'x' },
  };
  const before = binaryTransportCost.bytes;
  const wire = JSON.parse(JSON.stringify(encodeBinary(answer))) as unknown;
  expect(binaryTransportCost.bytes - before).toBe(24 + 8 + 2);
  const cost = { decodeMs: 0 };
  const back = decodeBinary(wire, cost) as typeof answer;
  expect(back.ok).toBe(true);
  expect(back.value.offset).toBe(3);
  expect(back.value.name).toBe('x');
  expect(back.value.values).toBeInstanceOf(Float32Array);
  expect(new Uint8Array(back.value.values.buffer)).toEqual(new Uint8Array(values.buffer));
  expect(Array.from(back.value.nested[0]!.view)).toEqual([8, 7]);
  expect(back.value.nested[0]!.bytes).toEqual(Uint8Array.from([0, 255]));
  expect(cost.decodeMs).toBeGreaterThanOrEqual(0);
});
