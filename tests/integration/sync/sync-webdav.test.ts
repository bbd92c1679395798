/** The sync scenarios through a real WebDAV server (rclone serve webdav), started by the test. */
import { afterAll, beforeAll } from 'vitest';
import { WebdavTarget } from '../../../electron/main/services/sync/targets/webdav-target';
import { startWebdav, type RunningWebdav } from '../../fakes/sync-servers';
import { folderContents, syncScenarios } from './scenarios';
import { join } from 'node:path';

let server: RunningWebdav;
beforeAll(async () => {
  server = await startWebdav();
});
afterAll(async () => {
  await server.stop();
});

syncScenarios(
  'WebDAV (rclone serve webdav)',
  async () => {
    const url = await server.folder();
    return {
      target: () => new WebdavTarget({ url, username: server.username, password: server.password }),
      contents: () => folderContents(join(server.dir, url.slice(server.url.length))),
    };
  },
  { tellsTime: true },
);
