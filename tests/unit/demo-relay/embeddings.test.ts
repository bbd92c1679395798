import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cosine,
  EMBEDDING_DIMENSIONS,
  embedText,
  toBase64Float32,
} from '../../../electron/demo-relay/models/embeddings';

const similarity = (a: string, b: string): number => cosine(embedText(a), embedText(b));

describe('demo embeddings', () => {
  it.each([
    ['cat', 'kitten', 'invoice'],
    ['dog', 'puppy', 'spreadsheet'],
    ['happy', 'glad', 'truck'],
    ['running', 'runner', 'banana'],
    ['The cat sat on the mat', 'A kitten sat on a rug', 'Quarterly invoice totals'],
    ['I love my dog', 'My puppy loves me', 'The invoice is overdue'],
    ['apple pie recipe', 'banana bread recipe', 'car engine repair'],
  ])('puts %j nearer to %j than to %j', (anchor, near, far) => {
    expect(similarity(anchor, near)).toBeGreaterThan(similarity(anchor, far) + 0.2);
  });

  it('is deterministic, unit-length and of the documented dimension', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (text) => {
        const vector = embedText(text);
        expect(vector).toEqual(embedText(text));
        expect(vector).toHaveLength(EMBEDDING_DIMENSIONS);
        expect(vector.every(Number.isFinite)).toBe(true);
        const norm = Math.hypot(...vector);
        expect(norm).toBeCloseTo(1, 5);
      }),
      { numRuns: 200 },
    );
  });

  it('gives a vector even to text without words', () => {
    expect(Math.hypot(...embedText('   '))).toBeCloseTo(1, 5);
    expect(Math.hypot(...embedText('the of and'))).toBeCloseTo(1, 5);
  });

  it('shortens to `dimensions` and renormalises', () => {
    const short = embedText('kitten', 32);
    expect(short).toHaveLength(32);
    expect(Math.hypot(...short)).toBeCloseTo(1, 5);
  });

  it('encodes base64 as little-endian float32 holding exactly the float values', () => {
    const vector = embedText('round trip');
    const bytes = Buffer.from(toBase64Float32(vector), 'base64');
    expect(bytes.length).toBe(vector.length * 4);
    const decoded = Array.from({ length: vector.length }, (_, index) =>
      bytes.readFloatLE(index * 4),
    );
    expect(decoded).toEqual(vector);
  });
});
