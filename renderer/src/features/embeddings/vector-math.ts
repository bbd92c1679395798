/**
 * The numbers behind the embeddings pictures: cosine similarity, an ordering that puts similar
 * inputs side by side, a 2-D PCA projection and a ranking against a query. Plain functions over
 * row-major Float32Arrays, with no DOM, so the worker runs them and Node tests them.
 */

/** Each row scaled to length 1; a zero row stays zero (its similarity to anything is 0). */
export function unitRows(data: Float32Array, n: number, d: number): Float32Array {
  const out = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let k = 0; k < d; k++) sum += (data[i * d + k] as number) ** 2;
    const scale = sum === 0 ? 0 : 1 / Math.sqrt(sum);
    for (let k = 0; k < d; k++) out[i * d + k] = (data[i * d + k] as number) * scale;
  }
  return out;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = (b[i] ?? 0) as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The n×n cosine similarities of unit rows (symmetric; 1 on the diagonal for non-zero rows). */
export function similarityMatrix(unit: Float32Array, n: number, d: number): Float32Array {
  const out = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = i * d;
    for (let j = i; j < n; j++) {
      const b = j * d;
      let dot = 0;
      for (let k = 0; k < d; k++) dot += (unit[a + k] as number) * (unit[b + k] as number);
      out[i * n + j] = dot;
      out[j * n + i] = dot;
    }
  }
  return out;
}

/**
 * An order in which each input is followed by the most similar one not yet placed (a greedy
 * nearest-neighbour chain from the first input), so that groups show as blocks on the heatmap.
 */
export function orderBySimilarity(matrix: Float32Array, n: number): number[] {
  if (n === 0) return [];
  const placed = new Uint8Array(n);
  const order = [0];
  placed[0] = 1;
  let current = 0;
  for (let step = 1; step < n; step++) {
    let best = -1;
    let bestValue = -Infinity;
    for (let j = 0; j < n; j++) {
      if (placed[j]) continue;
      const value = matrix[current * n + j] as number;
      if (value > bestValue) {
        bestValue = value;
        best = j;
      }
    }
    placed[best] = 1;
    order.push(best);
    current = best;
  }
  return order;
}

export interface Projection {
  /** x0, y0, x1, y1… : each input's coordinates on the first two principal components. */
  points: Float32Array;
  /** The share of the variance each of the two components explains. */
  explained: [number, number];
  /** The two components, each of length d. */
  components: [Float64Array, Float64Array];
}

/** Above this many dimensions the d×d matrix X^T X is not built (1024: 8 MB). */
const COVARIANCE_MAX_DIMENSIONS = 1024;

/** X^T X of the n×d rows `x`, symmetric, d×d. */
function gram(x: Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(d * d);
  for (let i = 0; i < n; i++) {
    const row = i * d;
    for (let p = 0; p < d; p++) {
      const value = x[row + p] as number;
      if (value === 0) continue;
      const at = p * d;
      for (let q = p; q < d; q++) out[at + q]! += value * (x[row + q] as number);
    }
  }
  for (let p = 0; p < d; p++) for (let q = 0; q < p; q++) out[p * d + q] = out[q * d + p]!;
  return out;
}

/**
 * The projection of the rows on their first two principal components, found by power
 * iteration (on X^T X built once when d is small enough and below n, else on X^T (X v) at each
 * step), the second kept orthogonal to the first. Deterministic: the start vectors are fixed.
 */
export function pca2(data: Float32Array, n: number, d: number, iterations = 200): Projection {
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let k = 0; k < d; k++) mean[k]! += data[i * d + k] as number;
  for (let k = 0; k < d; k++) mean[k]! /= Math.max(1, n);
  const centred = new Float64Array(n * d);
  let totalVariance = 0;
  for (let i = 0; i < n; i++)
    for (let k = 0; k < d; k++) {
      const value = (data[i * d + k] as number) - (mean[k] as number);
      centred[i * d + k] = value;
      totalVariance += value * value;
    }

  const scores = new Float64Array(n);
  // X^T X once (d×d) when that is cheaper than X^T (X v) at every iteration and small enough
  // to hold: for 2,000 inputs of 256 dimensions, 65 million multiplications instead of up to
  // 400 million, the same products summed in another order.
  const covariance = d <= COVARIANCE_MAX_DIMENSIONS && d < n ? gram(centred, n, d) : undefined;
  const multiply = (v: Float64Array): Float64Array<ArrayBuffer> => {
    if (covariance) {
      const out = new Float64Array(d);
      for (let r = 0; r < d; r++) {
        let s = 0;
        const row = r * d;
        for (let k = 0; k < d; k++) s += (covariance[row + k] as number) * (v[k] as number);
        out[r] = s;
      }
      return out;
    }
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += (centred[i * d + k] as number) * (v[k] as number);
      scores[i] = s;
    }
    const out = new Float64Array(d);
    for (let i = 0; i < n; i++) {
      const s = scores[i] as number;
      if (s === 0) continue;
      for (let k = 0; k < d; k++) out[k]! += (centred[i * d + k] as number) * s;
    }
    return out;
  };
  const normalise = (v: Float64Array): number => {
    let sum = 0;
    for (let k = 0; k < d; k++) sum += (v[k] as number) ** 2;
    const length = Math.sqrt(sum);
    if (length > 0) for (let k = 0; k < d; k++) v[k]! /= length;
    return length;
  };
  const orthogonalise = (v: Float64Array, against: Float64Array | undefined) => {
    if (!against) return;
    let dot = 0;
    for (let k = 0; k < d; k++) dot += (v[k] as number) * (against[k] as number);
    for (let k = 0; k < d; k++) v[k]! -= dot * (against[k] as number);
  };

  const components: Float64Array[] = [];
  const eigenvalues: number[] = [];
  for (let c = 0; c < 2; c++) {
    let v: Float64Array<ArrayBuffer> = new Float64Array(d);
    for (let k = 0; k < d; k++) v[k] = 1 + Math.sin((k + 1) * (c + 1) * 1.7);
    orthogonalise(v, components[0]);
    normalise(v);
    let eigenvalue = 0;
    for (let it = 0; it < iterations; it++) {
      const next = multiply(v);
      orthogonalise(next, components[0]);
      const length = normalise(next);
      let change = 0;
      for (let k = 0; k < d; k++) change += Math.abs((next[k] as number) - (v[k] as number));
      v = next;
      eigenvalue = length;
      if (length === 0 || change < 1e-10) break;
    }
    // A fixed sign, so the same data always gives the same picture.
    let largest = 0;
    for (let k = 0; k < d; k++)
      if (Math.abs(v[k] as number) > Math.abs(v[largest] as number)) largest = k;
    if ((v[largest] as number) < 0) for (let k = 0; k < d; k++) v[k] = -(v[k] as number);
    components.push(v);
    eigenvalues.push(eigenvalue);
  }

  const points = new Float32Array(n * 2);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 2; c++) {
      let s = 0;
      const v = components[c] as Float64Array;
      for (let k = 0; k < d; k++) s += (centred[i * d + k] as number) * (v[k] as number);
      points[i * 2 + c] = s;
    }
  const share = (value: number) => (totalVariance === 0 ? 0 : value / totalVariance);
  return {
    points,
    explained: [share(eigenvalues[0] ?? 0), share(eigenvalues[1] ?? 0)],
    components: [components[0] as Float64Array, components[1] as Float64Array],
  };
}

