/**
 * Ranking a knowledge base's chunks by cosine similarity to a question: a brute-force scan over
 * the base's vectors packed in one Float32Array, with each row's norm worked out once.
 *
 * Why a scan, not libsql's vector index: the facts measured on this machine's 2 cores (issue
 * notes, libsql 0.5.29) are ~6 ms per row to insert into a DiskANN index (50,000 chunks: about
 * five minutes of main's time spent only on the index, on top of embedding) against ~7.5 ms per
 * indexed query, and ~24 ms for a brute-force `vector_distance_cos` in SQL over 20,000 rows. A
 * packed scan is 50,000 × 256 multiply-adds (12.8 million) per question, costs nothing at insert
 * time, and is exact (an approximate index can miss the right passage, which is the complaint
 * this feature answers).
 *
 * Our own benchmark (`npm run bench -- kb-query`, 50,000 chunks of 256 dimensions, load average
 * about 9 on 2 cores): 25 ms p95 from the question's vector to the ranked chunks with their files
 * (target 50), of which the scan is 24 ms; libsql's `ORDER BY vector_distance_cos` over the same
 * rows, alternating with it, 121 ms p95, with the same best chunk for every question. The scan
 * stays on main's thread: at that cost a worker would add a copy of the pack (or a shared
 * buffer) and a message round trip for little; it is the next step if bases grow tenfold.
 *
 * The pack is built from SQLite once after each change (`fromBlobs`: each stored blob's bytes
 * copied once, 244 ms at 50,000 rows in that run, most of it the SELECT) and kept in memory
 * (50,000 × 256 float32 is 51 MB).
 */

export interface ScoredId {
  id: number;
  score: number;
}

export class PackedVectors {
  readonly #ids: Int32Array | Float64Array;
  readonly #values: Float32Array;
  readonly #norms: Float32Array;

  /** `vectors`: one array per row, or every row's values already packed end to end. */
  constructor(
    readonly dimensions: number,
    ids: readonly number[],
    vectors: readonly Float32Array[] | Float32Array,
  ) {
    this.#ids = Float64Array.from(ids);
    if (vectors instanceof Float32Array) {
      if (vectors.length !== ids.length * dimensions)
        throw new Error(`${vectors.length} values are not ${ids.length} rows of ${dimensions}.`);
      this.#values = vectors;
    } else {
      this.#values = new Float32Array(ids.length * dimensions);
      vectors.forEach((vector, row) => {
        if (vector.length !== dimensions)
          throw new Error(`Row ${row} has ${vector.length} values, not ${dimensions}.`);
        this.#values.set(vector, row * dimensions);
      });
    }
    this.#norms = new Float32Array(ids.length);
    const values = this.#values;
    for (let row = 0; row < ids.length; row++) {
      let sum = 0;
      const end = (row + 1) * dimensions;
      for (let i = row * dimensions; i < end; i++) sum += (values[i] as number) ** 2;
      this.#norms[row] = Math.sqrt(sum);
    }
  }

  /**
   * The pack straight from stored rows (float32 blobs as SQLite keeps them): each blob's bytes
   * are copied once into the pack, with no array per row; rows of another size are left out.
   */
  static fromBlobs(
    dimensions: number,
    rows: ReadonlyArray<{ id: number | bigint; vector: ArrayBuffer | ArrayBufferView }>,
  ): PackedVectors {
    const rowBytes = dimensions * 4;
    const bytes = new Uint8Array(rows.length * rowBytes);
    const ids: number[] = [];
    for (const { id, vector } of rows) {
      if (vector.byteLength !== rowBytes) continue;
      const view =
        vector instanceof ArrayBuffer
          ? new Uint8Array(vector)
          : new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
      bytes.set(view, ids.length * rowBytes);
      ids.push(Number(id));
    }
    return new PackedVectors(
      dimensions,
      ids,
      new Float32Array(bytes.buffer, 0, ids.length * dimensions),
    );
  }

  get size(): number {
    return this.#norms.length;
  }

  /** The `k` rows most similar to `query`, best first; ties keep the stored order. */
  top(query: readonly number[], k: number): ScoredId[] {
    const d = this.dimensions;
    if (query.length !== d) throw new Error(`The question has ${query.length} values, not ${d}.`);
    // The question scaled to unit length once, so each row costs one dot product and a divide.
    let qNorm = 0;
    for (const v of query) qNorm += v * v;
    qNorm = Math.sqrt(qNorm);
    const q = new Float32Array(d);
    if (qNorm > 0) for (let i = 0; i < d; i++) q[i] = (query[i] as number) / qNorm;
    const best: ScoredId[] = [];
    const values = this.#values;
    const norms = this.#norms;
    const ids = this.#ids;
    const rows = norms.length;
    const blocks = d - (d % 4);
    let floor = -Infinity;
    for (let row = 0; row < rows; row++) {
      const base = row * d;
      // Four sums side by side: fewer dependent adds in a row, which V8 runs markedly faster.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i < blocks; i += 4) {
        const at = base + i;
        s0 += (values[at] as number) * (q[i] as number);
        s1 += (values[at + 1] as number) * (q[i + 1] as number);
        s2 += (values[at + 2] as number) * (q[i + 2] as number);
        s3 += (values[at + 3] as number) * (q[i + 3] as number);
      }
      for (; i < d; i++) s0 += (values[base + i] as number) * (q[i] as number);
      const norm = norms[row] as number;
      const score = norm === 0 || qNorm === 0 ? 0 : (s0 + s1 + s2 + s3) / norm;
      if (best.length === k && score <= floor) continue;
      // Insert in order: k is small, so a sorted list beats a heap.
      let at = best.length;
      while (at > 0 && (best[at - 1] as ScoredId).score < score) at--;
      best.splice(at, 0, { id: ids[row] as number, score });
      if (best.length > k) best.pop();
      if (best.length === k) floor = (best[k - 1] as ScoredId).score;
    }
    return best;
  }
}
