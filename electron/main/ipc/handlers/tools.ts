import type { TOOLS_ROUTES } from '../../../shared/ipc/routes/tools';
import type { McpService } from '../../services/mcp/mcp-service';
import type { Handlers } from '../router';

/** The handlers of the tools routes (MCP servers): one line each, over the MCP service. */
export function toolsHandlers(mcp: McpService): Handlers<typeof TOOLS_ROUTES> {
  return {
    listMcpServers: () => mcp.list(),
    addMcpServer: (draft) => mcp.add(draft),
    updateMcpServer: ({ id, draft }) => mcp.update(id, draft),
    removeMcpServer: async ({ id }) => (await mcp.remove(id), null),
    setMcpToolEnabled: ({ id, tool, enabled }) => mcp.setToolEnabled(id, tool, enabled),
    testMcpServer: ({ id }) => mcp.test(id),
    stopMcpServer: ({ id }) => mcp.stop(id),
    setMcpServerRule: ({ id, rule }) => mcp.setServerRule(id, rule),
    setMcpToolRule: ({ id, tool, rule }) => mcp.setToolRule(id, tool, rule),
    importMcpServers: () => mcp.importFromFile(),
    listMcpPrompts: ({ id }) => mcp.prompts(id),
    getMcpPrompt: ({ id, prompt, arguments: values }) => mcp.getPrompt(id, prompt, values),
    listMcpResources: ({ id }) => mcp.resources(id),
  };
}
