/**
 * MCP servers as they are kept: `mcp-servers.json` in the user data folder (names, commands,
 * addresses, which tools are off, the tool list last seen), and each server's secret values in
 * the key store under `mcp:<id>`, never in the file.
 *
 * A draft from the form or an imported file is checked here, each mistake said in words the
 * person can act on (`AppError('invalid_request', …)`).
 */
import { z } from 'zod';
import {
  MCP_LIMITS,
  MCP_TRANSPORTS,
  type McpPairDraft,
  type McpServerDraft,
} from '../../../shared/ipc/routes/tools';
import { AppError } from '../app-error';
import { TOOL_RULES } from './approval';
import { isLocalNetworkHost } from '../relay/base-url';
import { said } from '../words';

export const SERVERS_FILE = 'mcp-servers.json';

const storedPairSchema = z.object({
  name: z.string(),
  secret: z.boolean(),
  /** Plain values only; a secret one is in the key store. */
  value: z.string().optional(),
});
export type StoredPair = z.infer<typeof storedPairSchema>;

export const storedToolSchema = z.object({
  name: z.string(),
  title: z.string().nullable().default(null),
  description: z.string().default(''),
  inputSchema: z.record(z.string(), z.unknown()),
  readOnly: z.boolean().nullable().default(null),
  destructive: z.boolean().nullable().default(null),
});
export type StoredTool = z.infer<typeof storedToolSchema>;

export const storedServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  transport: z.enum(MCP_TRANSPORTS),
  command: z.string().optional(),
  args: z.array(z.string()).default([]),
  env: z.array(storedPairSchema).default([]),
  url: z.string().optional(),
  headers: z.array(storedPairSchema).default([]),
  /** Tools the person turned off, by name. */
  disabledTools: z.array(z.string()).default([]),
  /** What a call to one of its tools does without a rule of its own (absent: ask). */
  rule: z.enum(TOOL_RULES).optional(),
  /** The person's rules for its tools, by the tool's own name (they outlive the tool list). */
  toolRules: z.record(z.string(), z.enum(TOOL_RULES)).default({}),
  /** The tools as last listed, so the screen and the token count need no start. */
  tools: z.array(storedToolSchema).optional(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  /**
   * The fingerprint of the command line the person allowed to run in main's dialog (local
   * servers); absent, or not the command line's, until they allow it.
   */
  launchAllowed: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StoredServer = z.infer<typeof storedServerSchema>;

export const serversFileSchema = z.object({
  version: z.literal(1),
  servers: z.array(storedServerSchema),
});
export type ServersFile = z.infer<typeof serversFileSchema>;

/** The key store entry of a server's secret values: `{ env: {…}, headers: {…} }` as JSON. */
export function secretsAccount(id: string): string {
  return `mcp:${id}`;
}

export interface ServerSecrets {
  env: Record<string, string>;
  headers: Record<string, string>;
}

export function parseSecrets(raw: string | undefined): ServerSecrets {
  if (raw === undefined) return { env: {}, headers: {} };
  try {
    const parsed = z
      .object({
        env: z.record(z.string(), z.string()).default({}),
        headers: z.record(z.string(), z.string()).default({}),
      })
      .safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : { env: {}, headers: {} };
  } catch {
    return { env: {}, headers: {} };
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the transport sets itself, which a server's settings may not replace. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'mcp-session-id',
  'mcp-protocol-version',
]);

/** Splits a command line written in one field (`npx -y @scope/server`) as a shell would. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\'))
        word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

/** A draft checked and tidied: what the service stores, secret values set apart. */
export interface CheckedDraft {
  name: string;
  transport: 'stdio' | 'http';
  command?: string;
  args: string[];
  env: CheckedPair[];
  url?: string;
  headers: CheckedPair[];
}

export interface CheckedPair {
  name: string;
  secret: boolean;
  /** Undefined for a secret whose saved value is kept. */
  value: string | undefined;
}

function refuse(key: Parameters<typeof said>[0], values?: Parameters<typeof said>[1]): never {
  throw new AppError('invalid_request', said(key, values));
}

function checkPairs(
  pairs: readonly McpPairDraft[] | undefined,
  kind: 'env' | 'header',
  saved: ReadonlySet<string>,
): CheckedPair[] {
  const seen = new Set<string>();
  return (pairs ?? []).map((pair) => {
    const name = pair.name.trim();
    if (kind === 'env' ? !ENV_NAME.test(name) : !HEADER_NAME.test(name))
      refuse(kind === 'env' ? 'form.tools.envName' : 'form.tools.headerName', { name });
    if (kind === 'header' && RESERVED_HEADERS.has(name.toLowerCase()))
      refuse('form.tools.headerReserved', { name });
    const key = kind === 'header' ? name.toLowerCase() : name;
    if (seen.has(key)) refuse('form.tools.duplicate', { name });
    seen.add(key);
    const secret = pair.secret === true;
    const value = pair.value;
    if (secret && (value === undefined || value === '') && !saved.has(name))
      refuse('form.tools.secretMissing', { name });
    return {
      name,
      secret,
      value: secret && (value === undefined || value === '') ? undefined : (value ?? ''),
    };
  });
}

/**
 * Checks a draft: a name not taken, a command (split when written as one line) or an address,
 * environment and header names that can be used, secret values given or saved before.
 */
export function checkDraft(
  draft: McpServerDraft,
  context: { takenNames: readonly string[]; savedSecrets?: ServerSecrets },
): CheckedDraft {
  const name = draft.name.trim();
  if (name === '') refuse('form.tools.name');
  if (name.length > MCP_LIMITS.name) refuse('form.tools.nameAtMost', { max: MCP_LIMITS.name });
  if (context.takenNames.some((taken) => taken.toLowerCase() === name.toLowerCase()))
    refuse('tools.nameTaken', { name });
  const saved = context.savedSecrets ?? { env: {}, headers: {} };

  if (draft.transport === 'stdio') {
    let command = (draft.command ?? '').trim();
    let args = [...(draft.args ?? [])];
    if (command === '') refuse('form.tools.command');
    // "npx -y @scope/server" in the command field alone: the words after the first are arguments.
    if (args.length === 0 && /\s/.test(command)) {
      const words = splitCommandLine(command);
      command = words[0] ?? '';
      args = words.slice(1);
    }
    return {
      name,
      transport: 'stdio',
      command,
      args,
      env: checkPairs(draft.env, 'env', new Set(Object.keys(saved.env))),
      headers: [],
    };
  }

  const url = (draft.url ?? '').trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('form.tools.url');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') refuse('form.tools.url');
  if (parsed.username !== '' || parsed.password !== '') refuse('form.tools.urlCredentials');
  const headers = checkPairs(draft.headers, 'header', new Set(Object.keys(saved.headers)));
  if (
    parsed.protocol === 'http:' &&
    !isLocalNetworkHost(parsed.hostname) &&
    headers.some((header) => header.secret)
  )
    refuse('tools.secretInClear', { host: parsed.host });
  return { name, transport: 'http', args: [], env: [], url: parsed.href, headers };
}
