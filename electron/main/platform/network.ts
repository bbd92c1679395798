import { app, session } from 'electron';
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
  // A proxy asking for credentials (HTTP 407) on a request of main's `net.fetch`: Electron asks
  // the app with `login`. Answered from the setting and the keychain, for the proxy only.
  onProxyLogin(answer) {
    app.on('login', (event, _webContents, _details, authInfo, callback) => {
      if (!authInfo.isProxy) return;
      event.preventDefault();
      answer({ host: authInfo.host, port: authInfo.port }).then(
        (credentials) =>
          credentials ? callback(credentials.username, credentials.password) : callback(),
        () => callback(),
      );
    });
  },
};
