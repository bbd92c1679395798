/**
 * The Tools screen's state: the MCP servers as main describes them (state, tools, rules, error
 * output; secret values never, only whether one is set), kept current by main's events.
 */
import { create } from 'zustand';
import { failureOf, type FailureInfo } from '../../lib/errors';
import type { LoadStatus } from '../../lib/load-state';
import { requireBridge, type Answer, type RelayBridge } from '../../lib/relay-bridge';

export type McpServer = Answer<'listMcpServers'>[number];
export type McpDraft = Parameters<RelayBridge['addMcpServer']>[0];
export type McpRule = McpServer['rule'];
export type McpTestResult = Answer<'testMcpServer'>;
export type McpImportResult = Answer<'importMcpServers'>;

export interface ToolsState {
  servers: McpServer[];
  status: LoadStatus;
  failure: FailureInfo | undefined;
}

export const useToolsStore = create<ToolsState>(() => ({
  servers: [],
  status: 'idle',
  failure: undefined,
}));

let loadSeq = 0;

export async function loadServers(): Promise<void> {
  const seq = ++loadSeq;
  if (useToolsStore.getState().status === 'idle') useToolsStore.setState({ status: 'loading' });
  try {
    const servers = await requireBridge().listMcpServers();
    if (seq === loadSeq) useToolsStore.setState({ servers, status: 'ready', failure: undefined });
  } catch (error) {
    if (seq === loadSeq) useToolsStore.setState({ status: 'failed', failure: failureOf(error) });
  }
}

/** A server's new summary in place (an answer or main's event). */
export function serverChanged(summary: McpServer): void {
  useToolsStore.setState((state) => ({
    servers: state.servers.map((server) => (server.id === summary.id ? summary : server)),
  }));
}

/** Follows main: a server's state, tools or output changed; servers were added or removed. */
export function watchServers(): () => void {
  const bridge = requireBridge();
  const stopOne = bridge.onMcpServerChanged((summary) => serverChanged(summary));
  const stopAll = bridge.onMcpServersChanged(() => void loadServers());
  return () => {
    stopOne();
    stopAll();
  };
}
