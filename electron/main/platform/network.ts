import { session } from 'electron';
import type { ProxyStack } from '../services/network/network-service';

/**
 * The session electron-updater downloads through (`electronHttpExecutor.ts` in electron-updater:
 * `session.fromPartition('electron-updater', { cache: false })`), so updates use the proxy too.
 */
const UPDATER_PARTITION = 'electron-updater';

/**
 * The proxy, applied where the app's requests go: the default session, which `net.fetch` uses
 * for every request to a relay, and the updater's. Connections already open are closed, so no
 * pooled socket keeps using the previous proxy.
 */
export const electronProxyStack: ProxyStack = {
  async setProxy(config) {
    const sessions = [
      session.defaultSession,
      session.fromPartition(UPDATER_PARTITION, { cache: false }),
    ];
    for (const target of sessions) {
      await target.setProxy(config);
      await target.closeAllConnections();
    }
  },
  resolveProxy: (url) => session.defaultSession.resolveProxy(url),
};
