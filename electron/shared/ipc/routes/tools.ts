/**
 * The tools part of the IPC contract (see ../contract.ts): MCP servers and their tools.
 *
 * A server is local (a command the app starts, talking over stdio) or remote (a URL, Streamable
 * HTTP). Its secret environment values and headers are kept in the key store like the API key:
 * the page sends one when the person types it and never gets it back, only whether one is set.
 * The page names no file: importing an `mcpServers` file goes through main's own dialog.
 *
 * A server's prompts (for the composer's `/` list) and resources (to attach to a message) are
 * read through its id: the page sends a prompt's name and its arguments, or a resource's URI as
 * the server listed it (main refuses one it did not list), never a path.
 */
import { z } from 'zod';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id } from '../schemas';

export const MCP_LIMITS = {
  servers: 100,
  name: 80,
  command: 4096,
  args: 200,
  arg: 8192,
  pairs: 64,
  pairName: 200,
  pairValue: 16_384,
  url: 4096,
} as const;

export const MCP_TRANSPORTS = ['stdio', 'http'] as const;
export type McpTransport = (typeof MCP_TRANSPORTS)[number];

/**
 * Where a server stands: not started (the app starts it when its tools are first needed),
 * starting, running, waiting to start again after it stopped by itself, or failed (it would not
 * start, or stopped too often): `problem` says why.
 */
export const MCP_SERVER_STATES = [
  'stopped',
  'starting',
  'running',
  'restarting',
  'failed',
] as const;
export type McpServerState = (typeof MCP_SERVER_STATES)[number];

/** Why a server would not start or stopped, as a person can act on it. */
export const MCP_DIAGNOSES = [
  /** The command is not on the search path (nor at the path given). */
  'not_found',
  /** The command is there but cannot be run. */
  'not_executable',
  /** The process ended before it answered (its code or signal, its last error lines). */
  'exited',
  /** It did not answer the handshake, or a call, in time. */
  'timed_out',
  /** It answered, but not as an MCP server (text on stdout, a protocol it does not share). */
  'bad_handshake',
  /** The address could not be reached. */
  'unreachable',
  /** The address answered with an HTTP error (a refused header, no MCP server there). */
  'refused',
  /** It stopped by itself while running, too often to start it again. */
  'crashed',
  /** Its settings cannot be used (a secret value missing from the key store). */
  'config',
  /** The person did not allow its command line to run (main's dialog, Cancel). */
  'not_allowed',
  'other',
] as const;
export type McpDiagnosis = (typeof MCP_DIAGNOSES)[number];

export const mcpProblemSchema = z.object({
  diagnosis: z.enum(MCP_DIAGNOSES),
  /** In English; `messageId` and `values` give it in the person's language. */
  message: z.string(),
  ...messageRefFields,
});
export type McpProblem = z.infer<typeof mcpProblemSchema>;

/**
 * An environment variable (local) or a header (remote) as the page sees it: a secret one's value
 * never comes back once saved, only whether it is set.
 */
export const mcpPairSchema = z.object({
  name: z.string(),
  secret: z.boolean(),
  value: z.string().optional(),
  hasValue: z.boolean(),
});
export type McpPair = z.infer<typeof mcpPairSchema>;

/** A pair as the form sends it: a secret without a value keeps the value saved under its name. */
export const mcpPairDraftSchema = z.strictObject({
  name: text(MCP_LIMITS.pairName),
  value: text(MCP_LIMITS.pairValue).optional(),
  secret: z.boolean().optional(),
});
export type McpPairDraft = z.infer<typeof mcpPairDraftSchema>;

/** A server as the form sends it; main checks it and says what to fix. */
export const mcpServerDraftSchema = z.strictObject({
  name: text(MCP_LIMITS.name * 2),
  transport: z.enum(MCP_TRANSPORTS),
  command: text(MCP_LIMITS.command).optional(),
  args: z.array(text(MCP_LIMITS.arg)).max(MCP_LIMITS.args).optional(),
  env: z.array(mcpPairDraftSchema).max(MCP_LIMITS.pairs).optional(),
  url: text(MCP_LIMITS.url).optional(),
  headers: z.array(mcpPairDraftSchema).max(MCP_LIMITS.pairs).optional(),
});
export type McpServerDraft = z.infer<typeof mcpServerDraftSchema>;

/**
 * What a call to a tool does: ask the person first, run, or be refused (the model is told). A
 * server has a default (ask unless the person chose another) and a tool may have its own rule,
 * which wins; "always allow" on an approval is a tool's `allow` rule.
 */
