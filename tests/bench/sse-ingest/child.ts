/**
 * Request and reply between the orchestrator and its child processes, over the fork IPC channel.
 *
 * The server and each reader run in processes of their own so that one's CPU time, heap and JIT
 * state never land in another's measurement.
 */
import { fork, type ChildProcess } from 'node:child_process';

interface Envelope {
  id: number;
  ok?: boolean;
  value?: unknown;
  error?: string;
  message?: unknown;
}

export interface Child {
  call<T>(message: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** Starts `file` (TypeScript, through the same loader as this process) and talks to it. */
export function startChild(file: string, extraExecArgv: string[] = []): Child {
  const process_: ChildProcess = fork(file, [], {
    execArgv: [...process.execArgv, ...extraExecArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  process_.on('message', (raw) => {
    const envelope = raw as Envelope;
    const waiter = pending.get(envelope.id);
    if (!waiter) return;
    pending.delete(envelope.id);
    if (envelope.ok) waiter.resolve(envelope.value);
    else waiter.reject(new Error(envelope.error ?? 'child failed'));
  });
  process_.on('exit', (code, signal) => {
    failAll(new Error(`${file} exited (${signal ?? code}) with a request pending`));
  });
  process_.on('error', (error) => failAll(error));

  return {
    call<T>(message: unknown): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        process_.send({ id, message } satisfies Envelope);
      });
    },
    async stop() {
      if (process_.exitCode !== null || process_.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => process_.once('exit', () => resolve()));
      process_.kill();
      await exited;
    },
  };
}

/** The child's side: answers each request with `handle`, one at a time, in order. */
export function serveParent(handle: (message: unknown) => Promise<unknown>): void {
  let queue = Promise.resolve();
  process.on('message', (raw) => {
    const { id, message } = raw as Envelope;
    queue = queue.then(async () => {
      try {
        process.send!({ id, ok: true, value: await handle(message) } satisfies Envelope);
      } catch (error) {
        const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
        process.send!({ id, ok: false, error: text } satisfies Envelope);
      }
    });
  });
  // Leave when the orchestrator does, even if it could not say goodbye.
  process.on('disconnect', () => process.exit(0));
}
