/**
 * Whether a tool call the model asked for runs, is refused, or waits for the person's answer.
 *
 * The person sets a default per server (ask, allow or deny) and may set a rule per tool, which
 * overrides it. A tool its server marks destructive (MCP tool annotations) asks even on a server
 * whose default is allow, unless the person gave a rule for that tool by name or allowed it for the
 * conversation. A later "deny" (for the tool, or its server's default) wins over an earlier "allow
 * for this conversation". The decision reads only the person's rules and the tool's own
 * annotations, never the model's words or a tool result, so nothing a result says can start a
 * call without approval.
 */

import { TOOL_RULES, type ToolRuleName } from '../../../shared/ipc/routes/tools';

export { TOOL_RULES };
export type ToolRule = ToolRuleName;

/** The person's standing rules: a default per server, and rules per tool by its own name. */
export interface ToolPermissions {
  /** By server id; a server without one asks. */
  servers: Readonly<Record<string, ToolRule>>;
  /** By server id, then the tool's own name on that server. */
  tools: Readonly<Record<string, Readonly<Record<string, ToolRule>>>>;
}

/** The call to decide: its server, its tool's own name, and the server's hint. */
export interface CallToDecide {
  serverId: string;
  tool: string;
  /** The server's `destructiveHint`; null when it gave none. */
  destructive: boolean | null;
}

export type Decision =
  | { outcome: 'run'; by: 'tool' | 'server' | 'conversation' }
  | { outcome: 'deny'; by: 'tool' | 'server' }
  | { outcome: 'ask'; why: 'rule' | 'destructive' };

/** The person's answer to an approval card. */
export const APPROVAL_ANSWERS = ['once', 'conversation', 'always', 'deny'] as const;
export type ApprovalAnswer = (typeof APPROVAL_ANSWERS)[number];

/** The key of a tool in a conversation's grants. */
export function grantKey(serverId: string, tool: string): string {
  return `${serverId}\u0000${tool}`;
}

/**
 * What happens to a call. `conversationGrants` holds the tools allowed for this conversation
 * (`grantKey`).
 */
export function decide(
  call: CallToDecide,
  permissions: ToolPermissions,
  conversationGrants: ReadonlySet<string> = new Set(),
): Decision {
  const toolRule = permissions.tools[call.serverId]?.[call.tool];
  if (toolRule === 'deny') return { outcome: 'deny', by: 'tool' };
  if (toolRule === 'allow') return { outcome: 'run', by: 'tool' };
  const serverRule = permissions.servers[call.serverId] ?? 'ask';
  // Only a rule for the tool by name opens a denying server; an older grant does not.
  if (serverRule === 'deny' && toolRule === undefined) return { outcome: 'deny', by: 'server' };
  if (conversationGrants.has(grantKey(call.serverId, call.tool))) {
    return { outcome: 'run', by: 'conversation' };
  }
  if (toolRule === 'ask') return { outcome: 'ask', why: 'rule' };
  if (serverRule === 'allow') {
    return call.destructive === true
      ? { outcome: 'ask', why: 'destructive' }
      : { outcome: 'run', by: 'server' };
  }
  return { outcome: 'ask', why: 'rule' };
}

/** What an answer changes: whether the call runs, and what is remembered and where. */
export interface AnswerEffect {
  run: boolean;
  /** Remember the tool for this conversation. */
  grantForConversation: boolean;
  /** Remember an "allow" rule for the tool, everywhere. */
  alwaysAllow: boolean;
}

export function answerEffect(answer: ApprovalAnswer): AnswerEffect {
  switch (answer) {
    case 'once':
      return { run: true, grantForConversation: false, alwaysAllow: false };
    case 'conversation':
      return { run: true, grantForConversation: true, alwaysAllow: false };
    case 'always':
      return { run: true, grantForConversation: false, alwaysAllow: true };
    case 'deny':
      return { run: false, grantForConversation: false, alwaysAllow: false };
  }
}

/** The permissions with a tool's rule set (or cleared, with null): a new value, the old kept. */
export function withToolRule(
  permissions: ToolPermissions,
  serverId: string,
  tool: string,
  rule: ToolRule | null,
): ToolPermissions {
  const own = { ...permissions.tools[serverId] };
  if (rule === null) delete own[tool];
  else own[tool] = rule;
  const tools = { ...permissions.tools, [serverId]: own };
  if (Object.keys(own).length === 0) delete tools[serverId];
  return { servers: permissions.servers, tools };
}

/** One standing permission, as the Tools screen lists it to revoke. */
export interface StandingPermission {
  serverId: string;
  /** null for the server's default. */
  tool: string | null;
  rule: ToolRule;
}

/** Every rule the person set (a server's "ask" default is no standing permission), in order. */
export function standingPermissions(permissions: ToolPermissions): StandingPermission[] {
  const found: StandingPermission[] = [];
  for (const [serverId, rule] of Object.entries(permissions.servers).sort(byKey)) {
    if (rule !== 'ask') found.push({ serverId, tool: null, rule });
  }
  for (const [serverId, rules] of Object.entries(permissions.tools).sort(byKey)) {
    for (const [tool, rule] of Object.entries(rules).sort(byKey)) {
      found.push({ serverId, tool, rule });
    }
  }
  return found;
}

function byKey(a: [string, unknown], b: [string, unknown]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}
