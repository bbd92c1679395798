/**
 * The stdio transport of a local MCP server, over the `ProcessHost` seam: JSON-RPC messages one a
 * line on the process's stdin and stdout, its stderr kept in a bounded ring of lines.
 *
 * The SDK's own stdio transport spawns by itself (no seam, no process group) and passes stderr
 * through; this one starts the server as a group leader so that closing ends its whole tree, and
 * says how the process ended (its code or signal), which the diagnosis of a failed start needs.
 */
import type { ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ProcessExit } from './failure';
import type { LineRing } from './line-ring';
import type { ProcessHost } from './processes';

/** One message (one line of stdout) larger than this ends the connection. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** How long a server has to end after SIGTERM before its group is killed. */
export const STOP_GRACE_MS = 2000;

export interface ProcessTransportOptions {
  host: ProcessHost;
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string | undefined;
  /** Where the server's stderr lines go (the connection's ring, kept across restarts). */
  stderr: LineRing;
  /** Told about each process started and ended, so none outlives the app. */
  onSpawn?: (pid: number) => void;
  onExit?: (pid: number) => void;
}

/** Collects stdout into lines without copying what came before at every chunk. */
class LineSplitter {
  #chunks: Buffer[] = [];
  #size = 0;

  /** The whole lines the chunk completes; throws when one line passes the limit. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      const piece = chunk.subarray(start, end);
      if (this.#size + piece.length > MAX_MESSAGE_BYTES) throw new MessageTooLarge();
      this.#chunks.push(piece);
      lines.push(Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, ''));
      this.#chunks = [];
      this.#size = 0;
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      if (this.#size + rest.length > MAX_MESSAGE_BYTES) throw new MessageTooLarge();
      this.#chunks.push(rest);
      this.#size += rest.length;
    }
    return lines;
  }
}

export class MessageTooLarge extends Error {
  override readonly name = 'MessageTooLarge';
  constructor() {
    super(`The server sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB.`);
  }
}

/** Output on stdout that is not a JSON-RPC message (a server that logs to stdout). */
export class NotAMessage extends Error {
  override readonly name = 'NotAMessage';
  readonly line: string;
  constructor(line: string) {
    super('The server wrote a line that is not an MCP message to its standard output.');
    this.line = line.length > 300 ? `${line.slice(0, 300)}…` : line;
  }
}

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #options: ProcessTransportOptions;
  #child: ChildProcess | undefined;
  #exit: ProcessExit | undefined;
  #closed = false;
  readonly #exited: Promise<ProcessExit>;
  #resolveExit!: (exit: ProcessExit) => void;
  /** The first lines of stdout that were not MCP: a hint when the handshake fails. */
  readonly strayOutput: string[] = [];

  constructor(options: ProcessTransportOptions) {
    this.#options = options;
    this.#exited = new Promise((resolve) => (this.#resolveExit = resolve));
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended; undefined while it runs. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** Resolves once the process has ended. */
  get exited(): Promise<ProcessExit> {
    return this.#exited;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('The server process was started already.');
    const { host, command, args, env, cwd, stderr } = this.#options;
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = host.spawn(command, args, { env, cwd });
      } catch (error) {
        reject(error as Error);
        return;
      }
      this.#child = child;
      const splitter = new LineSplitter();
      child.once('error', (error) => {
        // Spawning failed (ENOENT, EACCES): there is no process to wait for.
        if (child.pid === undefined) {
          this.#ended({ code: null, signal: null });
          reject(error);
        } else this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) this.#options.onSpawn?.(child.pid);
        resolve();
      });
      child.once('close', (code, signal) => {
        if (child.pid !== undefined) this.#options.onExit?.(child.pid);
        this.#ended({ code, signal });
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        let lines: string[];
        try {
          lines = splitter.push(chunk);
        } catch (error) {
          this.onerror?.(error as Error);
          void this.close();
          return;
        }
        for (const line of lines) this.#receive(line);
      });
      child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
      // A server that exits while a message is being written: the write fails, the exit says why.
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  #receive(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      const stray = new NotAMessage(line);
      if (this.strayOutput.length < 5) this.strayOutput.push(stray.line);
      this.#options.stderr.note(`[stdout] ${stray.line}`);
      this.onerror?.(stray);
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exit) return Promise.reject(new Error('The server is not running.'));
    return new Promise((resolve, reject) => {
      const ok = stdin.write(serializeMessage(message), (error) => {
        if (error) reject(error);
      });
      if (ok) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends the server and every process it started: SIGTERM, then SIGKILL after a grace period. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const child = this.#child;
    const pid = child?.pid;
    if (child && pid !== undefined && this.#exit === undefined) {
      const { host } = this.#options;
      child.stdin?.end();
      host.killTree(pid, 'SIGTERM');
      if (!(await this.#endsWithin(STOP_GRACE_MS))) host.killTree(pid, 'SIGKILL');
      // The leader may be gone while a child it started lingers in the group.
      if (host.isRunning(pid)) host.killTree(pid, 'SIGKILL');
      await this.#endsWithin(STOP_GRACE_MS);
    }
    this.onclose?.();
  }

  async #endsWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), ms);
    });
    const outcome = await Promise.race([this.#exited, late]);
    clearTimeout(timer);
    return outcome !== 'late';
  }

  #ended(exit: ProcessExit): void {
    if (this.#exit) return;
    this.#exit = exit;
    this.#resolveExit(exit);
    // The process ended by itself: the connection is over, and what it started goes with it.
    if (!this.#closed) {
      this.#closed = true;
      const pid = this.#child?.pid;
      if (pid !== undefined && this.#options.host.isRunning(pid))
        this.#options.host.killTree(pid, 'SIGKILL');
      this.onclose?.();
    }
  }
}
