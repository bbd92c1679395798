/** What the Tools screen asks of main: each call, its answer put in the store. */
import { requireBridge } from '../../lib/relay-bridge';
import {
  serverChanged,
  useToolsStore,
  type McpDraft,
  type McpImportResult,
  type McpRule,
  type McpServer,
  type McpTestResult,
} from './tools-store';

export async function saveServer(id: string | undefined, draft: McpDraft): Promise<McpServer> {
  const bridge = requireBridge();
  const saved = id ? await bridge.updateMcpServer({ id, draft }) : await bridge.addMcpServer(draft);
  serverChanged(saved);
  return saved;
}

export async function removeServer(id: string): Promise<void> {
  await requireBridge().removeMcpServer({ id });
  useToolsStore.setState((state) => ({ servers: state.servers.filter((s) => s.id !== id) }));
}

export function testServer(id: string): Promise<McpTestResult> {
  return requireBridge().testMcpServer({ id });
}

export async function stopServer(id: string): Promise<void> {
  serverChanged(await requireBridge().stopMcpServer({ id }));
}

/** Shown at once (the switch follows the hand), then as main saved it; put back on a failure. */
export async function setToolEnabled(id: string, tool: string, enabled: boolean): Promise<void> {
  const before = useToolsStore.getState().servers.find((s) => s.id === id);
  if (before) {
    const tools = before.tools.map((t) => (t.name === tool ? { ...t, enabled } : t));
    const toolTokens = tools.filter((t) => t.enabled).reduce((sum, t) => sum + t.tokens, 0);
    serverChanged({ ...before, tools, toolTokens });
  }
  try {
    serverChanged(await requireBridge().setMcpToolEnabled({ id, tool, enabled }));
  } catch (error) {
    if (before) serverChanged(before);
    throw error;
  }
}

export async function setServerRule(id: string, rule: McpRule): Promise<void> {
  serverChanged(await requireBridge().setMcpServerRule({ id, rule }));
}

export async function setToolRule(id: string, tool: string, rule: McpRule | null): Promise<void> {
  serverChanged(await requireBridge().setMcpToolRule({ id, tool, rule }));
}

export function importServers(): Promise<McpImportResult> {
  return requireBridge().importMcpServers();
}
