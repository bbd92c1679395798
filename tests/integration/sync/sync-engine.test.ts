/**
 * The engine's own duties, through a folder: compaction that never loses a change another
 * computer has not seen, files stored once by SHA-256, a database restored from a backup, and
 * damaged or foreign objects refused by name and skipped.
 */
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { databasePath } from '../../../electron/main/services/database';
import { newRecoveryPhrase, type SyncKeys } from '../../../electron/main/services/sync/sync-crypto';
import { openStorage } from '../../../electron/main/services/sync/sync-setup';
import { FolderTarget } from '../../../electron/main/services/sync/targets/folder-target';
import { openSyncDevice, visibleState, type SyncDevice } from '../../fakes/sync-device';
import { TEST_COST } from './scenarios';

// Several computers with scrypt-derived keys each: generous under a loaded machine.
vi.setConfig({ testTimeout: 90_000 });

let storage: string;
let target: FolderTarget;
let keys: SyncKeys;
const devices: SyncDevice[] = [];

beforeEach(async () => {
  storage = await mkdtemp(join(tmpdir(), 'relay-sync-engine-'));
  target = new FolderTarget(storage);
  ({ keys } = await openStorage(target, newRecoveryPhrase(), TEST_COST));
});
afterEach(async () => {
  for (const device of devices.splice(0)) await device.destroy();
  await rm(storage, { recursive: true, force: true });
});

async function device(options: { dir?: string; small?: boolean } = {}): Promise<SyncDevice> {
  const opened = await openSyncDevice({
    target,
    keys,
    ...(options.dir ? { dir: options.dir } : {}),
    ...(options.small ? { compaction: { minBytes: 2_000, ratio: 0.5 } } : {}),
  });
  devices.push(opened);
  return opened;
}

function write(d: SyncDevice, title: string, messages = 3): string {
  const conversation = d.chat.create({ title });
  for (let i = 0; i < messages; i += 1)
    d.chat.append(conversation.id, [
      {
        role: i % 2 ? 'assistant' : 'user',
        content: `${title} ${i} ${'words '.repeat(30)}`,
        status: 'complete',
      },
    ]);
  return conversation.id;
}

it('compacts into a snapshot, deleting old logs only once every active computer has them, an hour after', async () => {
  const a = await device({ small: true });
  const b = await device();
  for (let round = 0; round < 6; round += 1) {
    write(a, `round ${round}`);
    await a.engine.sync();
    if (round < 3) await b.engine.sync();
  }
  // B has not applied rounds 3-5: those logs are still there for it.
  const logs = async () => (await target.list('o/')).objects.length;
  expect((await target.list('s/')).objects.length).toBeGreaterThan(0);
  const kept = await logs();
  expect(kept).toBeGreaterThan(0);
  await b.engine.sync();
  await a.engine.sync();
  await a.engine.sync();
  // Kept an hour more for a computer that may be reading them, then deleted.
  expect(await logs()).toBe(kept);
  a.skewMs += 2 * 3_600_000;
  await a.engine.sync();
  expect(await logs()).toBeLessThan(kept);
  // A new computer starts from the snapshot and the logs after it.
  const c = await device();
  const report = await c.engine.sync();
  expect(report.problem).toBeNull();
  expect(visibleState(c)).toEqual(visibleState(a));
  expect(visibleState(b)).toEqual(visibleState(a));
  expect(visibleState(a)).toHaveLength(6);
});

it('stores a file once by SHA-256 and brings it, with its message, to the other computer', async () => {
  const a = await device();
  const b = await device();
  const data = new TextEncoder().encode('tide table: 07:00 09:00 11:00');
  const conversation = a.chat.create({ title: 'With files' });
  for (const text of ['first', 'second']) {
    a.chat.transaction(() => {
      const [message] = a.chat.append(conversation.id, [
        { role: 'user', content: text, status: 'complete' },
      ]);
      a.attachments.add(message!.id, [
        { name: 'tides.txt', kind: 'text', mimeType: 'text/plain', data, text: 'tide table' },
      ]);
    });
  }
  await a.engine.sync();
  await b.engine.sync();
  expect((await target.list('b/')).objects).toHaveLength(1);
  const messages = b.chat.allMessages(conversation.id).map((m) => m.id);
  const files = b.attachments.forMessages(messages);
  expect([...files.values()].flat().map((f) => f.name)).toEqual(['tides.txt', 'tides.txt']);
  const id = files.get(messages[0]!)![0]!.id;
  expect(b.attachments.file(id)?.data).toEqual(data);
  expect(a.attachments.forMessages(messages).get(messages[0]!)?.[0]?.id).toBe(id);
});