/** The inputs most similar to `query`, best first: `[index, cosine]` pairs. */
export function rankAgainst(
  unit: Float32Array,
  n: number,
  d: number,
  query: ArrayLike<number>,
  limit: number,
): Array<[number, number]> {
  let norm = 0;
  for (let k = 0; k < d; k++) norm += ((query[k] ?? 0) as number) ** 2;
  const scale = norm === 0 ? 0 : 1 / Math.sqrt(norm);
  const scored: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    let dot = 0;
    for (let k = 0; k < d; k++) dot += (unit[i * d + k] as number) * ((query[k] ?? 0) as number);
    scored.push([i, dot * scale]);
  }
  scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return scored.slice(0, limit);
}

export type Rgb = readonly [number, number, number];

/** The heatmap's colour scale: opposite (−1), unrelated (0) and alike (1). */
export interface HeatScale {
  low: Rgb;
  mid: Rgb;
  high: Rgb;
}

/** The light theme's scale (the page reads the theme's own from the design tokens). */
export const LIGHT_HEAT_SCALE: HeatScale = {
  low: [59, 76, 192],
  mid: [246, 244, 240],
  high: [180, 4, 38],
};

/** A colour for a cosine in [-1, 1], mixed from `mid` towards `low` or `high`. */
export function similarityColour(
  value: number,
  scale: HeatScale = LIGHT_HEAT_SCALE,
): [number, number, number] {
  const t = Math.max(-1, Math.min(1, value));
  const mix = (from: Rgb, to: Rgb, f: number) =>
    [0, 1, 2].map((c) =>
      Math.round((from[c] as number) + ((to[c] as number) - (from[c] as number)) * f),
    ) as [number, number, number];
  return t < 0 ? mix(scale.mid, scale.low, -t) : mix(scale.mid, scale.high, t);
}

/** Steps of the colour table `heatmapPixels` looks values up in (0.002 of a cosine apart). */
const SCALE_STEPS = 1000;

/**
 * RGBA pixels of the heatmap of `matrix` in `order`, `size` pixels a side: one pixel per pair
 * when there are few inputs, a sample of the pairs when there are more inputs than pixels.
 */
export function heatmapPixels(
  matrix: Float32Array,
  n: number,
  order: readonly number[],
  size: number,
  scale: HeatScale = LIGHT_HEAT_SCALE,
): Uint8ClampedArray<ArrayBuffer> {
  const table = new Uint8ClampedArray((SCALE_STEPS + 1) * 3);
  for (let k = 0; k <= SCALE_STEPS; k++)
    table.set(similarityColour((k * 2) / SCALE_STEPS - 1, scale), k * 3);
  const pixels = new Uint8ClampedArray(size * size * 4);
  const cell = new Int32Array(size);
  for (let p = 0; p < size; p++)
    cell[p] = order[Math.min(n - 1, Math.floor((p * n) / size))] as number;
  for (let y = 0; y < size; y++) {
    const row = (cell[y] as number) * n;
    for (let x = 0; x < size; x++) {
      const value = Math.max(-1, Math.min(1, matrix[row + (cell[x] as number)] as number));
      const from = Math.round(((value + 1) * SCALE_STEPS) / 2) * 3;
      const at = (y * size + x) * 4;
      pixels[at] = table[from] as number;
      pixels[at + 1] = table[from + 1] as number;
      pixels[at + 2] = table[from + 2] as number;
      pixels[at + 3] = 255;
    }
  }
  return pixels;
}
