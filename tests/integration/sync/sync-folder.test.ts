/** The sync scenarios through a plain folder (what Dropbox, iCloud Drive or Syncthing keep in step). */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderTarget } from '../../../electron/main/services/sync/targets/folder-target';
import { folderContents, syncScenarios } from './scenarios';

syncScenarios('a folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'relay-sync-folder-'));
  return { target: () => new FolderTarget(root), contents: () => folderContents(root) };
});
