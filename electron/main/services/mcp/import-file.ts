/**
 * Reading an `mcpServers` file, the format people already keep for other clients:
 *
 * ```json
 * { "mcpServers": {
 *     "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "~/notes"] },
 *     "search": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer …" } } } }
 * ```
 *
 * (Claude desktop, Cursor, Windsurf; VS Code's `servers` with a `type` too). Each entry becomes a
 * draft or is refused by its name with the reason; values whose names say they are secret (keys,
 * tokens, passwords, an Authorization header) are marked secret, so they go to the key store.
 */
import type { McpPairDraft, McpServerDraft } from '../../../shared/ipc/routes/tools';
import { said, type Said } from '../words';

export interface ImportEntry {
  name: string;
  draft: McpServerDraft;
}

export interface ImportRefusal {
  entry: string;
  reason: Said;
}

export type ImportRead =
  { ok: true; entries: ImportEntry[]; refused: ImportRefusal[] } | { ok: false; reason: Said };

/** Names of values that are secrets: API keys, tokens, passwords, credentials. */
const SECRET_NAME = /key|token|secret|passw|pwd|auth|credential|cookie|session|private/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** String values by name, or the name of the field that is not that. */
function stringRecord(
  value: unknown,
  field: string,
): { ok: true; pairs: McpPairDraft[] } | { ok: false; field: string } {
  if (value === undefined || value === null) return { ok: true, pairs: [] };
  if (!isObject(value)) return { ok: false, field };
  const pairs: McpPairDraft[] = [];
  for (const [name, raw] of Object.entries(value)) {
    // Numbers and true/false are common in hand-written files; the environment holds text.
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
      return { ok: false, field: `${field}.${name}` };
    pairs.push({ name, value: String(raw), secret: SECRET_NAME.test(name) });
  }
  return { ok: true, pairs };
}

function entryOf(name: string, value: unknown): ImportEntry | ImportRefusal {
  const refuse = (reason: Said): ImportRefusal => ({ entry: name, reason });
  if (!isObject(value)) return refuse(said('import.tools.notAServer'));
  const type = typeof value.type === 'string' ? value.type.toLowerCase() : undefined;
  if (type === 'sse') return refuse(said('import.tools.sse'));
  if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamablehttp'].includes(type))
    return refuse(said('import.tools.unknownType', { type: String(value.type).slice(0, 40) }));
  const command = value.command;
  const url = value.url ?? value.serverUrl;
  if (command !== undefined && url !== undefined) return refuse(said('import.tools.both'));
  if (command === undefined && url === undefined) return refuse(said('import.tools.neither'));

  if (command !== undefined) {
    if (typeof command !== 'string')
      return refuse(said('import.tools.badField', { field: 'command' }));
    const args = value.args ?? [];
    if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string'))
      return refuse(said('import.tools.badField', { field: 'args' }));
    const env = stringRecord(value.env, 'env');
    if (!env.ok) return refuse(said('import.tools.badField', { field: env.field }));
    return {
      name,
      draft: { name, transport: 'stdio', command, args: args as string[], env: env.pairs },
    };
  }
  if (typeof url !== 'string') return refuse(said('import.tools.badField', { field: 'url' }));
  const headers = stringRecord(value.headers, 'headers');
  if (!headers.ok) return refuse(said('import.tools.badField', { field: headers.field }));
  return { name, draft: { name, transport: 'http', url, headers: headers.pairs } };
}

/** The servers of a file's text: each a draft, or refused by name. */
export function readServersFile(text: string): ImportRead {
  let json: unknown;
  const body = text.replace(/^\uFEFF/, '');
  try {
    json = JSON.parse(body);
  } catch (error) {
    const at = errorPosition(error, body);
    return {
      ok: false,
      reason: at === undefined ? said('import.tools.notJson') : said('import.tools.notJsonAt', at),
    };
  }
  const list = isObject(json) ? (json.mcpServers ?? json.servers) : undefined;
  if (!isObject(list)) return { ok: false, reason: said('import.tools.noServers') };
  const entries: ImportEntry[] = [];
  const refused: ImportRefusal[] = [];
  for (const [name, value] of Object.entries(list)) {
    const read = entryOf(name, value);
    if ('draft' in read) entries.push(read);
    else refused.push(read);
  }
  return { ok: true, entries, refused };
}

/**
 * Where a JSON parse stopped, as line and column (from 1): V8 names the position ("… in JSON at
 * position 45"), or the input ended too soon (the place is then its end).
 */
export function errorPosition(
  error: unknown,
  text: string,
): { line: number; column: number } | undefined {
  const message = error instanceof Error ? error.message : '';
  const found = /at position (\d+)/.exec(message);
  const offset = found
    ? Math.min(Number(found[1]), text.length)
    : /end of (JSON )?input|unterminated/i.test(message)
      ? text.length
      : undefined;
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: before.at(-1)!.length + 1 };
}
