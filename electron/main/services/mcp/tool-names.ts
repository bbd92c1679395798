/**
 * The names tools are offered to a model under. The convention allows 1 to 64 letters, digits,
 * `_` and `-` in a function name and needs each name once per request, while MCP tool names may
 * hold other characters and two servers may both have `search`. A tool keeps its own name when it
 * can; otherwise it gets its server's name in front (`files__search`), cut to fit with a short
 * hash that keeps it unique. The map back (function name → server and tool) travels with them.
 */
import { createHash } from 'node:crypto';

const ALLOWED = /[^A-Za-z0-9_-]+/g;
const MAX = 64;

function clean(text: string): string {
  return text.replace(ALLOWED, '_').replace(/^_+|_+$/g, '') || 'tool';
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}

function fit(name: string, key: string): string {
  return name.length <= MAX ? name : `${name.slice(0, MAX - 7)}_${shortHash(key)}`;
}

export interface NamedTool {
  serverId: string;
  serverName: string;
  tool: string;
}

/**
 * A function name for each tool, unique across them, in the order given: the tool's own name when
 * it is allowed and no other tool has it, else `<server>__<tool>`.
 */
export function functionNames(tools: readonly NamedTool[]): string[] {
  const counts = new Map<string, number>();
  for (const { tool } of tools) counts.set(clean(tool), (counts.get(clean(tool)) ?? 0) + 1);
  const taken = new Set<string>();
  return tools.map(({ serverId, serverName, tool }) => {
    const own = clean(tool);
    let name =
      own === tool && counts.get(own) === 1 && own.length <= MAX
        ? own
        : fit(`${clean(serverName)}__${own}`, `${serverId}/${tool}`);
    // Two servers of one name with the same tool: the hash of their ids tells them apart.
    if (taken.has(name))
      name = fit(
        `${name.slice(0, MAX - 7)}_${shortHash(`${serverId}/${tool}`)}`,
        `${serverId}/${tool}`,
      );
    taken.add(name);
    return name;
  });
}
