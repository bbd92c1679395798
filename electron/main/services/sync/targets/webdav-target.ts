/**
 * WebDAV as sync storage (Nextcloud, ownCloud, a NAS, rclone, any WebDAV server), through the
 * `webdav` package: Basic and Digest sign-in, PROPFIND listings, and the servers' quirks.
 *
 * Every upload is one PUT of the object's bytes with its length (never a chunked stream, which
 * some servers store as 0 bytes and still answer 201: the failure other apps reported as a
 * successful backup), and the engine checks each object's stored size in the next listing. The
 * package loads at the first request (it is large), and its requests go through the app's
 * `fetch` (the system's proxy and certificates in the app) with a timeout of their own.
 */
import type { FileStat, WebDAVClient } from 'webdav';
import { httpProblem, hostOf, networkProblem } from './problems';
import type { Listing, SyncTarget } from './target';

export interface WebdavOptions {
  /** The server's address, with the folder to keep the objects in: https://host/remote.php/dav/files/me/Relay */
  url: string;
  username: string;
  password: string;
  /** Seconds each request may take. */
  timeoutSeconds?: number;
  fetch?: typeof fetch;
}

let patchedFetch: typeof fetch | undefined;

async function webdavModule(custom: typeof fetch | undefined) {
  const module = await import('webdav');
  // The package takes its fetch through a process-wide patch: the app has one fetch.
  if (custom !== undefined && custom !== patchedFetch) {
    patchedFetch = custom;
    module.getPatcher().patch('fetch', custom as never);
  }
  return module;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

export class WebdavTarget implements SyncTarget {
  readonly description: string;
  readonly #options: WebdavOptions;
  readonly #host: string;
  readonly #timeout: number;
  #client: Promise<WebDAVClient> | undefined;
  /** Folders known to exist, so each is made once. */
  readonly #folders = new Set<string>();

  constructor(options: WebdavOptions) {
    this.#options = options;
    this.#host = hostOf(options.url);
    this.#timeout = options.timeoutSeconds ?? 60;
    this.description = `WebDAV at ${options.url}`;
  }

  #connect(): Promise<WebDAVClient> {
    this.#client ??= webdavModule(this.#options.fetch).then((module) =>
      module.createClient(this.#options.url, {
        username: this.#options.username,
        password: this.#options.password,
      }),
    );
    return this.#client;
  }

  #signal(): AbortSignal {
    return AbortSignal.timeout(this.#timeout * 1000);
  }

  #problem(error: unknown, where: string, size?: number): Error {
    const status = statusOf(error);
    if (status !== undefined) return httpProblem(status, this.#host, where, size);
    return networkProblem(error, this.#host, this.#timeout);
  }

  async list(prefix: string): Promise<Listing> {
    const client = await this.#connect();
    const folder = `/${prefix.replace(/\/$/, '')}`;
    try {
      const answer = (await client.getDirectoryContents(folder, {
        details: true,
        signal: this.#signal(),
      })) as unknown as { data: FileStat[]; headers: Record<string, string> };
      const date = answer.headers.date;
      return {
        objects: answer.data
          .filter((entry) => entry.type === 'file')
          .map((entry) => ({ name: `${prefix}${entry.basename}`, size: entry.size })),
        ...(date ? { serverTime: new Date(date) } : {}),
      };
    } catch (error) {
      if (statusOf(error) === 404) {
        // The prefix's folder is made at the first upload; the root itself must be there.
        await this.#rootExists(client);
        const date = (error as { response?: { headers?: Headers } }).response?.headers?.get?.(
          'date',
        );
        return date ? { objects: [], serverTime: new Date(date) } : { objects: [] };
      }
      throw this.#problem(error, this.#options.url);
    }
  }

  async #rootExists(client: WebDAVClient): Promise<void> {
    try {
      await client.stat('/', { signal: this.#signal() });
    } catch (error) {
      throw this.#problem(error, this.#options.url);
    }
  }

  async get(name: string): Promise<Uint8Array | undefined> {
    const client = await this.#connect();
    try {
      const data = await client.getFileContents(`/${name}`, {
        format: 'binary',
        signal: this.#signal(),
      });
      return new Uint8Array(data as Buffer);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw this.#problem(error, name);
    }
  }

  async putIfAbsent(name: string, bytes: Uint8Array): Promise<'written' | 'exists'> {
    const client = await this.#connect();
    const slash = name.lastIndexOf('/');
    const folder = slash > 0 ? `/${name.slice(0, slash)}` : undefined;
    try {
      if (folder !== undefined && !this.#folders.has(folder)) {
        if (!(await client.exists(folder, { signal: this.#signal() })))
          await client.createDirectory(folder, { signal: this.#signal() });
        this.#folders.add(folder);
      }
      const written = await client.putFileContents(
        `/${name}`,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        { overwrite: false, contentLength: bytes.byteLength, signal: this.#signal() },
      );
      return written ? 'written' : 'exists';
    } catch (error) {
      if (statusOf(error) === 412) return 'exists';
      throw this.#problem(error, name, bytes.byteLength);
    }
  }

  async delete(name: string): Promise<void> {
    const client = await this.#connect();
    try {
      await client.deleteFile(`/${name}`, { signal: this.#signal() });
    } catch (error) {
      if (statusOf(error) === 404) return;
      throw this.#problem(error, name);
    }
  }
}
