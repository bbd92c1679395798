/**
 * One live session with an MCP server: the official SDK's `Client` over a transport (the app's
 * own stdio transport for a local server, the SDK's Streamable HTTP one for a remote server).
 * It starts with a time limit, lists the tools (every page), follows `tools/list_changed`, calls
 * a tool with a time limit (renewed by progress) and a signal, and says in the person's words
 * why a start failed or a call could not finish.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { said, type Said } from '../words';
import { exitWords, McpFailure, type ProcessExit } from './failure';
import type { LineRing } from './line-ring';
import { MessageTooLarge, NotAMessage, ProcessTransport } from './process-transport';
import type { ProcessHost } from './processes';
import type { StoredTool } from './server-config';
import { readToolResult, type ToolResult } from './tool-result';

export type ConnectionTarget =
  | {
      transport: 'stdio';
      /** The command's full path, found on the search path. */
      command: string;
      args: readonly string[];
      env: Record<string, string>;
      cwd?: string;
    }
  | { transport: 'http'; url: string; headers: Record<string, string> };

export interface ConnectionOptions {
  /** The server's name, for the messages. */
  name: string;
  target: ConnectionTarget;
  host: ProcessHost;
  fetch?: ((url: string | URL, init?: RequestInit) => Promise<Response>) | undefined;
  stderr: LineRing;
  appVersion: string;
  /** The server's tool list changed (it sent `notifications/tools/list_changed`). */
  onToolsChanged: (tools: StoredTool[]) => void;
  /** The server's prompt or resource list changed (`notifications/…/list_changed`). */
  onListChanged?: (list: 'prompts' | 'resources') => void;
  /** The session ended without being closed: the process exited, the connection dropped. */
  onLost: (exit: ProcessExit | undefined) => void;
  onSpawn?: (pid: number) => void;
  onExit?: (pid: number) => void;
}

/** A progress notification of a call: how far, of how much, and what it says it is doing. */
export interface ToolProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** How long the server may stay silent; progress notifications renew it. */
  timeoutMs: number;
  /** The most a call may take, progress or not. */
  maxTotalMs?: number;
  onProgress?: (progress: ToolProgress) => void;
  /** Past this many characters the result is cut (with a note). */
  maxResultChars?: number;
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/** A tool as the app keeps it: its name, words, schema and hints. */
export function storedTool(tool: Tool): StoredTool {
  const annotations = tool.annotations ?? {};
  return {
    name: tool.name,
    title: tool.title ?? (typeof annotations.title === 'string' ? annotations.title : null),
    description: tool.description ?? '',
    inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
    readOnly: typeof annotations.readOnlyHint === 'boolean' ? annotations.readOnlyHint : null,
    destructive:
      typeof annotations.destructiveHint === 'boolean' ? annotations.destructiveHint : null,
  };
}

/** A prompt as a server lists it: its name, words and arguments. */
export interface ListedPrompt {
  name: string;
  title: string | null;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
}

/** A resource as a server lists it (templates are not listed). */
export interface ListedResource {
  uri: string;
  name: string;
  title: string | null;
  description: string;
  mimeType: string | null;
  size: number | null;
}

/** At most this many pages of a list are read (a server that pages forever is cut off). */
const MAX_PAGES = 50;

function listedPrompt(prompt: Prompt): ListedPrompt {
  return {
    name: prompt.name,
    title: prompt.title ?? null,
    description: prompt.description ?? '',
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      description: argument.description ?? '',
      required: argument.required === true,
    })),
  };
}

function listedResource(resource: Resource): ListedResource {
  return {
    uri: resource.uri,
    name: resource.name,
    title: resource.title ?? null,
    description: resource.description ?? '',
    mimeType: resource.mimeType ?? null,
    size: typeof resource.size === 'number' ? resource.size : null,
  };
}

export class McpConnection {
  readonly #options: ConnectionOptions;
  readonly #client: Client;
  #transport: Transport | undefined;
  #closing = false;
  #lost = false;