export const TOOL_RULES = ['ask', 'allow', 'deny'] as const;
export type ToolRuleName = (typeof TOOL_RULES)[number];

export const mcpToolSchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string(),
  /** Offered to models (the person can turn each tool off). */
  enabled: z.boolean(),
  /** About how many tokens its description and schema add to every request that offers it. */
  tokens: z.number().int().nonnegative(),
  /** The server's hints (MCP tool annotations); null when it gave none. */
  readOnly: z.boolean().nullable(),
  destructive: z.boolean().nullable(),
});
export type McpTool = z.infer<typeof mcpToolSchema>;

export const mcpServerSummarySchema = z.object({
  id,
  name: z.string(),
  transport: z.enum(MCP_TRANSPORTS),
  /** Local: the command and its arguments, as given. */
  command: z.string().nullable(),
  args: z.array(z.string()),
  env: z.array(mcpPairSchema),
  /** Remote: its address and headers. */
  url: z.string().nullable(),
  headers: z.array(mcpPairSchema),
  state: z.enum(MCP_SERVER_STATES),
  /** Why it failed, or why it stopped last (kept while it starts again). */
  problem: mcpProblemSchema.nullable(),
  /** While restarting: in how many milliseconds it starts again. */
  restartInMs: z.number().int().nonnegative().nullable(),
  /** The last lines it wrote to its error output (and the app's notes about it). */
  errorOutput: z.array(z.string()),
  /** Its tools, as last listed (kept between starts); empty until it has been started once. */
  tools: z.array(mcpToolSchema),
  toolsListed: z.boolean(),
  /** About how many tokens the enabled tools add to every request that offers them. */
  toolTokens: z.number().int().nonnegative(),
  /** The server's name and version, as it gave them in the handshake. */
  serverInfo: z.object({ name: z.string(), version: z.string() }).nullable(),
  /** What a call to its tools does unless a tool has a rule of its own. */
  rule: z.enum(TOOL_RULES),
  /** The person's rules for single tools, by name (a tool no longer listed keeps its rule). */
  toolRules: z.array(z.object({ tool: z.string(), rule: z.enum(TOOL_RULES) })),
});
export type McpServerSummary = z.infer<typeof mcpServerSummarySchema>;

export const mcpTestResultSchema = z.object({
  ok: z.boolean(),
  /** How many tools it listed. */
  tools: z.number().int().nonnegative(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).nullable(),
  /** How long the start and the listing took. */
  durationMs: z.number().nonnegative(),
  problem: mcpProblemSchema.nullable(),
  /** Its last error lines, for the diagnosis. */
  errorOutput: z.array(z.string()),
});
export type McpTestResult = z.infer<typeof mcpTestResultSchema>;

export const mcpImportResultSchema = z.object({
  /** false when the person cancelled the file dialog. */
  chosen: z.boolean(),
  /** The names of the servers added. */
  added: z.array(z.string()),
  /** How many values went to the key store as secrets. */
  secrets: z.number().int().nonnegative(),
  /** Entries refused, each by its name and the reason. */
  refused: z.array(z.object({ entry: z.string(), reason: z.string(), ...messageRefFields })),
});
export type McpImportResult = z.infer<typeof mcpImportResultSchema>;

export const MCP_PROMPT_LIMITS = {
  /** Arguments a prompt may be given. */
  arguments: 64,
  argumentName: 200,
  argumentValue: 16_384,
  promptName: 500,
  uri: 8192,
} as const;

export const mcpPromptSchema = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string(),
  arguments: z.array(
    z.object({ name: z.string(), description: z.string(), required: z.boolean() }),
  ),
});
export type McpPrompt = z.infer<typeof mcpPromptSchema>;

/** One server's prompts, or why it could not give them (it would not start, it refused). */
export const mcpPromptListSchema = z.object({
  id,
  name: z.string(),
  prompts: z.array(mcpPromptSchema),
  problem: mcpProblemSchema.nullable(),
});
export type McpPromptList = z.infer<typeof mcpPromptListSchema>;

/**
 * A part of a prompt's message: text, or what the message box cannot hold (an image, a sound, a
 * resource given by its address), said by its kind; an embedded text resource's text comes too.
 */
export const mcpPromptPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string() }),
  z.object({ type: z.literal('audio'), mimeType: z.string() }),
  z.object({
    type: z.literal('resource'),
    uri: z.string(),
    mimeType: z.string().nullable(),
    /** An embedded resource's text; null for one given as bytes. */
    text: z.string().nullable(),
  }),
  z.object({ type: z.literal('resource_link'), uri: z.string(), name: z.string() }),
]);
export type McpPromptPart = z.infer<typeof mcpPromptPartSchema>;

