/** The page's side of the similarity worker: one worker, requests answered by id. */
import { t } from '../../i18n/i18n';
import type { Analysis, WorkerRequest, WorkerResponse } from './analysis-protocol';

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function ensureWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./similarity.worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
    const message = event.data;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.type === 'failed')
      waiting.reject(
        new Error(message.code === 'no-set' ? t('embeddings.worker.noSet') : message.message),
      );
    else waiting.resolve(message.type === 'analysed' ? message.analysis : message.ranked);
  };
  worker.onerror = () => {
    const error = new Error(t('embeddings.worker.stopped'));
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
    worker?.terminate();
    worker = undefined;
  };
  return worker;
}

type Unsent<R> = R extends unknown ? Omit<R, 'id'> : never;

function ask<T>(request: Unsent<WorkerRequest>, transfer: Transferable[] = []): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    ensureWorker().postMessage({ ...request, id } as WorkerRequest, transfer);
  });
}

export function analyse(vectors: Float32Array, n: number, d: number): Promise<Analysis> {
  return ask<Analysis>({ type: 'analyse', vectors, n, d }, [vectors.buffer]);
}

export function rank(query: Float32Array, limit: number): Promise<Array<[number, number]>> {
  return ask({ type: 'rank', query, limit }, [query.buffer]);
}
