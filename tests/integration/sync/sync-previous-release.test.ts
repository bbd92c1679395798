/**
 * Sync on a data folder written by Relay Desktop 0.1 (`tests/fixtures/data-0.1`): its tables come
 * by migration beside the old ones (nothing reset, a copy kept first), and the conversations
 * already there reach a new computer on the first sync.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { AttachmentStore } from '../../../electron/main/services/chat/attachments';
import { ChatStore } from '../../../electron/main/services/chat/store';
import { databasePath, openDatabase, type Db } from '../../../electron/main/services/database';
import { PromptsService } from '../../../electron/main/services/prompts/prompts-service';
import { ChatSource } from '../../../electron/main/services/sync/sources/chat-source';
import { PromptSource } from '../../../electron/main/services/sync/sources/prompt-source';
import { newRecoveryPhrase } from '../../../electron/main/services/sync/sync-crypto';
import { SyncEngine } from '../../../electron/main/services/sync/sync-engine';
import { openStorage } from '../../../electron/main/services/sync/sync-setup';
import { FolderTarget } from '../../../electron/main/services/sync/targets/folder-target';
import { openSyncDevice, visibleState } from '../../fakes/sync-device';
import { TEST_COST } from './scenarios';

// Several computers with scrypt-derived keys each: generous under a loaded machine.
vi.setConfig({ testTimeout: 90_000 });

const FIXTURE = join(import.meta.dirname, '../../fixtures/data-0.1');

let dir: string;
let db: Db | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-sync-0.1-'));
  await cp(FIXTURE, dir, { recursive: true });
});
afterEach(async () => {
  db?.close();
  db = undefined;
  await rm(dir, { recursive: true, force: true });
});

it('adds its tables to a 0.1 data folder and sends what was there to a new computer', async () => {
  const userData = join(dir, 'user-data');
  db = await openDatabase({ path: databasePath(userData) });
  const chat = await ChatStore.open(db);
  const before = chat.list().map((c) => [c.id, c.title, c.messageCount]);
  const prompts = await PromptsService.open({ db });
  const storage = await mkdtemp(join(tmpdir(), 'relay-sync-0.1-storage-'));
  const target = new FolderTarget(storage);
  const { keys } = await openStorage(target, newRecoveryPhrase(), TEST_COST);
  const engine = await SyncEngine.open({
    db,
    target,
    keys,
    sources: [new ChatSource(chat, new AttachmentStore(db)), new PromptSource(db, prompts)],
    sleep: async () => undefined,
  });
  const applied = db
    .all<{ domain: string; version: number }>(
      "SELECT domain, version FROM schema_migrations WHERE domain = 'sync'",
    )
    .map((r) => r.version);
  expect(applied).toEqual([1, 2]);
  // A copy of the file was kept before the new tables were added.
  expect((await readdir(userData)).some((name) => name.includes('.before-sync-1-'))).toBe(true);
  // The old data is as it was.
  expect(chat.list().map((c) => [c.id, c.title, c.messageCount])).toEqual(before);
  expect(db.integrityCheck()).toBe('ok');

  const report = await engine.sync();
  expect(report.problem).toBeNull();
  expect(report.sent.conversation).toBe(before.length);
  await engine.close();

  const fresh = await openSyncDevice({ target, keys, label: 'new computer' });
  try {
    await fresh.engine.sync();
    expect(fresh.chat.list().map((c) => [c.id, c.title, c.messageCount])).toEqual(before);
    for (const conversation of chat.list())
      expect(fresh.chat.allMessages(conversation.id).map((m) => m.content)).toEqual(
        chat.allMessages(conversation.id).map((m) => m.content),
      );
    expect(visibleState(fresh).length).toBe(before.length);
  } finally {
    await fresh.destroy();
    await rm(storage, { recursive: true, force: true });
  }
});
