/**
 * MCP servers: their settings, their secret values (in the key store), and their live sessions.
 *
 * - A server starts when its tools are first needed (a call, a listing, Test), never at app start.
 * - A server that stops by itself starts again after a wait that doubles (1 s, 2 s, 4 s … 30 s);
 *   after `MAX_CRASHES` stops in a row it is left failed, with the reason.
 * - A local server and everything it started end at quit (`close`), and, should the app end
 *   without closing, at its exit (a last synchronous kill of every group still running).
 * - Its tool list follows `notifications/tools/list_changed`, and is kept between starts, so the
 *   Tools screen and the token count never need a start.
 * - Its commands are found as the person's terminal finds them (`command-search.ts`).
 * - A local server's command line runs only once the person chose Run in main's own dialog, which
 *   shows it (`launch-question.ts`); the page, which describes servers, can never say yes for them.
 *
 * - Its prompts and resources are listed when first asked for (the composer's `/` list, the attach
 *   menu), kept while it runs and read again after `notifications/…/list_changed`. A prompt is
 *   got only by a name it listed, with its required arguments; a resource is read only by a URI
 *   it listed.
 *
 * The chat's tool loop uses `offeredTools` (the tools to send with a request, named for the model)
 * and `callTool` (run one, with a signal, a time limit and progress), then `resultForModel`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import type {
  McpDiagnosis,
  McpImportResult,
  McpPromptList,
  McpPromptMessages,
  McpPromptPart,
  McpResourceList,
  McpServerDraft,
  McpServerSummary,
  McpTestResult,
  McpTool,
} from '../../../shared/ipc/routes/tools';
import type { ToolDefinition } from '../../../shared/relay-requests';
import { confirmed, type Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import type { Clock } from '../backups/schedule';
import { systemClock } from '../backups/schedule';
import { estimateTokens } from '../chat/attachments';
import { readJsonFile, writeFileAtomic } from '../data-files';
import { readRegularFile, type RegularFileRead } from '../files/regular-file';
import type { SecretStore } from '../secret-store';
import { nativeText, messageFields, messageFieldsAs, said, type Said } from '../words';
import type { ToolPermissions, ToolRule } from './approval';
import { CommandSearch, installHintFor } from './command-search';
import { readServersFile } from './import-file';
import { launchFingerprint, launchQuestion } from './launch-question';
import { LineRing } from './line-ring';
import { exitWords, McpFailure, type ProcessExit } from './failure';
import type {
  ConnectionTarget,
  ListedPrompt,
  ListedResource,
  McpConnection,
  ToolProgress,
} from './mcp-connection';
import { inheritedEnvironment, type ProcessHost } from './processes';
import {
  checkDraft,
  parseSecrets,
  secretsAccount,
  serversFileSchema,
  SERVERS_FILE,
  type CheckedDraft,
  type ServerSecrets,
  type ServersFile,
  type StoredServer,
  type StoredTool,
} from './server-config';
import { functionNames } from './tool-names';
import type { ToolResult } from './tool-result';

/** Stops in a row after which a server is left failed instead of started again. */
export const MAX_CRASHES = 5;
/** A server that ran this long before it stopped starts its count of stops afresh. */
export const STABLE_AFTER_MS = 60_000;
export const RESTART_MAX_DELAY_MS = 30_000;
/** The key store entry of the key the fingerprints of allowed command lines are made with. */
export const LAUNCH_KEY_ACCOUNT = 'mcp-launch-key';
/** An import file larger than this is refused before it is read. */
export const MAX_IMPORT_BYTES = 1024 * 1024;

