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

export async function setToolEnabled(id: string, tool: string, enabled: boolean): Promise<void> {
  serverChanged(await requireBridge().setMcpToolEnabled({ id, tool, enabled }));
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