export const mcpPromptMessagesSchema = z.object({
  description: z.string().nullable(),
  messages: z.array(
    z.object({ role: z.enum(['user', 'assistant']), content: mcpPromptPartSchema }),
  ),
});
export type McpPromptMessages = z.infer<typeof mcpPromptMessagesSchema>;

export const mcpResourceSchema = z.object({
  uri: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  description: z.string(),
  mimeType: z.string().nullable(),
  size: z.number().nonnegative().nullable(),
});
export type McpResource = z.infer<typeof mcpResourceSchema>;

/** One server's resources (its templates are not listed), or why it could not give them. */
export const mcpResourceListSchema = z.object({
  id,
  name: z.string(),
  resources: z.array(mcpResourceSchema),
  problem: mcpProblemSchema.nullable(),
});
export type McpResourceList = z.infer<typeof mcpResourceListSchema>;

const promptArgumentsSchema = z
  .record(text(MCP_PROMPT_LIMITS.argumentName), text(MCP_PROMPT_LIMITS.argumentValue))
  .refine((values) => Object.keys(values).length <= MCP_PROMPT_LIMITS.arguments, {
    message: `At most ${MCP_PROMPT_LIMITS.arguments} arguments`,
  });

export const TOOLS_ROUTES = {
  /** The servers, with their state and their tools as last listed. Starts nothing. */
  listMcpServers: route('tools:list-servers', z.null().optional(), z.array(mcpServerSummarySchema)),
  addMcpServer: route('tools:add-server', mcpServerDraftSchema, mcpServerSummarySchema),
  /** Saves a server's settings; a running server is stopped, to start again with them. */
  updateMcpServer: route(
    'tools:update-server',
    z.strictObject({ id, draft: mcpServerDraftSchema }),
    mcpServerSummarySchema,
  ),
  /** Stops the server, forgets it and its secret values. */
  removeMcpServer: route('tools:remove-server', z.strictObject({ id }), z.null()),
  setMcpToolEnabled: route(
    'tools:set-tool-enabled',
    z.strictObject({ id, tool: text(500), enabled: z.boolean() }),
    mcpServerSummarySchema,
  ),
  /** Starts the server afresh and lists its tools; a failure comes back with its diagnosis. */
  testMcpServer: route('tools:test-server', z.strictObject({ id }), mcpTestResultSchema),
  stopMcpServer: route('tools:stop-server', z.strictObject({ id }), mcpServerSummarySchema),
  /** The server's default for calls to its tools. */
  setMcpServerRule: route(
    'tools:set-server-rule',
    z.strictObject({ id, rule: z.enum(TOOL_RULES) }),
    mcpServerSummarySchema,
  ),
  /** A tool's own rule, or none (null): its server's default then applies. */
  setMcpToolRule: route(
    'tools:set-tool-rule',
    z.strictObject({ id, tool: text(500), rule: z.enum(TOOL_RULES).nullable() }),
    mcpServerSummarySchema,
  ),
  /** Asks for an `mcpServers` JSON file (main's dialog) and adds its servers; bad ones by name. */
  importMcpServers: route('tools:import-servers', z.null().optional(), mcpImportResultSchema),
  /**
   * A server's prompts, starting it if needed; one that would not start (or refused) comes back
   * with no prompts and its problem, so the `/` list can say it.
   */
  listMcpPrompts: route('tools:list-prompts', z.strictObject({ id }), mcpPromptListSchema),
  /** A listed prompt's messages, with its arguments (the required ones must be given). */
  getMcpPrompt: route(
    'tools:get-prompt',
    z.strictObject({
      id,
      prompt: text(MCP_PROMPT_LIMITS.promptName),
      arguments: promptArgumentsSchema,
    }),
    mcpPromptMessagesSchema,
  ),
  /** A server's resources, starting it if needed (a problem as for the prompts). */
  listMcpResources: route('tools:list-resources', z.strictObject({ id }), mcpResourceListSchema),
} satisfies Record<string, RouteSpec>;

export const TOOLS_EVENTS = {
  /** A server's state, tools or error output changed. */
  mcpServerChanged: event('tools:server-changed', mcpServerSummarySchema),
  /** Servers were added or removed. */
  mcpServersChanged: event('tools:servers-changed', z.null()),
  /** A running server said its prompts or its resources changed: the page reads them again. */
  mcpListChanged: event(
    'tools:list-changed',
    z.object({ id, list: z.enum(['prompts', 'resources']) }),
  ),
} satisfies Record<string, EventSpec>;
