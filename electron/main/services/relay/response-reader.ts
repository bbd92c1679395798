import { errorFromNetwork } from './http-errors';
import { RelayError } from './relay-error';
import { abortedError } from './retry';

/**
 * Reads one response body chunk by chunk, under an idle watchdog.
 *
 * The watchdog is a single timer that re-arms itself for the time left, rather than a timer per
 * chunk: at thousands of chunks a second, clearing and setting timers would cost more than the
 * parsing does.
 */
/** One read of a body: a chunk, or the end. */
export type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

export class ResponseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private lastActivity = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private idleFired = false;
  private closed = false;

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
    private readonly userSignal: AbortSignal | undefined,
    private readonly idleTimeoutMs: number,
    private readonly url: string,
    private readonly detach: () => void,
  ) {
    this.reader = response.body?.getReader();
  }

  /**
   * The next chunk, straight from the stream: no async wrapper of its own, because at one chunk
   * per byte the extra promise shows in profiles. A rejection is raw; map it with `failure()`.
   * Only the start of a read is stamped: the previous chunk arrived just before it, and the time
   * the consumer spends between reads is not the relay's silence.
   */
  read(): Promise<ReadResult> {
    if (this.reader === undefined) return Promise.resolve({ done: true, value: undefined });
    this.lastActivity = performance.now();
    if (this.idleTimer === undefined && !this.closed) this.armIdle(this.idleTimeoutMs);
    return this.reader.read();
  }

  /** The whole body, refused once it grows past `maxBytes`. */
  async readAll(maxBytes: number, what: string): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      let chunk: Uint8Array;
      try {
        const next = await this.read();
        if (next.done) break;
        chunk = next.value;
      } catch (error) {
        throw this.failure(error);
      }
      total += chunk.byteLength;
      if (total > maxBytes) {
        this.close();
        throw new RelayError(
          'bad_response',
          `The ${what} from ${hostOf(this.url)} is larger than ${formatBytes(maxBytes)}; it was not read.`,
        );
      }
      parts.push(chunk);
    }
    if (parts.length === 1) return parts[0] as Uint8Array;
    const out = new Uint8Array(total);
    let offset = 0;
    for (const part of parts) {
      out.set(part, offset);
      offset += part.byteLength;
    }
    return out;
  }

  /** Stops reading and releases the connection. Safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.detach();
    this.reader?.cancel().catch(() => undefined);
  }

  private armIdle(ms: number): void {
    this.idleTimer = setTimeout(
      () => {
        this.idleTimer = undefined;
        if (this.closed) return;
        const idleFor = performance.now() - this.lastActivity;
        if (idleFor >= this.idleTimeoutMs) {
          this.idleFired = true;
          this.controller.abort();
        } else {
          this.armIdle(this.idleTimeoutMs - idleFor);
        }
      },
      Math.max(1, Math.ceil(ms)),
    );
  }

  /** What a failed read means: the person's cancel, the idle watchdog, or the network. */
  failure(error: unknown): RelayError {
    if (this.userSignal?.aborted) return abortedError();
    if (this.idleFired) {
      return new RelayError(
        'timeout',
        `${hostOf(this.url)} stopped sending for ${formatSeconds(this.idleTimeoutMs)}; the answer was given up.`,
      );
    }
    if (error instanceof RelayError) return error;
    return errorFromNetwork(error, this.url);
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} second${seconds === 1 ? '' : 's'}`;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round(bytes / (1024 * 1024))} MB`
    : `${Math.round(bytes / 1024)} KB`;
}