export interface McpTimeouts {
  /** The start and the first listing (a launcher such as npx may download the server first). */
  startMs: number;
  /** How long a call may stay silent (progress renews it). */
  callMs: number;
  /** The most a call may take. */
  callTotalMs: number;
  /** A listing of prompts or resources, getting a prompt, reading a resource. */
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: McpTimeouts = {
  startMs: 60_000,
  callMs: 120_000,
  callTotalMs: 30 * 60_000,
  requestMs: 30_000,
};

/** A prompt's text part longer than this is cut (the message box is no place for more). */
export const MAX_PROMPT_TEXT_CHARS = 200_000;

export interface McpServiceOptions {
  dataDir: string;
  secrets: SecretStore;
  host: ProcessHost;
  /** For remote servers (Electron's net.fetch in the app: the system's proxy and certificates). */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  clock?: Clock;
  /**
   * The import file's dialog, and the question a local server's command line runs only after
   * (without `confirm`, no local server starts).
   */
  dialogs?: Pick<Dialogs, 'chooseOpenPaths' | 'confirm'>;
  /** Reads the chosen import file (the project's regular-file reader). */
  readFile?: (path: string, maxBytes: number) => Promise<RegularFileRead>;
  appVersion?: string;
  timeouts?: Partial<McpTimeouts>;
  /** A server's summary changed (state, tools, error output). */
  onServerChanged?: (summary: McpServerSummary) => void;
  /** Servers were added or removed. */
  onServersChanged?: () => void;
  /** A running server's prompt or resource list changed. */
  onListChanged?: (id: string, list: 'prompts' | 'resources') => void;
  /** The login shell's time limit (tests use a short one). */
  loginShellTimeoutMs?: number;
}

/** A tool as a request offers it: its definition for the relay and where it comes from. */
export interface OfferedTool {
  serverId: string;
  serverName: string;
  /** The tool's own name on its server. */
  tool: string;
  /** The name the model calls it by (unique in one request). */
  functionName: string;
  definition: ToolDefinition;
  /** About how many tokens the definition costs in each request. */
  tokens: number;
  readOnly: boolean | null;
  destructive: boolean | null;
}

export interface ToolCallOptions {
  signal?: AbortSignal;
  /** Overrides the silence limit of `McpTimeouts.callMs`. */
  timeoutMs?: number;
  onProgress?: (progress: ToolProgress) => void;
  /** Past this many characters the result is cut, with a note (default 100,000). */
  maxResultChars?: number;
}

interface Runtime {
  state: McpServerSummary['state'];
  connection: McpConnection | undefined;
  starting: Promise<McpConnection> | undefined;
  problem: McpFailure | undefined;
  stderr: LineRing;
  crashes: number;
  startedAt: number;
  cancelRestart: (() => void) | undefined;
  restartAt: number | undefined;
  /** Summary events of error output are sent at most twice a second. */
  outputTimer: (() => void) | undefined;
  /** The prompts and resources the running session listed, until it says they changed. */
  lists:
    | {
        connection: McpConnection;
        prompts?: Promise<ListedPrompt[]>;
        resources?: Promise<ListedResource[]>;
      }
    | undefined;
}

const EMPTY: ServersFile = { version: 1, servers: [] };

/** The tokens a tool's definition costs in a request, by the app's estimate. */
function toolTokens(tool: StoredTool): number {
  return estimateTokens(
    JSON.stringify({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }),
  );
}

export class McpService {
  readonly #options: McpServiceOptions;
  readonly #clock: Clock;
  readonly #timeouts: McpTimeouts;
  readonly #search: CommandSearch;
  readonly #path: string;
  #file: Promise<ServersFile> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #runtimes = new Map<string, Runtime>();
  readonly #secretCache = new Map<string, ServerSecrets>();
  #launchKey: Promise<Buffer> | undefined;
  /** Every local server process running now, to end at exit whatever happens. */
  readonly #pids = new Set<number>();
  readonly #killAtExit = () => {
    for (const pid of this.#pids) this.#options.host.killTree(pid, 'SIGKILL');
  };
  #closed = false;

  constructor(options: McpServiceOptions) {
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#search = new CommandSearch(options.host, options.loginShellTimeoutMs);
    this.#path = join(options.dataDir, SERVERS_FILE);
    process.on('exit', this.#killAtExit);
  }

  // ---- settings -------------------------------------------------------------------------

  async list(): Promise<McpServerSummary[]> {
    const file = await this.#read();
    return Promise.all(file.servers.map((server) => this.#summary(server)));
  }

  async get(id: string): Promise<McpServerSummary> {
    return this.#summary(await this.#server(id));
  }

  add(draft: McpServerDraft): Promise<McpServerSummary> {
    return this.#mutate(async (file) => {
      const checked = checkDraft(draft, { takenNames: file.servers.map((s) => s.name) });
      const server = await this.#insert(file, checked);
      return server;
    }).then((server) => {
      this.#options.onServersChanged?.();
      return this.#summary(server);
    });
  }

  update(id: string, draft: McpServerDraft): Promise<McpServerSummary> {
    return this.#mutate(async (file) => {
      const current = this.#find(file, id);
      const saved = await this.#secrets(id);
      const checked = checkDraft(draft, {
        takenNames: file.servers.filter((s) => s.id !== id).map((s) => s.name),
        savedSecrets: saved,
      });
      const { server, secrets } = this.#apply(current, checked, saved);
      await this.#saveSecrets(id, secrets);
      file.servers = file.servers.map((s) => (s.id === id ? server : s));
      return server;
    }).then(async (server) => {
      // Started again with the new settings when next needed.
      await this.#stop(id);
      this.#options.onServersChanged?.();
      return this.#summary(server);
    });
  }