it('a database restored from a backup takes back its own later changes and numbers on after them', async () => {
  const a = await device();
  const b = await device();
  write(a, 'before the backup');
  await a.engine.sync();
  await a.close();
  const backup = join(a.dir, 'backup.db');
  await copyFile(databasePath(a.dir), backup);
  const reopened = await openSyncDevice({ target, keys, dir: a.dir });
  write(reopened, 'after the backup');
  await reopened.engine.sync();
  await reopened.close();
  await copyFile(backup, databasePath(a.dir));
  for (const name of await readdir(a.dir))
    if (name.endsWith('-wal') || name.endsWith('-shm')) await rm(join(a.dir, name));
  const restored = await openSyncDevice({ target, keys, dir: a.dir });
  devices.splice(devices.indexOf(a), 1, restored);
  expect(restored.chat.list().map((c) => c.title)).toEqual(['before the backup']);
  await restored.engine.sync();
  expect(
    restored.chat
      .list()
      .map((c) => c.title)
      .sort(),
  ).toEqual(['after the backup', 'before the backup']);
  write(restored, 'after the restore');
  await restored.engine.sync();
  await b.engine.sync();
  expect(visibleState(b)).toEqual(visibleState(restored));
  expect(visibleState(b)).toHaveLength(3);
});

it('refuses a damaged or foreign object by name, skips it, and applies the rest', async () => {
  const a = await device();
  write(a, 'first');
  await a.engine.sync();
  write(a, 'second');
  await a.engine.sync();
  const logs = (await target.list('o/')).objects.map((o) => o.name);
  // The second log, damaged in the storage.
  const damaged = a.db.one<{ name: string }>(
    'SELECT name FROM sync_uploaded ORDER BY seq DESC LIMIT 1',
  )!.name;
  expect(logs).toContain(damaged);
  const bytes = await readFile(join(storage, damaged));
  bytes[bytes.length - 5] = bytes[bytes.length - 5]! ^ 0xff;
  await writeFile(join(storage, damaged), bytes);
  // A head no device of ours wrote.
  await writeFile(join(storage, 'h', '0123456789abcdef0123456789abcdef'), 'not ours');
  const b = await device();
  const report = await b.engine.sync();
  expect(report.refused).toEqual(
    expect.arrayContaining([
      { name: damaged, reason: 'damaged' },
      { name: 'h/0123456789abcdef0123456789abcdef', reason: 'foreign' },
    ]),
  );
  expect(b.chat.list().map((c) => c.title)).toEqual(['first']);
  // Read once: the next sync does not try them again.
  expect((await b.engine.sync()).refused).toEqual([]);
});

it('a sync cut short after its new head, before deleting the old one, leaves one head for the computer', async () => {
  // The same storage, its deletes failing at will: a sync stopped right after it saved its new
  // head (the way SIGKILL stops one) has not deleted the head before it yet.
  let deletesFail = false;
  class Cut extends FolderTarget {
    override async delete(name: string): Promise<void> {
      if (deletesFail) throw new Error('cut short');
      await super.delete(name);
    }
  }
  const a = await openSyncDevice({ target: new Cut(storage), keys });
  devices.push(a);
  write(a, 'first');
  await a.engine.sync();
  write(a, 'second');
  deletesFail = true;
  await a.engine.sync();
  expect((await target.list('h/')).objects).toHaveLength(2);
  deletesFail = false;
  expect((await a.engine.sync()).problem).toBeNull();
  expect((await target.list('h/')).objects).toHaveLength(1);
  const b = await device();
  await b.engine.sync();
  expect(visibleState(b)).toEqual(visibleState(a));
});

it('a title the person blanked arrives as it was written, not as a new conversation', async () => {
  const a = await device();
  const b = await device();
  const conversation = a.chat.create({ title: 'Named' });
  a.chat.update(conversation.id, { title: ' ' });
  a.chat.append(conversation.id, [{ role: 'user', content: 'hello', status: 'complete' }]);
  await a.engine.sync();
  await b.engine.sync();
  expect(b.chat.get(conversation.id)?.title).toBe(' ');
  expect(visibleState(b)).toEqual(visibleState(a));
});

it("counts the usage of replies made on another computer in this one's usage, once, and never a copy's", async () => {
  const a = await device();
  const b = await device();
  const conversation = a.chat.create({ title: 'Spent on A' });
  const [question] = a.chat.append(conversation.id, [
    { role: 'user', content: 'How far is the moon?', status: 'complete' },
  ]);
  const [reply] = a.chat.append(
    conversation.id,
    [{ role: 'assistant', content: '', status: 'streaming', model: 'demo-chat' }],
    question!.id,
  );
  a.chat.saveReply(reply!.id, {
    content: 'About 384,000 km.',
    status: 'complete',
    usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150 },
  });
  // A branch forked off copies the reply: its usage was spent once, on A, and is not again.
  a.chat.fork(reply!.id);
  const since = new Date(Date.now() - 86_400_000);
  const spent = (d: SyncDevice) =>
    d.chat.usageByDay(since).map((u) => [u.model, u.replies, u.promptTokens, u.completionTokens]);
  expect(spent(a)).toEqual([['demo-chat', 1, 120, 30]]);
  await a.engine.sync();
  await b.engine.sync();
  expect(b.chat.allMessages(conversation.id)).toHaveLength(2);
  expect(spent(b)).toEqual([['demo-chat', 1, 120, 30]]);
  // Synced again, both ways: counted once everywhere.
  await b.engine.sync();
  await a.engine.sync();
  expect(spent(a)).toEqual([['demo-chat', 1, 120, 30]]);
  expect(spent(b)).toEqual([['demo-chat', 1, 120, 30]]);
  // A new computer counts it too.
  const c = await device();
  await c.engine.sync();
  expect(spent(c)).toEqual([['demo-chat', 1, 120, 30]]);
});
