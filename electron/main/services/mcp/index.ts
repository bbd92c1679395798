/**
 * Opens the tools domain: the MCP servers the person added, whose tools chat offers. Servers start
 * when their tools are first needed; at close, each ends with its whole process tree. The
 * composition root only.
 */
import type { AppContext } from '../../app-context';
import type { FetchLike } from '../relay/relay-client';
import { watchSecrets } from '../log';
import { McpService } from './mcp-service';
import { nodeProcessHost, type ProcessHost } from './processes';

export type McpDeps = Pick<
  AppContext,
  'userDataDir' | 'secretStore' | 'log' | 'fetch' | 'dialogs' | 'version' | 'emit' | 'onClose'
> & {
  /** Where servers' processes start and end; the machine's own (child_process) if absent. */
  processHost?: ProcessHost | undefined;
};

export function openMcp(deps: McpDeps): McpService {
  const { emit } = deps;
  const mcp = new McpService({
    dataDir: deps.userDataDir,
    secrets: watchSecrets(deps.secretStore, deps.log),
    host: deps.processHost ?? nodeProcessHost(),
    ...(deps.fetch ? { fetch: adaptFetch(deps.fetch) } : {}),
    dialogs: deps.dialogs,
    appVersion: deps.version,
    onServerChanged: (summary) => emit('mcpServerChanged', summary),
    onServersChanged: () => emit('mcpServersChanged', null),
    onListChanged: (id, list) => emit('mcpListChanged', { id, list }),
  });
  deps.onClose(() => mcp.close());
  return mcp;
}

/** The app's fetch (a URL as text, init given) for the MCP SDK, which passes a URL or text. */
function adaptFetch(
  fetch: FetchLike,
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return (url, init) => fetch(typeof url === 'string' ? url : url.href, init ?? {});
}