  async remove(id: string): Promise<void> {
    await this.#mutate(async (file) => {
      this.#find(file, id);
      file.servers = file.servers.filter((s) => s.id !== id);
    });
    await this.#stop(id);
    this.#runtimes.delete(id);
    await this.#options.secrets.delete(secretsAccount(id)).catch(() => false);
    this.#secretCache.delete(id);
    this.#options.onServersChanged?.();
  }

  setToolEnabled(id: string, tool: string, enabled: boolean): Promise<McpServerSummary> {
    return this.#mutate(async (file) => {
      const server = this.#find(file, id);
      const off = new Set(server.disabledTools);
      if (enabled) off.delete(tool);
      else off.add(tool);
      server.disabledTools = [...off];
      server.updatedAt = this.#clock.now().toISOString();
      return server;
    }).then((server) => this.#changed(server));
  }

  /** The server's default for calls to its tools ("ask" is no standing permission). */
  setServerRule(id: string, rule: ToolRule): Promise<McpServerSummary> {
    return this.#mutate(async (file) => {
      const server = this.#find(file, id);
      if (rule === 'ask') delete server.rule;
      else server.rule = rule;
      server.updatedAt = this.#clock.now().toISOString();
      return server;
    }).then((server) => this.#changed(server));
  }

  /** A tool's own rule (the approval's "always allow" is `allow`), or none with null. */
  setToolRule(id: string, tool: string, rule: ToolRule | null): Promise<McpServerSummary> {
    return this.#mutate(async (file) => {
      const server = this.#find(file, id);
      const rules = { ...server.toolRules };
      if (rule === null) delete rules[tool];
      else rules[tool] = rule;
      server.toolRules = rules;
      server.updatedAt = this.#clock.now().toISOString();
      return server;
    }).then((server) => this.#changed(server));
  }

  /** The person's standing rules of every server, for the tool loop's decisions. */
  async permissions(): Promise<ToolPermissions> {
    const file = await this.#read();
    const servers: Record<string, ToolRule> = {};
    const tools: Record<string, Record<string, ToolRule>> = {};
    for (const server of file.servers) {
      if (server.rule !== undefined) servers[server.id] = server.rule;
      if (Object.keys(server.toolRules).length > 0) tools[server.id] = { ...server.toolRules };
    }
    return { servers, tools };
  }

  /** Asks for an `mcpServers` file through main's dialog and adds its servers. */
  async importFromFile(): Promise<McpImportResult> {
    const [path] =
      (await this.#options.dialogs?.chooseOpenPaths({
        title: nativeText('dialog.importMcpServers'),
        filters: [{ name: nativeText('dialog.mcpServersFilter'), extensions: ['json'] }],
        multiple: false,
      })) ?? [];
    if (path === undefined) return { chosen: false, added: [], secrets: 0, refused: [] };
    const name = basename(path);
    const read = await (this.#options.readFile ?? readRegularFile)(path, MAX_IMPORT_BYTES);
    if (!read.ok) {
      const reason: Said =
        read.problem === 'too_large' || read.problem === 'changed'
          ? said('import.tools.tooLarge', { name, max: MAX_IMPORT_BYTES / 1024 / 1024 })
          : read.problem === 'not_regular'
            ? said('import.tools.notRegular', { name })
            : read.problem === 'missing'
              ? said('import.tools.missing', { name })
              : said('import.tools.unreadable', { name, why: read.code });
      throw new AppError('invalid_request', reason);
    }
    const parsed = readServersFile(new TextDecoder().decode(read.bytes));
    if (!parsed.ok)
      throw new AppError(
        'invalid_request',
        said('import.tools.fileRefused', { name, reason: parsed.reason }),
      );
    const refused: McpImportResult['refused'] = parsed.refused.map(({ entry, reason }) => ({
      entry,
      ...messageFieldsAs('reason', reason),
    }));
    const added: string[] = [];
    let secrets = 0;
    await this.#mutate(async (file) => {
      for (const entry of parsed.entries) {
        try {
          const checked = checkDraft(entry.draft, { takenNames: file.servers.map((s) => s.name) });
          await this.#insert(file, checked);
          added.push(checked.name);
          secrets += [...checked.env, ...checked.headers].filter((p) => p.secret).length;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          refused.push({
            entry: entry.name,
            reason: error.message,
            ...(error.messageId ? { messageId: error.messageId } : {}),
            ...(error.values ? { values: error.values } : {}),
          });
        }
      }
    });
    if (added.length > 0) this.#options.onServersChanged?.();
    return { chosen: true, added, secrets, refused };
  }

  // ---- sessions -------------------------------------------------------------------------

  /** Starts the server afresh and lists its tools; says why when it would not start. */
  async test(id: string): Promise<McpTestResult> {
    const wasRunning = this.#runtime(id).state === 'running';
    await this.#stop(id);
    const runtime = this.#runtime(id);
    runtime.crashes = 0;
    const started = performance.now();
    try {
      const connection = await this.#ensureRunning(id);
      const server = await this.#server(id);
      const result: McpTestResult = {
        ok: true,
        tools: server.tools?.length ?? 0,
        serverInfo: connection.serverInfo,
        durationMs: Math.round(performance.now() - started),
        problem: null,
        errorOutput: runtime.stderr.last(20),
      };
      if (!wasRunning) await this.#stop(id);
      return result;
    } catch (error) {
      if (!(error instanceof McpFailure)) throw error;
      return {
        ok: false,
        tools: 0,
        serverInfo: null,
        durationMs: Math.round(performance.now() - started),
        problem: problemOf(error),
        errorOutput: runtime.stderr.last(20),
      };
    }
  }

  /** Stops a running server (its whole process tree); it starts again when next needed. */
  async stop(id: string): Promise<McpServerSummary> {
    await this.#server(id);
    await this.#stop(id);
    return this.get(id);
  }

  /**
   * The enabled tools of the given servers (all when none are given), named for one request. The
   * tools come from each server's last listing; a server never listed is started to list them,
   * and one that cannot start is left out (its state says why).
   */
  async offeredTools(serverIds?: readonly string[]): Promise<OfferedTool[]> {
    const file = await this.#read();
    const servers = file.servers.filter((s) => serverIds === undefined || serverIds.includes(s.id));
    const lists = await Promise.all(
      servers.map(async (server) => {
        if (server.tools === undefined) {
          try {
            await this.#ensureRunning(server.id);
          } catch (error) {
            if (!(error instanceof McpFailure)) throw error;
          }
        }
        const current = (await this.#read()).servers.find((s) => s.id === server.id) ?? server;
        return (current.tools ?? [])
          .filter((tool) => !current.disabledTools.includes(tool.name))
          .map((tool) => ({ server: current, tool }));
      }),
    );
    const flat = lists.flat();
    const names = functionNames(
      flat.map(({ server, tool }) => ({
        serverId: server.id,
        serverName: server.name,
        tool: tool.name,
      })),
    );
    return flat.map(({ server, tool }, index) => {
      const functionName = names[index]!;
      const description = tool.description || tool.title || tool.name;
      return {
        serverId: server.id,
        serverName: server.name,
        tool: tool.name,
        functionName,
        definition: {
          type: 'function',
          function: { name: functionName, description, parameters: tool.inputSchema },
        },
        tokens: toolTokens(tool),
        readOnly: tool.readOnly,
        destructive: tool.destructive,
      };
    });
  }

  /**
   * Runs one tool, starting its server if needed. A result the tool marks as an error comes back
   * as a result (`isError`); a call that could not be made or answered is an `AppError` whose
   * message says why (the server stopped, it did not answer in time, it refused the call).
   */
  async callTool(
    serverId: string,
    tool: string,
    input: Record<string, unknown>,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    const server = await this.#server(serverId);
    if (server.disabledTools.includes(tool))
      throw new AppError(
        'invalid_request',
        said('tools.toolDisabled', { name: server.name, tool }),
      );
    let connection: McpConnection;
    try {
      connection = await this.#ensureRunning(serverId);
    } catch (error) {
      throw asAppError(error);
    }
    const current = await this.#server(serverId);
    if (current.tools !== undefined && !current.tools.some((t) => t.name === tool))
      throw new AppError('not_found', said('tools.toolNotFound', { name: server.name, tool }));
    try {
      return await connection.callTool(tool, input, {
        timeoutMs: options.timeoutMs ?? this.#timeouts.callMs,
        maxTotalMs: this.#timeouts.callTotalMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(options.maxResultChars === undefined ? {} : { maxResultChars: options.maxResultChars }),
      });
    } catch (error) {
      throw asAppError(error);
    }
  }

  // ---- prompts and resources ---------------------------------------------------------------

  /** The server's prompts, starting it if needed; a start or listing that failed says why. */
  async prompts(id: string): Promise<McpPromptList> {
    const server = await this.#server(id);
    try {
      const prompts = await this.#listed(id, 'prompts');
      return { id, name: server.name, prompts, problem: null };
    } catch (error) {
      if (!(error instanceof McpFailure)) throw error;
      return { id, name: server.name, prompts: [], problem: problemOf(error) };
    }
  }

  /** The server's resources (not its templates), as `prompts` does. */
  async resources(id: string): Promise<McpResourceList> {
    const server = await this.#server(id);
    try {
      const resources = await this.#listed(id, 'resources');
      return { id, name: server.name, resources, problem: null };
    } catch (error) {
      if (!(error instanceof McpFailure)) throw error;
      return { id, name: server.name, resources: [], problem: problemOf(error) };
    }
  }

  /**
   * A prompt's messages. Only a prompt the server listed, with every required argument given (not
   * blank) and no argument it does not take; optional ones left blank are not sent.
   */
  async getPrompt(
    id: string,
    prompt: string,
    values: Readonly<Record<string, string>>,
  ): Promise<McpPromptMessages> {
    const server = await this.#server(id);
    try {
      let listed = await this.#listed(id, 'prompts');
      let found = listed.find((p) => p.name === prompt);
      if (found === undefined) {
        // Listed before it changed, perhaps: asked once more.
        listed = await this.#listed(id, 'prompts', true);
        found = listed.find((p) => p.name === prompt);
      }
      if (found === undefined)
        throw new AppError(
          'not_found',
          said('tools.prompt.notListed', { name: server.name, prompt }),
        );
      const names = new Set(found.arguments.map((a) => a.name));
      const unknown = Object.keys(values).find((key) => !names.has(key));
      if (unknown !== undefined)
        throw new AppError(
          'invalid_request',
          said('tools.prompt.unknownArgument', { name: server.name, prompt, argument: unknown }),
        );
      const missing = found.arguments
        .filter((a) => a.required && (values[a.name] ?? '').trim() === '')
        .map((a) => a.name);
      if (missing.length > 0)
        throw new AppError(
          'invalid_request',
          said('tools.prompt.missingArguments', {
            name: server.name,
            prompt,
            count: missing.length,
            arguments: missing.join(', '),
          }),
        );
      const given = Object.fromEntries(
        Object.entries(values).filter(([, value]) => value.trim() !== ''),
      );
      const connection = await this.#ensureRunning(id);
      const result = await connection.getPrompt(prompt, given, this.#timeouts.requestMs);
      return {
        description: result.description ?? null,
        messages: result.messages.map((message) => ({
          role: message.role,
          content: promptPart(message.content),
        })),
      };
    } catch (error) {
      throw asAppError(error);
    }
  }

  /**
   * Reads a resource the server listed (a URI it did not list is refused, whatever it names):
   * the listing's entry and the contents it gave.
   */
  async readResource(
    id: string,
    uri: string,
  ): Promise<{ resource: ListedResource; contents: ResourceContents[] }> {
    const server = await this.#server(id);
    try {
      let resource = (await this.#listed(id, 'resources')).find((r) => r.uri === uri);
      resource ??= (await this.#listed(id, 'resources', true)).find((r) => r.uri === uri);
      if (resource === undefined)
        throw new AppError(
          'invalid_request',
          said('tools.resource.notListed', { name: server.name }),
        );
      const connection = await this.#ensureRunning(id);
      const read = await connection.readResource(uri, this.#timeouts.requestMs);
      return { resource, contents: read.contents };
    } catch (error) {
      throw asAppError(error);
    }
  }

  /** A list of the running session, read when first asked for (or `again`) and kept. */
  async #listed<L extends 'prompts' | 'resources'>(
    id: string,
    list: L,
    again = false,
  ): Promise<L extends 'prompts' ? ListedPrompt[] : ListedResource[]> {
    const connection = await this.#ensureRunning(id);
    const runtime = this.#runtime(id);
    if (runtime.lists?.connection !== connection) runtime.lists = { connection };
    const lists = runtime.lists;
    if (again || lists[list] === undefined) {
      const reading =
        list === 'prompts'
          ? connection.listPrompts(this.#timeouts.requestMs)
          : connection.listResources(this.#timeouts.requestMs);
      (lists as unknown as Record<string, Promise<unknown>>)[list] = reading;
      // A listing that failed is not kept: the next ask reads again.
      reading.catch(() => {
        if (lists[list] === reading) delete lists[list];
      });
    }
    return (await lists[list]) as L extends 'prompts' ? ListedPrompt[] : ListedResource[];
  }

  /** The process id of a running local server (for tests). */
  pidOf(id: string): number | undefined {
    return this.#runtimes.get(id)?.connection?.pid;
  }

  /** Stops every server and every process they started; nothing starts after. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const runtime of this.#runtimes.values()) {
      runtime.outputTimer?.();
      runtime.outputTimer = undefined;
    }
    await Promise.all([...this.#runtimes.keys()].map((id) => this.#stop(id)));
    await this.#queue.catch(() => undefined);
    process.off('exit', this.#killAtExit);
  }

  #runtime(id: string): Runtime {
    let runtime = this.#runtimes.get(id);
    if (runtime === undefined) {
      runtime = {
        state: 'stopped',
        connection: undefined,
        starting: undefined,
        problem: undefined,
        stderr: new LineRing(),
        crashes: 0,
        startedAt: 0,
        cancelRestart: undefined,
        restartAt: undefined,
        outputTimer: undefined,
        lists: undefined,
      };
      this.#runtimes.set(id, runtime);
    }
    return runtime;
  }

  #ensureRunning(id: string): Promise<McpConnection> {
    if (this.#closed) return Promise.reject(new McpFailure('other', said('tools.closing')));
    const runtime = this.#runtime(id);
    if (runtime.state === 'running' && runtime.connection)
      return Promise.resolve(runtime.connection);
    if (runtime.starting) return runtime.starting;
    runtime.cancelRestart?.();
    runtime.cancelRestart = undefined;
    runtime.restartAt = undefined;
    // Said at once: a summary sent before the start begins must not show a wait that is over.
    runtime.state = 'starting';
    const starting = this.#start(id, runtime);
    runtime.starting = starting;
    starting.then(
      () => (runtime.starting = undefined),
      () => (runtime.starting = undefined),
    );
    return starting;
  }

  async #start(id: string, runtime: Runtime): Promise<McpConnection> {
    const server = await this.#server(id);
    runtime.state = 'starting';
    void this.#changed(server);
    let connection: McpConnection | undefined;
    try {
      const target = await this.#target(server);
      if (target.transport === 'stdio') await this.#allowLaunch(server, target);
      // The SDK loads with the first server that starts, not with the app.
      const { McpConnection } = await import('./mcp-connection');
      connection = new McpConnection({
        name: server.name,
        target,
        host: this.#options.host,
        fetch: this.#options.fetch,
        stderr: runtime.stderr,
        appVersion: this.#options.appVersion ?? '0.0.0',
        onToolsChanged: (tools) => void this.#toolsListed(id, tools, undefined),
        onListChanged: (list) => {
          const lists = runtime.lists;
          if (lists !== undefined && lists.connection === connection) delete lists[list];
          if (!this.#closed) this.#options.onListChanged?.(id, list);
        },
        onLost: (exit) => this.#lost(id, connection!, exit),
        onSpawn: (pid) => this.#pids.add(pid),
        onExit: (pid) => this.#pids.delete(pid),
      });
      const tools = await connection.start(this.#timeouts.startMs);
      if (this.#closed || !this.#runtimes.has(id)) {
        await connection.close();
        throw new McpFailure('other', said('tools.closing'));
      }
      runtime.connection = connection;
      runtime.state = 'running';
      runtime.problem = undefined;
      runtime.startedAt = this.#clock.now().getTime();
      await this.#toolsListed(id, tools, connection.serverInfo);
      return connection;
    } catch (error) {
      const failure =
        error instanceof McpFailure
          ? error
          : new McpFailure(
              'other',
              said('tools.start.handshake', {
                name: server.name,
                detail: String((error as Error)?.message ?? error),
              }),
            );
      // Not allowed to run is the person's answer, not a fault: the server is stopped.
      runtime.state = failure.diagnosis === 'not_allowed' ? 'stopped' : 'failed';
      runtime.problem = failure;
      runtime.connection = undefined;
      runtime.stderr.note(`[app] ${failure.message}`);
      void this.#changed(await this.#server(id).catch(() => server));
      throw failure;
    }
  }

  /** What to start: the command found on the search path with its environment, or the URL. */
  async #target(server: StoredServer): Promise<ConnectionTarget> {
    const secrets = await this.#secrets(server.id);
    const valueOf = (pair: StoredServer['env'][number], from: Record<string, string>): string => {
      if (!pair.secret) return pair.value ?? '';
      const value = from[pair.name];
      if (value === undefined)
        throw new McpFailure(
          'config',
          said('tools.start.secretMissing', { name: server.name, key: pair.name }),
        );
      return value;
    };
    if (server.transport === 'http') {
      const headers: Record<string, string> = {};
      for (const pair of server.headers) headers[pair.name] = valueOf(pair, secrets.headers);
      return { transport: 'http', url: server.url ?? '', headers };
    }
    const command = server.command ?? '';
    const found = await this.#search.find(command);
    if (!found.ok) {
      const shown = found.looked.slice(0, 12).join(', ') + (found.looked.length > 12 ? ', …' : '');
      throw new McpFailure(
        'not_found',
        said('tools.start.notFound', {
          name: server.name,
          command,
          looked: shown,
          fix: said(`tools.fix.${installHintFor(command)}`, { command }),
        }),
      );
    }
    const env = inheritedEnvironment(this.#options.host);
    env.PATH = await this.#search.pathValue();
    for (const pair of server.env) env[pair.name] = valueOf(pair, secrets.env);
    return {
      transport: 'stdio',
      command: found.path,
      args: server.args,
      env,
      cwd: this.#options.host.homedir,
    };
  }

  /**
   * Goes ahead only with a command line the person allowed: the one they last chose Run for, or,
   * asked now in main's dialog (its name, the command line, the names of the variables it sets),
   * Run; their yes is kept for this command line. Cancel, or no one to ask, refuses the start.
   */
  async #allowLaunch(
    server: StoredServer,
    target: Extract<ConnectionTarget, { transport: 'stdio' }>,
  ): Promise<void> {
    const secrets = await this.#secrets(server.id);
    const env = server.env.map((pair): [string, string] => [
      pair.name,
      pair.secret ? (secrets.env[pair.name] ?? '') : (pair.value ?? ''),
    ]);
    const fingerprint = launchFingerprint(await this.#launchKeyValue(), {
      command: target.command,
      args: target.args,
      env,
    });
    if (server.launchAllowed === fingerprint) return;
    const question = launchQuestion({
      name: server.name,
      command: target.command,
      args: target.args,
      envNames: server.env.map((pair) => pair.name),
    });
    const allowed = await confirmed(this.#options.dialogs, question);
    if (!allowed)
      throw new McpFailure('not_allowed', said('tools.start.notAllowed', { name: server.name }));
    await this.#mutate(async (file) => {
      const found = file.servers.find((s) => s.id === server.id);
      if (found) found.launchAllowed = fingerprint;
    });
  }

  /**
   * The key of this install for the fingerprints of allowed command lines, made at first use and
   * kept in the key store; where it cannot be kept, one for this session (asked again next time).
   */
  #launchKeyValue(): Promise<Buffer> {
    this.#launchKey ??= (async () => {
      const store = this.#options.secrets;
      const saved = await store.get(LAUNCH_KEY_ACCOUNT).catch(() => undefined);
      if (saved !== undefined && saved.length >= 32) return Buffer.from(saved, 'base64');
      const made = randomBytes(32);
      await store.set(LAUNCH_KEY_ACCOUNT, made.toString('base64')).catch(() => undefined);
      return made;
    })();
    return this.#launchKey;
  }

  /** A running server stopped by itself: start it again after a wait, or give up. */
  #lost(id: string, connection: McpConnection, exit: ProcessExit | undefined): void {
    const runtime = this.#runtimes.get(id);
    if (runtime === undefined || runtime.connection !== connection) return;
    runtime.connection = undefined;
    const now = this.#clock.now().getTime();
    if (now - runtime.startedAt >= STABLE_AFTER_MS) runtime.crashes = 0;
    runtime.crashes++;
    void this.#server(id).then((server) => {
      const how = exitWords(exit ?? { code: null, signal: null });
      runtime.stderr.note(`[app] ${said('tools.lost', { name: server.name, how }).english}`);
      if (this.#closed) return;
      if (runtime.crashes >= MAX_CRASHES) {
        runtime.state = 'failed';
        runtime.problem = new McpFailure(
          'crashed',
          said('tools.crashedTooOften', { name: server.name, count: runtime.crashes, how }),
        );
        void this.#changed(server);
        return;
      }
      const delay = Math.min(RESTART_MAX_DELAY_MS, 1000 * 2 ** (runtime.crashes - 1));
      runtime.state = 'restarting';
      runtime.problem = new McpFailure('crashed', said('tools.lost', { name: server.name, how }));
      runtime.restartAt = now + delay;
      runtime.cancelRestart = this.#clock.setTimer(delay, () => {
        runtime.cancelRestart = undefined;
        runtime.restartAt = undefined;
        this.#ensureRunning(id).catch(() => {
          // A start that fails after a stop counts as another stop.
          if (runtime.state === 'failed' && runtime.problem?.diagnosis !== 'not_found') {
            runtime.crashes++;
            if (runtime.crashes < MAX_CRASHES && runtime.connection === undefined && !this.#closed)
              this.#lostAgain(id, runtime);
          }
        });
      });
      void this.#changed(server);
    });
  }

  /** A restart that failed: wait longer and try again, within the same count of stops. */
  #lostAgain(id: string, runtime: Runtime): void {
    const delay = Math.min(RESTART_MAX_DELAY_MS, 1000 * 2 ** (runtime.crashes - 1));
    runtime.state = 'restarting';
    runtime.restartAt = this.#clock.now().getTime() + delay;
    runtime.cancelRestart = this.#clock.setTimer(delay, () => {
      runtime.cancelRestart = undefined;
      runtime.restartAt = undefined;
      this.#ensureRunning(id).catch(() => {
        runtime.crashes++;
        if (runtime.crashes < MAX_CRASHES && !this.#closed) this.#lostAgain(id, runtime);
      });
    });
    void this.#server(id).then((server) => this.#changed(server));
  }

  async #stop(id: string): Promise<void> {
    const runtime = this.#runtimes.get(id);
    if (runtime === undefined) return;
    runtime.cancelRestart?.();
    runtime.cancelRestart = undefined;
    runtime.restartAt = undefined;
    const starting = runtime.starting;
    if (starting) await starting.catch(() => undefined);
    const connection = runtime.connection;
    runtime.connection = undefined;
    if (runtime.state !== 'failed') runtime.state = 'stopped';
    if (connection) await connection.close();
    const server = (await this.#read()).servers.find((s) => s.id === id);
    if (server && !this.#closed) void this.#changed(server);
  }

  /** A fresh tool list: kept in the file (only when it changed) and told to the page. */
  async #toolsListed(
    id: string,
    tools: StoredTool[],
    serverInfo: { name: string; version: string } | null | undefined,
  ): Promise<void> {
    const server = await this.#mutate(
      async (file) => {
        const found = file.servers.find((s) => s.id === id);
        if (found === undefined) return undefined;
        const same = JSON.stringify(found.tools) === JSON.stringify(tools);
        const sameInfo =
          serverInfo === undefined ||
          JSON.stringify(found.serverInfo) === JSON.stringify(serverInfo ?? undefined);
        if (same && sameInfo) return { server: found, write: false };
        found.tools = tools;
        if (serverInfo) found.serverInfo = serverInfo;
        return { server: found, write: true };
      },
      (result) => result?.write === true,
    );
    if (server?.server) await this.#changed(server.server);
  }

  // ---- summaries ------------------------------------------------------------------------

  async #changed(server: StoredServer): Promise<McpServerSummary> {
    const summary = await this.#summary(server);
    if (!this.#closed) this.#options.onServerChanged?.(summary);
    return summary;
  }

  async #summary(server: StoredServer): Promise<McpServerSummary> {
    const runtime = this.#runtime(server.id);
    this.#watchOutput(server.id, runtime);
    const secrets = await this.#secrets(server.id);
    const pairs = (list: StoredServer['env'], saved: Record<string, string>) =>
      list.map((pair) =>
        pair.secret
          ? { name: pair.name, secret: true, hasValue: saved[pair.name] !== undefined }
          : { name: pair.name, secret: false, value: pair.value ?? '', hasValue: true },
      );
    const tools: McpTool[] = (server.tools ?? []).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      enabled: !server.disabledTools.includes(tool.name),
      tokens: toolTokens(tool),
      readOnly: tool.readOnly,
      destructive: tool.destructive,
    }));
    const now = this.#clock.now().getTime();
    return {
      id: server.id,
      name: server.name,
      transport: server.transport,
      command: server.command ?? null,
      args: server.args,
      env: pairs(server.env, secrets.env),
      url: server.url ?? null,
      headers: pairs(server.headers, secrets.headers),
      state: runtime.state,
      problem: runtime.problem ? problemOf(runtime.problem) : null,
      restartInMs: runtime.restartAt === undefined ? null : Math.max(0, runtime.restartAt - now),
      errorOutput: runtime.stderr.last(50),
      tools,
      toolsListed: server.tools !== undefined,
      toolTokens: tools.filter((t) => t.enabled).reduce((sum, t) => sum + t.tokens, 0),
      serverInfo: server.serverInfo ?? null,
      rule: server.rule ?? 'ask',
      toolRules: Object.entries(server.toolRules)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([tool, rule]) => ({ tool, rule })),
    };
  }

  /** Sends the server's summary when its error output grows, at most twice a second. */
  #watchOutput(id: string, runtime: Runtime): void {
    if (runtime.stderr.onChange !== undefined) return;
    runtime.stderr.onChange = () => {
      if (runtime.outputTimer !== undefined || this.#closed) return;
      runtime.outputTimer = this.#clock.setTimer(500, () => {
        runtime.outputTimer = undefined;
        const server = this.#file && this.#runtimes.has(id) ? id : undefined;
        if (server === undefined) return;
        void this.#read().then((file) => {
          const found = file.servers.find((s) => s.id === id);
          if (found) void this.#changed(found);
        });
      });
    };
  }

  // ---- storage --------------------------------------------------------------------------

  async #insert(file: ServersFile, checked: CheckedDraft): Promise<StoredServer> {
    const id = randomUUID();
    const now = this.#clock.now().toISOString();
    const blank: StoredServer = {
      id,
      name: checked.name,
      transport: checked.transport,
      args: [],
      env: [],
      headers: [],
      disabledTools: [],
      toolRules: {},
      createdAt: now,
      updatedAt: now,
    };
    const { server, secrets } = this.#apply(blank, checked, { env: {}, headers: {} });
    await this.#saveSecrets(id, secrets);
    file.servers.push(server);
    return server;
  }

  /** A server with a checked draft's settings, and the secret values it now has. */
  #apply(
    current: StoredServer,
    checked: CheckedDraft,
    saved: ServerSecrets,
  ): { server: StoredServer; secrets: ServerSecrets } {
    const secrets: ServerSecrets = { env: {}, headers: {} };
    let newSecretValue = false;
    const store = (pairs: CheckedDraft['env'], kind: 'env' | 'headers') =>
      pairs.map((pair) => {
        if (!pair.secret) return { name: pair.name, secret: false, value: pair.value ?? '' };
        const value = pair.value ?? saved[kind][pair.name];
        if (value !== undefined) secrets[kind][pair.name] = value;
        if (kind === 'env' && value !== saved.env[pair.name]) newSecretValue = true;
        return { name: pair.name, secret: true };
      });
    const server: StoredServer = {
      id: current.id,
      name: checked.name,
      transport: checked.transport,
      args: checked.args,
      env: store(checked.env, 'env'),
      headers: store(checked.headers, 'headers'),
      disabledTools: current.disabledTools,
      toolRules: current.toolRules,
      ...(current.rule !== undefined ? { rule: current.rule } : {}),
      createdAt: current.createdAt,
      updatedAt: this.#clock.now().toISOString(),
      ...(checked.command !== undefined ? { command: checked.command } : {}),
      ...(checked.url !== undefined ? { url: checked.url } : {}),
    };
    // The same server (same command or address): its tool list and info still hold.
    const same =
      current.transport === server.transport &&
      current.command === server.command &&
      JSON.stringify(current.args) === JSON.stringify(server.args) &&
      current.url === server.url;
    if (same && current.tools) server.tools = current.tools;
    if (same && current.serverInfo) server.serverInfo = current.serverInfo;
    // A changed command line runs only once the person allows it again (a new secret value
    // changes the fingerprint, so it asks again too).
    const sameLaunch =
      same && JSON.stringify(current.env) === JSON.stringify(server.env) && !newSecretValue;
    if (sameLaunch && current.launchAllowed) server.launchAllowed = current.launchAllowed;
    return { server, secrets };
  }

  async #secrets(id: string): Promise<ServerSecrets> {
    const cached = this.#secretCache.get(id);
    if (cached) return cached;
    const secrets = parseSecrets(
      await this.#options.secrets.get(secretsAccount(id)).catch(() => undefined),
    );
    this.#secretCache.set(id, secrets);
    return secrets;
  }

  async #saveSecrets(id: string, secrets: ServerSecrets): Promise<void> {
    const empty =
      Object.keys(secrets.env).length === 0 && Object.keys(secrets.headers).length === 0;
    if (empty) await this.#options.secrets.delete(secretsAccount(id)).catch(() => false);
    else await this.#options.secrets.set(secretsAccount(id), JSON.stringify(secrets));
    this.#secretCache.set(id, secrets);
  }

  #read(): Promise<ServersFile> {
    this.#file ??= readJsonFile(this.#path, serversFileSchema, 'MCP servers').then((read) =>
      read.status === 'ok' ? read.value : structuredClone(EMPTY),
    );
    return this.#file;
  }

  async #server(id: string): Promise<StoredServer> {
    return this.#find(await this.#read(), id);
  }

  #find(file: ServersFile, id: string): StoredServer {
    const found = file.servers.find((s) => s.id === id);
    if (found === undefined) throw new AppError('not_found', said('tools.serverGone'));
    return found;
  }

  /** Changes the file one change at a time, and writes it (unless `write` says there is no need). */
  #mutate<T>(
    change: (file: ServersFile) => Promise<T>,
    write: (result: T) => boolean = () => true,
  ): Promise<T> {
    const next = this.#queue.then(async () => {
      const file = await this.#read();
      const copy = structuredClone(file);
      const result = await change(copy);
      if (write(result)) await writeFileAtomic(this.#path, `${JSON.stringify(copy, null, 2)}\n`);
      this.#file = Promise.resolve(copy);
      return result;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** What a resource read gives: each entry's text, or its bytes as base64. */
export type ResourceContents =
  | { uri: string; mimeType?: string | undefined; text: string }
  | { uri: string; mimeType?: string | undefined; blob: string };

/** A part of a prompt's message as the page gets it: text, or what it is when not text. */
function promptPart(content: { type: string } & Record<string, unknown>): McpPromptPart {
  const clipText = (text: string) =>
    text.length > MAX_PROMPT_TEXT_CHARS ? `${text.slice(0, MAX_PROMPT_TEXT_CHARS)}…` : text;
  const mimeType = (value: unknown) => (typeof value === 'string' ? value : '');
  switch (content.type) {
    case 'text':
      return { type: 'text', text: clipText(String(content.text ?? '')) };
    case 'image':
      return { type: 'image', mimeType: mimeType(content.mimeType) };
    case 'audio':
      return { type: 'audio', mimeType: mimeType(content.mimeType) };
    case 'resource': {
      const resource = (content.resource ?? {}) as Record<string, unknown>;
      return {
        type: 'resource',
        uri: String(resource.uri ?? ''),
        mimeType: typeof resource.mimeType === 'string' ? resource.mimeType : null,
        text: typeof resource.text === 'string' ? clipText(resource.text) : null,
      };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: String(content.uri ?? ''),
        name: String(content.name ?? ''),
      };
    default:
      return { type: 'image', mimeType: content.type };
  }
}

function problemOf(failure: McpFailure): McpServerSummary['problem'] & object {
  return { diagnosis: failure.diagnosis, ...messageFields(failure.said) };
}

/**
 * A tool call (or the start it needed) that did not go through: an `AppError` with the reason in
 * the person's words, and its diagnosis for the chat's loop (a timeout, a server that stopped).
 */
export class McpToolError extends AppError {
  readonly diagnosis: McpDiagnosis;

  constructor(failure: McpFailure) {
    super(
      failure.diagnosis === 'timed_out'
        ? 'timeout'
        : failure.said.id === 'tools.call.cancelled'
          ? 'aborted'
          : 'server_error',
      failure.said,
    );
    this.diagnosis = failure.diagnosis;
  }
}

/** A failure as the error a route or the chat's loop reports. */
function asAppError(error: unknown): unknown {
  return error instanceof McpFailure ? new McpToolError(error) : error;
}
