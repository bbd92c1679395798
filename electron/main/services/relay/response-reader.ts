import { errorFromNetwork } from './http-errors';
import { said } from '../words';
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
  async readAll(maxBytes: number, what: AnswerKind): Promise<Uint8Array> {
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
          maxBytes >= 1024 * 1024
            ? said('relay.answerTooLarge.mb', {
                what,
                host: hostOf(this.url),
                size: Math.round(maxBytes / (1024 * 1024)),
              })
            : said('relay.answerTooLarge.kb', {
                what,
                host: hostOf(this.url),
                size: Math.round(maxBytes / 1024),
              }),
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
        said('relay.stoppedSending', {
          host: hostOf(this.url),
          seconds: seconds(this.idleTimeoutMs),
        }),
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

/** A duration in seconds for a message (`{seconds, plural, …}`): whole, or to a tenth. */
export function seconds(ms: number): number {
  const value = ms / 1000;
  return Number.isInteger(value) ? value : Number(value.toFixed(1));
}

/** What a whole answer read at once is, as main's messages name it. */
export type AnswerKind = 'models' | 'embeddings' | 'images' | 'error' | 'image';
