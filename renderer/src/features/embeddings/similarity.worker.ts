/**
 * Works out similarity, ordering and the PCA projection off the page's main thread: for 2,000 inputs that is a few hundred million multiplications, which would
 * freeze the window if done there.
 */
import type { WorkerRequest, WorkerResponse } from './analysis-protocol';
import { orderBySimilarity, pca2, rankAgainst, similarityMatrix, unitRows } from './vector-math';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
let current: { unit: Float32Array; n: number; d: number } | undefined;

scope.onmessage = (event) => {
  const request = event.data;
  try {
    if (request.type === 'analyse') {
      const { vectors, n, d } = request;
      const unit = unitRows(vectors, n, d);
      current = { unit, n, d };
      const matrix = similarityMatrix(unit, n, d);
      const order = orderBySimilarity(matrix, n);
      const { points, explained } = pca2(vectors, n, d);
      scope.postMessage(
        {
          type: 'analysed',
          id: request.id,
          analysis: { n, matrix, order, points, explained },
        },
        [matrix.buffer, points.buffer],
      );
    } else {
      if (!current) {
        scope.postMessage({ type: 'failed', id: request.id, message: 'no set', code: 'no-set' });
        return;
      }
      const ranked = rankAgainst(current.unit, current.n, current.d, request.query, request.limit);
      scope.postMessage({ type: 'ranked', id: request.id, ranked });
    }
  } catch (error) {
    scope.postMessage({
      type: 'failed',
      id: request.id,
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
