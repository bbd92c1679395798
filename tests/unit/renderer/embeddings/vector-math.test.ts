import { describe, expect, it } from 'vitest';
import {
  cosine,
  heatmapPixels,
  orderBySimilarity,
  pca2,
  rankAgainst,
  similarityMatrix,
  unitRows,
} from '../../../../renderer/src/features/embeddings/vector-math';

const rows = (values: number[][]) => ({
  data: Float32Array.from(values.flat()),
  n: values.length,
  d: values[0]?.length ?? 0,
});

describe('cosine similarity', () => {
  it('is 1 for the same direction, 0 for orthogonal, -1 for opposite, 0 against a zero vector', () => {
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [0, 3])).toBe(0);
    expect(cosine([1, 1], [-1, -1])).toBeCloseTo(-1, 12);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });

  it('builds a symmetric matrix with ones on the diagonal', () => {
    const { data, n, d } = rows([
      [1, 0, 0],
      [1, 1, 0],
      [0, 0, 5],
    ]);
    const m = similarityMatrix(unitRows(data, n, d), n, d);
    expect(m[0]).toBeCloseTo(1, 6);
    expect(m[1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(m[3]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(m[2]).toBe(0);
    expect(m[8]).toBeCloseTo(1, 6);
  });

  it('orders inputs so that similar ones sit side by side', () => {
    const { data, n, d } = rows([
      [1, 0],
      [0, 1],
      [0.99, 0.1],
      [0.1, 0.99],
    ]);
    const m = similarityMatrix(unitRows(data, n, d), n, d);
    expect(orderBySimilarity(m, n)).toEqual([0, 2, 3, 1]);
  });

  it('ranks the set against a query, best first', () => {
    const { data, n, d } = rows([
      [1, 0],
      [0, 1],
      [0.7, 0.7],
    ]);
    const ranked = rankAgainst(unitRows(data, n, d), n, d, [0, 2], 2);
    expect(ranked.map(([i]) => i)).toEqual([1, 2]);
    expect(ranked[0]?.[1]).toBeCloseTo(1, 6);
  });
});

describe('PCA to two dimensions', () => {
  it('finds the direction of a line of points and explains all of its variance', () => {
    // Points on the line y = 2x in 3-D (z constant): one component explains everything.
    const { data, n, d } = rows([-2, -1, 0, 1, 2].map((t) => [t, 2 * t, 3]));
    const { points, explained, components } = pca2(data, n, d);
    expect(Math.abs(components[0][0] as number)).toBeCloseTo(1 / Math.sqrt(5), 6);
    expect(Math.abs(components[0][1] as number)).toBeCloseTo(2 / Math.sqrt(5), 6);
    expect(explained[0]).toBeCloseTo(1, 6);
    expect(explained[1]).toBeCloseTo(0, 6);
    // Projections are the signed distances along the line, centred on the middle point.
    const xs = Array.from({ length: n }, (_, i) => points[i * 2] as number);
    expect(Math.abs(xs[4] as number)).toBeCloseTo(2 * Math.sqrt(5), 4);
    expect(xs[2]).toBeCloseTo(0, 6);
  });

  it('recovers two axes of different spread, in order, orthogonal to each other', () => {
    // A cross: wide along x (±3), narrow along y (±1).
    const { data, n, d } = rows([
      [3, 0],
      [-3, 0],
      [0, 1],
      [0, -1],
    ]);
    const { explained, components } = pca2(data, n, d);
    expect(Math.abs(components[0][0] as number)).toBeCloseTo(1, 6);
    expect(Math.abs(components[1][1] as number)).toBeCloseTo(1, 6);
    expect(explained[0]).toBeCloseTo(18 / 20, 6);
    expect(explained[1]).toBeCloseTo(2 / 20, 6);
  });

  it('gives the same picture for the same data', () => {
    const { data, n, d } = rows([
      [1, 2, 3],
      [2, 1, 0],
      [0, 0, 1],
      [5, 1, 2],
    ]);
    expect(Array.from(pca2(data, n, d).points)).toEqual(Array.from(pca2(data, n, d).points));
  });

  it.each([
    ['more rows than dimensions (X^T X built once)', 400, 24],
    ['more dimensions than rows (X^T X v each step)', 12, 40],
  ])('finds true eigenvectors of the covariance with %s', (_, n, d) => {
    // Random rows stretched along three axes, so the top two components are well apart.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
    const data = new Float32Array(n * d);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < d; k++) data[i * d + k] = random() * (k === 0 ? 9 : k === 1 ? 4 : 1);
    const { explained, components } = pca2(data, n, d);
    // The covariance worked out plainly, and the variance in all.
    const mean = Array.from({ length: d }, (_, k) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += data[i * d + k] as number;
      return sum / n;
    });
    const x = (i: number, k: number) => (data[i * d + k] as number) - (mean[k] as number);
    let total = 0;
    for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) total += x(i, k) ** 2;
    for (const [c, v] of components.entries()) {
      const lambda = (explained[c] as number) * total;
      for (let p = 0; p < d; p++) {
        let cv = 0;
        for (let q = 0; q < d; q++) {
          let cpq = 0;
          for (let i = 0; i < n; i++) cpq += x(i, p) * x(i, q);
          cv += cpq * (v[q] as number);
        }
        expect(Math.abs(cv - lambda * (v[p] as number)) / lambda).toBeLessThan(1e-4);
      }
    }
    let dot = 0;
    for (let k = 0; k < d; k++) dot += (components[0][k] as number) * (components[1][k] as number);
    expect(Math.abs(dot)).toBeLessThan(1e-6);
    expect(explained[0]).toBeGreaterThan(explained[1]);
  });
});

describe('heatmap pixels', () => {
  it('paints one pixel per pair in the given order, alike in red and unrelated pale', () => {
    const m = Float32Array.from([1, 0, 0, 1]);
    const pixels = heatmapPixels(m, 2, [1, 0], 2);
    expect(Array.from(pixels.slice(0, 4))).toEqual([180, 4, 38, 255]);
    expect(Array.from(pixels.slice(4, 8))).toEqual([246, 244, 240, 255]);
  });
});

describe('heatmap pixels in a theme’s scale', () => {
  it('paints unrelated pairs in the middle colour and alike ones in the high one', () => {
    const dark = { low: [95, 134, 238], mid: [31, 35, 42], high: [240, 116, 95] } as const;
    const pixels = heatmapPixels(Float32Array.from([1, 0, 0, 1]), 2, [0, 1], 2, dark);
    expect(Array.from(pixels.slice(0, 4))).toEqual([240, 116, 95, 255]);
    expect(Array.from(pixels.slice(4, 8))).toEqual([31, 35, 42, 255]);
    const opposite = heatmapPixels(Float32Array.from([1, -1, -1, 1]), 2, [0, 1], 2, dark);
    expect(Array.from(opposite.slice(4, 8))).toEqual([95, 134, 238, 255]);
  });
});
