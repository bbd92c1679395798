/** The messages between the page and the similarity worker. */

export interface AnalyseRequest {
  type: 'analyse';
  id: number;
  /** n rows of d values, row-major; transferred, not copied. */
  vectors: Float32Array;
  n: number;
  d: number;
}

export interface RankRequest {
  type: 'rank';
  id: number;
  query: Float32Array;
  limit: number;
}

export type WorkerRequest = AnalyseRequest | RankRequest;

export interface Analysis {
  n: number;
  /** The n×n cosine similarities, in input order. */
  matrix: Float32Array;
  /** Input indexes (of the analysed rows) ordered so that similar ones sit side by side. */
  order: number[];
  /** x, y per row on the first two principal components. */
  points: Float32Array;
  explained: [number, number];
}

export type WorkerResponse =
  | { type: 'analysed'; id: number; analysis: Analysis }
  | { type: 'ranked'; id: number; ranked: Array<[number, number]> }
  /** `code` names a failure the page words itself; `message` is the worker's own, for the rest. */
  | { type: 'failed'; id: number; message: string; code?: 'no-set' };
