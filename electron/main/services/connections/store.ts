/**
 * The saved connections file: `connections.json` in the user data folder, which relays the person
 * uses and which one is active (never a key: those are in the key store, `secrets.ts`).
 *
 * The file is checked as it is read: a damaged one is set aside (`.corrupt-<date>`) and the list
 * starts empty; one that exists but cannot be read is never replaced. Changes run one at a time,
 * each on the latest saved list, and are written atomically.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../app-error';
import { readJsonFile, writeFileAtomic, type DataFileProblem } from '../data-files';
import { said } from '../words';

export const CONNECTIONS_FILE = 'connections.json';

export interface Connection {
  id: string;
  name: string;
  /** The address as the person gave it (trimmed); the relay client resolves `/v1` and mounts. */
  baseUrl: string;
  /** Where the person manages their account and tops up their balance. */
  consoleUrl?: string | undefined;
  /** The embedded demo relay: its address changes every time the app starts it. */
  isDemo?: boolean | undefined;
  /**
   * The person chose to send the key over plain http to a host outside the local network.
   * Belongs to the address: a change of origin clears it.
   */
  allowUnencrypted?: boolean | undefined;
  /** Extra request headers; a secret one's value is in the key store, not here. */
  headers?: StoredHeader[] | undefined;
}

/** An extra header as `connections.json` keeps it: the value only when it is not secret. */
export interface StoredHeader {
  name: string;
  secret: boolean;
  value?: string | undefined;
}

const storedConnectionSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  consoleUrl: z.string().optional(),
  isDemo: z.boolean().optional(),
  allowUnencrypted: z.boolean().optional(),
  headers: z
    .array(z.object({ name: z.string(), secret: z.boolean(), value: z.string().optional() }))
    .optional(),
});

const connectionsFileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().optional(),
  connections: z.array(storedConnectionSchema),
});

export type ConnectionsFile = z.infer<typeof connectionsFileSchema>;

interface LoadedState {
  file: ConnectionsFile;
  problem?: DataFileProblem;
  /** A file that exists but could not be read is never replaced. */
  readOnly: boolean;
}

export class ConnectionsStore {
  readonly #path: string;
  readonly #now: () => Date;
  #state: Promise<LoadedState> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, now: () => Date = () => new Date()) {
    this.#path = join(dataDir, CONNECTIONS_FILE);
    this.#now = now;
  }

  /** The list as saved, once every change asked for before has ended. */
  async read(): Promise<ConnectionsFile> {
    await this.#queue;
    return (await this.#load()).file;
  }

  /** A damaged or unreadable file found when the list was first read. */
  async problem(): Promise<DataFileProblem | undefined> {
    return (await this.#load()).problem;
  }

  /** Runs changes one at a time, each on the latest saved list. */
  mutate<T>(change: (file: ConnectionsFile) => Promise<T>): Promise<T> {
    const run = this.#queue.then(async () => change((await this.#load()).file));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** The latest saved list, inside a change (`mutate`): it does not wait for the queue. */
  async current(): Promise<ConnectionsFile> {
    return (await this.#load()).file;
  }

  /** Saves the whole list, atomically; refused when the file on disk could not be read. */
  async write(file: ConnectionsFile): Promise<void> {
    const state = await this.#load();
    if (state.readOnly) {
      throw new AppError('internal', state.problem?.message ?? said('connections.unreadable'));
    }
    try {
      await writeFileAtomic(this.#path, `${JSON.stringify(file, null, 2)}\n`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new AppError('internal', said('connections.notSaved', { path: this.#path, code }));
    }
    state.file = file;
  }

  #load(): Promise<LoadedState> {
    this.#state ??= (async () => {
      const read = await readJsonFile(
        this.#path,
        connectionsFileSchema,
        'saved connections',
        this.#now,
      );
      const empty: ConnectionsFile = { version: 1, connections: [] };
      switch (read.status) {
        case 'ok':
          return { file: read.value, readOnly: false };
        case 'missing':
          return { file: empty, readOnly: false };
        case 'corrupt':
          return { file: empty, problem: read.problem, readOnly: false };
        case 'unreadable':
          return { file: empty, problem: read.problem, readOnly: true };
      }
    })();
    // A failed load (the backup could not be written) is tried again next time.
    this.#state.catch(() => {
      this.#state = undefined;
    });
    return this.#state;
  }
}

/** The saved connection `id`, or the refusal the person is shown when it is gone. */
export function findConnection(file: ConnectionsFile, id: string): Connection {
  const found = file.connections.find((c) => c.id === id);
  if (!found) throw new AppError('not_found', said('connections.gone'));
  return found;
}