  constructor(options: ConnectionOptions) {
    this.#options = options;
    this.#client = new Client(
      { name: 'relay-desktop', title: 'Relay Desktop', version: options.appVersion },
      {
        // Roots, with none shared: servers that read them (filesystem) keep their own folders.
        capabilities: { roots: { listChanged: false } },
        listChanged: {
          tools: {
            autoRefresh: false,
            debounceMs: 100,
            onChanged: () => void this.#refreshTools(),
          },
          prompts: {
            autoRefresh: false,
            debounceMs: 100,
            onChanged: () => this.#options.onListChanged?.('prompts'),
          },
          resources: {
            autoRefresh: false,
            debounceMs: 100,
            onChanged: () => this.#options.onListChanged?.('resources'),
          },
        },
      },
    );
    this.#client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  }

  get serverInfo(): { name: string; version: string } | null {
    const info = this.#client.getServerVersion();
    return info ? { name: info.name, version: info.version } : null;
  }

  /** The process id of a local server (for tests and the quit check). */
  get pid(): number | undefined {
    return this.#transport instanceof ProcessTransport ? this.#transport.pid : undefined;
  }

  /** Starts the session and lists the tools, within `timeoutMs`. */
  async start(timeoutMs: number): Promise<StoredTool[]> {
    const { target } = this.#options;
    const transport =
      target.transport === 'stdio'
        ? new ProcessTransport({
            host: this.#options.host,
            command: target.command,
            args: target.args,
            env: target.env,
            cwd: target.cwd,
            stderr: this.#options.stderr,
            ...(this.#options.onSpawn ? { onSpawn: this.#options.onSpawn } : {}),
            ...(this.#options.onExit ? { onExit: this.#options.onExit } : {}),
          })
        : new StreamableHTTPClientTransport(new URL(target.url), {
            requestInit: { headers: target.headers },
            ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
          });
    this.#transport = transport;
    const stray: Error[] = [];
    transport.onerror = (error) => {
      if (error instanceof NotAMessage || error instanceof MessageTooLarge) stray.push(error);
      if (error instanceof MessageTooLarge) this.#options.stderr.note(`[app] ${error.message}`);
    };

    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    const exited =
      transport instanceof ProcessTransport
        ? transport.exited.then(() => 'exited' as const)
        : undefined;
    const work = (async () => {
      await this.#client.connect(transport, { timeout: timeoutMs });
      return this.#listAll();
    })();
    work.catch(() => undefined);
    try {
      const outcome = await Promise.race([work, late, ...(exited ? [exited] : [])]);
      if (outcome === 'late') throw this.#failure('timeout', undefined, stray, timeoutMs);
      if (outcome === 'exited') throw this.#failure('exited', undefined, stray, timeoutMs);
      this.#watch(transport);
      return outcome;
    } catch (error) {
      const failure =
        error instanceof McpFailure ? error : this.#failure('error', error, stray, timeoutMs);
      this.#closing = true;
      await transport.close().catch(() => undefined);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Once running: a session that ends by itself is reported as lost. */
  #watch(transport: Transport): void {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      if (this.#closing || this.#lost) return;
      this.#lost = true;
      this.#options.onLost(transport instanceof ProcessTransport ? transport.exit : undefined);
    };
    // The SDK's own handler is in `previous`; it rejects the calls still waiting.
  }

  async #listAll(): Promise<StoredTool[]> {
    const tools: StoredTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const listed = await this.#client.listTools(cursor === undefined ? {} : { cursor });
      for (const tool of listed.tools) tools.push(storedTool(tool));
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  async #refreshTools(): Promise<void> {
    if (this.#closing || this.#lost) return;
    try {
      this.#options.onToolsChanged(await this.#listAll());
    } catch (error) {
      this.#options.stderr.note(
        `[app] The tool list could not be read again: ${(error as Error).message}`,
      );
    }
  }

  /** The server's prompts (every page); none when it offers no prompts. */
  async listPrompts(timeoutMs: number): Promise<ListedPrompt[]> {
    if (this.#client.getServerCapabilities()?.prompts === undefined) return [];
    try {
      const prompts: ListedPrompt[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const listed = await this.#client.listPrompts(cursor === undefined ? {} : { cursor }, {
          timeout: timeoutMs,
        });
        for (const prompt of listed.prompts) prompts.push(listedPrompt(prompt));
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      return prompts;
    } catch (error) {
      throw this.#requestFailure(error, timeoutMs, (detail) =>
        said('tools.prompts.failed', { name: this.#options.name, detail }),
      );
    }
  }

  /** A prompt's messages, with the arguments given. */
  async getPrompt(
    prompt: string,
    args: Record<string, string>,
    timeoutMs: number,
  ): Promise<GetPromptResult> {
    try {
      return await this.#client.getPrompt(
        { name: prompt, arguments: args },
        { timeout: timeoutMs },
      );
    } catch (error) {
      throw this.#requestFailure(error, timeoutMs, (detail) =>
        said('tools.prompt.failed', { name: this.#options.name, prompt, detail }),
      );
    }
  }

  /** The server's resources (every page; not its templates); none when it offers none. */
  async listResources(timeoutMs: number): Promise<ListedResource[]> {
    if (this.#client.getServerCapabilities()?.resources === undefined) return [];
    try {
      const resources: ListedResource[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const listed = await this.#client.listResources(cursor === undefined ? {} : { cursor }, {
          timeout: timeoutMs,
        });
        for (const resource of listed.resources) resources.push(listedResource(resource));
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      return resources;
    } catch (error) {
      throw this.#requestFailure(error, timeoutMs, (detail) =>
        said('tools.resources.failed', { name: this.#options.name, detail }),
      );
    }
  }

  /** A resource's contents. */
  async readResource(uri: string, timeoutMs: number): Promise<ReadResourceResult> {
    try {
      return await this.#client.readResource({ uri }, { timeout: timeoutMs });
    } catch (error) {
      throw this.#requestFailure(error, timeoutMs, (detail) =>
        said('tools.resource.failed', { name: this.#options.name, uri, detail }),
      );
    }
  }

  /** A request other than a call that got no answer: the server stopped, was late, or refused. */
  #requestFailure(
    error: unknown,
    timeoutMs: number,
    refused: (detail: string) => Said,
  ): McpFailure {
    const { name } = this.#options;
    const exit = this.#transport instanceof ProcessTransport ? this.#transport.exit : undefined;
    if (this.#lost || exit !== undefined)
      return new McpFailure(
        'crashed',
        said('tools.lost', { name, how: exitWords(exit ?? { code: null, signal: null }) }),
      );
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return new McpFailure(
        'timed_out',
        said('tools.request.timedOut', { name, seconds: seconds(timeoutMs) }),
      );
    const detail = clip(String((error as Error)?.message ?? error)).replace(
      /^MCP error -?\d+: (MCP error -?\d+: )?/,
      '',
    );
    return new McpFailure('other', refused(detail));
  }

  /** Calls a tool; a failure to get an answer is an `McpFailure` saying why. */
  async callTool(
    tool: string,
    input: Record<string, unknown>,
    options: CallOptions,
  ): Promise<ToolResult> {
    const started = performance.now();
    // The call's own signal, following the reply's: the SDK listens on the signal it is given
    // and never stops, so the reply's own would gather a listener per call for the reply's life
    // (and Node's warning at the eleventh). `AbortSignal.any` puts no listener on the reply's.
    const signal = options.signal ? AbortSignal.any([options.signal]) : undefined;
    try {
      const answer = await this.#client.callTool({ name: tool, arguments: input }, undefined, {
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(options.maxTotalMs === undefined ? {} : { maxTotalTimeout: options.maxTotalMs }),
        ...(signal ? { signal } : {}),
        ...(options.onProgress ? { onprogress: (p: ToolProgress) => options.onProgress?.(p) } : {}),
      });
      return readToolResult(answer, performance.now() - started, options.maxResultChars);
    } catch (error) {
      throw this.#callFailure(tool, error, options);
    }
  }

  #callFailure(tool: string, error: unknown, options: CallOptions): McpFailure {
    const { name } = this.#options;
    if (options.signal?.aborted)
      return new McpFailure('other', said('tools.call.cancelled', { name, tool }));
    const exit = this.#transport instanceof ProcessTransport ? this.#transport.exit : undefined;
    if (this.#lost || exit !== undefined)
      return new McpFailure(
        'crashed',
        exit !== undefined
          ? said('tools.call.serverExited', { name, tool, how: exitWords(exit) })
          : said('tools.call.connectionLost', { name, tool }),
      );
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return new McpFailure(
        'timed_out',
        said('tools.call.timedOut', { name, tool, seconds: seconds(options.timeoutMs) }),
      );
    if (error instanceof McpError)
      return new McpFailure(
        'other',
        said('tools.call.refused', { name, tool, detail: clip(error.message) }),
      );
    return new McpFailure(
      'other',
      said('tools.call.failed', {
        name,
        tool,
        detail: clip(String((error as Error)?.message ?? error)),
      }),
    );
  }

  #failure(
    kind: 'timeout' | 'exited' | 'error',
    error: unknown,
    stray: readonly Error[],
    timeoutMs: number,
  ): McpFailure {
    const { name } = this.#options;
    const transport = this.#transport;
    const strayLine = stray.find((e): e is NotAMessage => e instanceof NotAMessage)?.line;
    if (stray.some((e) => e instanceof MessageTooLarge))
      return new McpFailure('bad_handshake', said('tools.start.tooLarge', { name }));
    if (transport instanceof ProcessTransport) {
      const exit = transport.exit;
      if (kind === 'exited' || (exit !== undefined && kind === 'error')) {
        const code = (error as NodeJS.ErrnoException | undefined)?.code;
        if (code === 'ENOENT')
          return new McpFailure('not_found', said('tools.start.spawnMissing', { name }));
        if (code === 'EACCES')
          return new McpFailure('not_executable', said('tools.start.notExecutable', { name }));
        return new McpFailure(
          'exited',
          said('tools.start.exited', {
            name,
            how: exitWords(exit ?? { code: null, signal: null }),
          }),
        );
      }
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (code === 'ENOENT')
        return new McpFailure('not_found', said('tools.start.spawnMissing', { name }));
      if (code === 'EACCES')
        return new McpFailure('not_executable', said('tools.start.notExecutable', { name }));
    }
    if (
      kind === 'timeout' ||
      (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    )
      return new McpFailure(
        'timed_out',
        strayLine !== undefined
          ? said('tools.start.timedOutStray', {
              name,
              seconds: seconds(timeoutMs),
              line: strayLine,
            })
          : said('tools.start.timedOut', { name, seconds: seconds(timeoutMs) }),
      );
    if (error instanceof StreamableHTTPError) {
      const status = typeof error.code === 'number' ? error.code : -1;
      if (status === 401 || status === 403)
        return new McpFailure('refused', said('tools.start.httpAuth', { name, status }));
      if (status > 0)
        return new McpFailure('refused', said('tools.start.httpStatus', { name, status }));
      return new McpFailure(
        'bad_handshake',
        said('tools.start.notMcp', { name, detail: clip(error.message) }),
      );
    }
    if (error instanceof TypeError && this.#options.target.transport === 'http')
      return new McpFailure(
        'unreachable',
        said('tools.start.unreachable', { name, host: hostOf(this.#options.target.url) }),
      );
    if (strayLine !== undefined)
      return new McpFailure(
        'bad_handshake',
        said('tools.start.strayOutput', { name, line: strayLine }),
      );
    return new McpFailure(
      'bad_handshake',
      said('tools.start.handshake', {
        name,
        detail: clip((error as Error)?.message ?? String(error)),
      }),
    );
  }

  /** Ends the session (and a local server's whole process tree). */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#client.close().catch(() => undefined);
    await this.#transport?.close().catch(() => undefined);
  }
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
