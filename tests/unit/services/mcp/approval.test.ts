/**
 * Whether a tool call runs, is refused or asks: a server's default, a tool's rule over it, a
 * destructive tool that asks even on an allowing server, grants for one conversation, and the
 * person's answers to an approval card.
 */
import { describe, expect, it } from 'vitest';
import {
  answerEffect,
  decide,
  grantKey,
  standingPermissions,
  withToolRule,
  type ToolPermissions,
} from '../../../../electron/main/services/mcp/approval';

const none: ToolPermissions = { servers: {}, tools: {} };
const read = { serverId: 'fs', tool: 'read_file', destructive: false };
const write = { serverId: 'fs', tool: 'write_file', destructive: true };
const unhinted = { serverId: 'fs', tool: 'list', destructive: null };

describe('deciding a call', () => {
  it('asks by default, for every tool of a server without a rule', () => {
    for (const call of [read, write, unhinted]) {
      expect(decide(call, none)).toEqual({ outcome: 'ask', why: 'rule' });
    }
  });

  it('follows the server’s default, but a destructive tool still asks on an allowing server', () => {
    const allow: ToolPermissions = { servers: { fs: 'allow' }, tools: {} };
    expect(decide(read, allow)).toEqual({ outcome: 'run', by: 'server' });
    expect(decide(unhinted, allow)).toEqual({ outcome: 'run', by: 'server' });
    expect(decide(write, allow)).toEqual({ outcome: 'ask', why: 'destructive' });
    const deny: ToolPermissions = { servers: { fs: 'deny' }, tools: {} };
    expect(decide(read, deny)).toEqual({ outcome: 'deny', by: 'server' });
    expect(decide(write, deny)).toEqual({ outcome: 'deny', by: 'server' });
    // Another server's default is not this one's.
    expect(decide({ ...read, serverId: 'web' }, allow)).toEqual({ outcome: 'ask', why: 'rule' });
  });

  it('lets a tool’s rule override its server’s, a destructive one included', () => {
    const permissions: ToolPermissions = {
      servers: { fs: 'deny' },
      tools: { fs: { write_file: 'allow', read_file: 'ask' } },
    };
    expect(decide(write, permissions)).toEqual({ outcome: 'run', by: 'tool' });
    expect(decide(read, permissions)).toEqual({ outcome: 'ask', why: 'rule' });
    expect(decide(unhinted, permissions)).toEqual({ outcome: 'deny', by: 'server' });
    const denied: ToolPermissions = { servers: { fs: 'allow' }, tools: { fs: { list: 'deny' } } };
    expect(decide(unhinted, denied)).toEqual({ outcome: 'deny', by: 'tool' });
  });

  it('runs a tool allowed for the conversation, there only, unless it or its server was since denied', () => {
    const grants = new Set([grantKey('fs', 'write_file')]);
    expect(decide(write, none, grants)).toEqual({ outcome: 'run', by: 'conversation' });
    // A server denied since then, or the tool itself, is refused whatever was granted before.
    expect(decide(write, { servers: { fs: 'deny' }, tools: {} }, grants)).toEqual({
      outcome: 'deny',
      by: 'server',
    });
    expect(decide(write, none, new Set())).toEqual({ outcome: 'ask', why: 'rule' });
    expect(decide(read, none, grants)).toEqual({ outcome: 'ask', why: 'rule' });
    // A grant names its server too: the same tool name elsewhere still asks.
    expect(decide({ ...write, serverId: 'other' }, none, grants).outcome).toBe('ask');
    const since = withToolRule(none, 'fs', 'write_file', 'deny');
    expect(decide(write, since, grants)).toEqual({ outcome: 'deny', by: 'tool' });
  });

  it('keeps a grant key unambiguous between servers and tools', () => {
    expect(grantKey('a', 'b_c')).not.toBe(grantKey('a_b', 'c'));
  });
});

describe('the person’s answer', () => {
  it('runs the call or not, and says what to remember', () => {
    expect(answerEffect('once')).toEqual({
      run: true,
      grantForConversation: false,
      alwaysAllow: false,
    });
    expect(answerEffect('conversation')).toEqual({
      run: true,
      grantForConversation: true,
      alwaysAllow: false,
    });
    expect(answerEffect('always')).toEqual({
      run: true,
      grantForConversation: false,
      alwaysAllow: true,
    });
    expect(answerEffect('deny')).toEqual({
      run: false,
      grantForConversation: false,
      alwaysAllow: false,
    });
  });

  it('“always allow” a destructive tool makes it run without asking from then on', () => {
    const allowing: ToolPermissions = { servers: { fs: 'allow' }, tools: {} };
    expect(decide(write, allowing).outcome).toBe('ask');
    const after = withToolRule(allowing, 'fs', 'write_file', 'allow');
    expect(decide(write, after)).toEqual({ outcome: 'run', by: 'tool' });
    // The old value is left as it was.
    expect(allowing.tools).toEqual({});
  });
});

describe('standing permissions', () => {
  it('lists every rule set, in order, and a revoked one no more', () => {
    let permissions: ToolPermissions = {
      servers: { web: 'deny', fs: 'allow', quiet: 'ask' },
      tools: {},
    };
    permissions = withToolRule(permissions, 'fs', 'write_file', 'allow');
    permissions = withToolRule(permissions, 'fs', 'delete', 'deny');
    expect(standingPermissions(permissions)).toEqual([
      { serverId: 'fs', tool: null, rule: 'allow' },
      { serverId: 'web', tool: null, rule: 'deny' },
      { serverId: 'fs', tool: 'delete', rule: 'deny' },
      { serverId: 'fs', tool: 'write_file', rule: 'allow' },
    ]);
    permissions = withToolRule(permissions, 'fs', 'delete', null);
    permissions = withToolRule(permissions, 'fs', 'write_file', null);
    expect(permissions.tools).toEqual({});
    expect(standingPermissions(permissions)).toHaveLength(2);
  });
});
