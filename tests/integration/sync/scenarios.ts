/**
 * The sync scenarios every storage must pass, run against a folder, a real WebDAV server and a
 * real S3-compatible server: two or three computers with their own user data folders syncing
 * through one storage.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRecoveryPhrase, objectName } from '../../../electron/main/services/sync/sync-crypto';
import type { SyncKeys } from '../../../electron/main/services/sync/sync-crypto';
import type { SyncEngineOptions } from '../../../electron/main/services/sync/sync-engine';
import { openStorage } from '../../../electron/main/services/sync/sync-setup';
import { TargetError, type SyncTarget } from '../../../electron/main/services/sync/targets/target';
import { said } from '../../../electron/main/services/words';
import { openSyncDevice, visibleState, type SyncDevice } from '../../fakes/sync-device';

/** A cheap scrypt for tests: the cost is stored with the salt, so every device uses it. */
export const TEST_COST = { N: 2 ** 12, r: 8, p: 1 };
export const HOUR = 3_600_000;

export interface Storage {
  /** A target on a storage that starts empty for each test. */
  target(): SyncTarget;
  /** Every byte the storage holds, by object, to check it holds only ciphertext. */
  contents?(): Promise<Map<string, Buffer>>;
}

export function syncScenarios(
  name: string,
  storage: () => Promise<Storage>,
  /** Whether its answers carry the server's time (an HTTP Date header); a folder's do not. */
  options: { tellsTime?: boolean } = {},
): void {
  // Several computers and a real server each: generous under a loaded machine.
  describe(`sync through ${name}`, { timeout: 90_000 }, () => {
    let store: Storage;
    let devices: SyncDevice[] = [];
    let phrase: string;

    beforeEach(async () => {
      store = await storage();
      phrase = newRecoveryPhrase();
      devices = [];
    });
    afterEach(async () => {
      for (const device of devices) await device.destroy();
    });

    let keys: SyncKeys;
    async function device(
      label: string,
      skewMs = 0,
      options: {
        compaction?: SyncEngineOptions['compaction'];
        wrap?: (target: SyncTarget) => SyncTarget;
      } = {},
    ): Promise<SyncDevice> {
      const plain = store.target();
      ({ keys } = await openStorage(plain, phrase, TEST_COST));
      const target = options.wrap ? options.wrap(plain) : plain;
      const opened = await openSyncDevice({
        target,
        keys,
        label,
        skewMs,
        ...(options.compaction ? { compaction: options.compaction } : {}),
      });
      devices.push(opened);
      return opened;
    }

    /** Moves every computer's clock on, as time passing would. */
    function later(ms: number, ...list: SyncDevice[]): void {
      for (const d of list) d.skewMs += ms;
    }

    function snapshotOf(d: SyncDevice): { id: string; parts: number } | undefined {
      const saved = d.db.one<{ value: string }>(
        "SELECT value FROM sync_state WHERE key = 'snapshot'",
      )?.value;
      return saved === undefined ? undefined : (JSON.parse(saved) as { id: string; parts: number });
    }

    function partNames(d: SyncDevice, snapshot: { id: string; parts: number }): string[] {
      return Array.from({ length: snapshot.parts }, (_, part) =>
        objectName(keys, 'snapshot', `${d.engine.device}:${snapshot.id}:${part}`),
      );
    }

    /** Writes and syncs until the computer has written a snapshot other than `before`. */
    async function compactAgain(d: SyncDevice, before: string | undefined): Promise<string> {
      for (let round = 0; round < 30; round += 1) {
        write(d, `more ${round}`);
        const report = await d.engine.sync();
        expect(report.problem, JSON.stringify(report.problem)).toBeNull();
        const now = snapshotOf(d)?.id;
        if (now !== undefined && now !== before) return now;
      }
      throw new Error('no new snapshot');
    }

    async function present(name: string): Promise<boolean> {
      return (await store.target().get(name)) !== undefined;
    }

    async function syncAll(...list: SyncDevice[]): Promise<void> {
      // Twice round: what the last one sent reaches the first.
      for (let round = 0; round < 2; round += 1)
        for (const d of list) {
          const report = await d.engine.sync();
          expect(report.problem, JSON.stringify(report.problem)).toBeNull();
        }
    }

    it('two computers that answered in the same conversation while apart both keep both answers', async () => {
      const laptop = await device('laptop');
      const desktop = await device('desktop');
      const conversation = laptop.chat.create({ title: 'Ferry times' });
      const [question] = laptop.chat.append(conversation.id, [
        { role: 'user', content: 'When does the ferry leave?', status: 'complete' },
      ]);
      await syncAll(laptop, desktop);
      expect(desktop.chat.get(conversation.id)?.title).toBe('Ferry times');

      // Apart: each answers the same question.
      const [fromLaptop] = laptop.chat.append(
        conversation.id,
        [{ role: 'assistant', content: 'At seven, says the laptop.', status: 'complete' }],
        question!.id,
      );
      const [fromDesktop] = desktop.chat.append(
        conversation.id,
        [{ role: 'assistant', content: 'Hourly, says the desktop.', status: 'complete' }],
        question!.id,
      );
      await syncAll(laptop, desktop);

      for (const d of [laptop, desktop]) {
        const replies = d.chat
          .children(question!.id)
          .map((m) => m.content)
          .sort();
        expect(replies).toEqual(['At seven, says the laptop.', 'Hourly, says the desktop.']);
        // Shown as two versions of the reply.
        const path = d.chat.path(conversation.id, {}).messages;
        expect(path.at(-1)?.branch?.count).toBe(2);
      }
      expect(visibleState(laptop)).toEqual(visibleState(desktop));
      expect(fromLaptop!.id).not.toBe(fromDesktop!.id);

      if (store.contents) {
        const words = ['ferry', 'Ferry', 'laptop', 'desktop', 'seven', 'Hourly'];
        for (const [object, bytes] of await store.contents()) {
          if (object.endsWith('keyring')) continue;
          for (const word of words)
            expect(bytes.includes(word), `${object} holds “${word}”`).toBe(false);
        }
      }
    });

    it('the same title renamed on both: one clear winner, the same everywhere', async () => {
      const a = await device('a');
      const b = await device('b');
      const c = await device('c');
      const conversation = a.chat.create({ title: 'Draft' });
      await syncAll(a, b, c);
      a.chat.update(conversation.id, { title: 'Named on A' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      b.chat.update(conversation.id, { title: 'Named on B' });
      await syncAll(b, a, c);
      const titles = [a, b, c].map((d) => d.chat.get(conversation.id)?.title);
      expect(new Set(titles).size).toBe(1);
      // B renamed last.
      expect(titles[0]).toBe('Named on B');
    });

    it('a computer an hour fast or slow neither wins nor loses because of its clock', async () => {
      for (const skew of [HOUR, -HOUR]) {
        const wrong = await device(`skewed ${skew}`, skew);
        const right = await device('right');
        const conversation = wrong.chat.create({ title: 'Start' });
        await syncAll(wrong, right);
        // The right clock renames after seeing the wrong one's change: it wins, whatever the hour.
        wrong.chat.update(conversation.id, { title: 'By the skewed clock' });
        await syncAll(wrong, right);
        right.chat.update(conversation.id, { title: 'Renamed after, on the right clock' });
        await syncAll(right, wrong);
        expect(wrong.chat.get(conversation.id)?.title).toBe('Renamed after, on the right clock');
        // And the skewed one, renaming after it saw that, wins in turn.
        wrong.chat.update(conversation.id, { title: 'Renamed last, on the skewed clock' });
        await syncAll(wrong, right);
        expect(right.chat.get(conversation.id)?.title).toBe('Renamed last, on the skewed clock');
        expect(visibleState(wrong)).toEqual(visibleState(right));
      }
    });

    // Through a folder, which tells no time, edits made apart are ordered by each computer's own clock.
    if (options.tellsTime)
      it('concurrent renames on a computer an hour off: the one made later in real time wins, when the storage tells the time', async () => {
        for (const skew of [HOUR, -HOUR]) {
          const wrong = await device(`skewed ${skew}`, skew);
          const right = await device('right');
          const conversation = right.chat.create({ title: 'Start' });
          await syncAll(right, wrong);
          expect(Math.abs(wrong.engine.status().clockOffsetMs + skew)).toBeLessThan(10_000);
          // Neither has seen the other's rename: the later one, in real time, wins.
          const first = skew > 0 ? wrong : right;
          const second = skew > 0 ? right : wrong;
          first.chat.update(conversation.id, { title: 'Renamed first' });
          // A Date header tells the time to the second: edits closer than that are a coin toss.
          await new Promise((resolve) => setTimeout(resolve, 1_100));
          second.chat.update(conversation.id, { title: 'Renamed second' });
          await syncAll(wrong, right);
          expect(wrong.chat.get(conversation.id)?.title).toBe('Renamed second');
          expect(right.chat.get(conversation.id)?.title).toBe('Renamed second');
        }
      });

    it('deleted on one while the other answers: the delete goes to the trash everywhere, a later answer brings it back', async () => {
      const a = await device('a');
      const b = await device('b');
      const old = a.chat.create({ title: 'Old notes' });
      const [q] = a.chat.append(old.id, [
        { role: 'user', content: 'Keep this?', status: 'complete' },
      ]);
      const busy = a.chat.create({ title: 'Still in use' });
      const [q2] = a.chat.append(busy.id, [{ role: 'user', content: 'Go on', status: 'complete' }]);
      await syncAll(a, b);

      // B answered in "Old notes" before A deleted it; B answers in "Still in use" after.
      b.chat.addChildren(old.id, q!.id, [
        { role: 'assistant', content: 'Yes', status: 'complete' },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      a.chat.softDelete(old.id);
      a.chat.softDelete(busy.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
      b.chat.addChildren(busy.id, q2!.id, [
        { role: 'assistant', content: 'Going on', status: 'complete' },
      ]);
      await syncAll(a, b);

      for (const d of [a, b]) {
        expect(d.chat.get(old.id)).toBeUndefined();
        const trash = d.chat.deleted().map((c) => c.id);
        expect(trash).toContain(old.id);
        // Nothing lost: the answer is in the trash with it.
        expect(d.chat.allMessages(old.id).map((m) => m.content)).toEqual(['Keep this?', 'Yes']);
        expect(d.chat.get(busy.id)?.title).toBe('Still in use');
      }
      expect(visibleState(a)).toEqual(visibleState(b));

      // Restored on B: back on A.
      b.chat.restore(old.id);
      await syncAll(b, a);
      expect(a.chat.get(old.id)?.title).toBe('Old notes');
    });

    it('a conversation purged on one computer is purged on the others and never reaches a computer that joins later', async () => {
      const a = await device('a');
      const b = await device('b');
      const kept = write(a, 'Kept');
      const purged = write(a, 'Purged');
      const withBytes = withFile(a, 'Purged with a file', 'bytes of a purged conversation');
      await syncAll(a, b);
      a.chat.softDelete(purged);
      a.chat.softDelete(withBytes.conversation);
      await syncAll(a, b);
      for (const d of [a, b]) expect(d.chat.deleted()).toHaveLength(2);
      // Its 30 days passed on A (B, say, was off): A purges it at its next start.
      expect(a.chat.purgeDeleted(0)).toBe(2);
      await syncAll(a, b);
      // Deleted for good on B as well: neither in its list nor in its trash.
      expect(b.chat.deleted()).toEqual([]);
      expect(b.chat.allMessages(purged)).toEqual([]);
      // A new computer, reading logs that still name it, never shows it.
      const c = await device('c');
      await syncAll(c);
      expect(c.chat.list().map((x) => x.id)).toEqual([kept]);
      expect(c.chat.deleted()).toEqual([]);
      expect(c.chat.allMessages(purged)).toEqual([]);
      expect(c.attachments.content(withBytes.sha256)).toBeUndefined();
      // Nothing waits for it.
      expect(c.db.one<{ n: number }>('SELECT count(*) AS n FROM sync_pending')?.n).toBe(0);
      await syncAll(a, b, c);
      for (const d of [b, c]) expect(visibleState(d)).toEqual(visibleState(a));
    });

    it('a computer that joins from a snapshot written after a purge never shows the purged conversation', async () => {
      const a = await device('a', 0, {
        compaction: { minBytes: 2_000, ratio: 0.5, partEntities: 4 },
      });
      const purged = write(a, 'Purged');
      await a.engine.sync();
      a.chat.softDelete(purged);
      await a.engine.sync();
      expect(a.chat.purgeDeleted(0)).toBe(1);
      await a.engine.sync();
      const before = snapshotOf(a)?.id;
      const kept = write(a, 'Kept');
      await compactAgain(a, before);
      const c = await device('c');
      await syncAll(c);
      expect(c.chat.list().map((x) => x.id)).toContain(kept);
      expect(c.chat.get(purged)).toBeUndefined();
      expect(c.chat.deleted()).toEqual([]);
      expect(c.db.one<{ n: number }>('SELECT count(*) AS n FROM sync_pending')?.n).toBe(0);
    });

    it('prompts, settings and prices merge per field; a deleted prompt stays deleted', async () => {
      const a = await device('a');
      const b = await device('b');
      const mine = a.prompts.create({
        kind: 'assistant',
        name: 'Reviewer',
        icon: '',
        description: '',
        tags: [],
        text: 'Review this.',
        model: null,
        temperature: null,
        maxTokens: null,
        starters: [],
      });
      const gone = a.prompts.create({
        kind: 'snippet',
        name: 'Old snippet',
        icon: '',
        description: '',
        tags: [],
        text: 'x',
        model: null,
        temperature: null,
        maxTokens: null,
        starters: [],
      });
      await a.settings.update({ theme: 'dark' });
      await b.settings.update({ chatDefaults: { temperature: 0.3, maxTokens: 100 } });
      await a.prices.setPrice('gpt-x', { inputPerMillion: 1, outputPerMillion: 2 });
      // Each computer has its own built-in prompts: they are not doubled.
      const builtIns = a.prompts.list({ includeHidden: true }).filter((p) => p.builtIn).length;
      await syncAll(a, b);
      expect(b.prompts.get(mine.id).text).toBe('Review this.');
      expect(b.prompts.list({ includeHidden: true }).filter((p) => p.builtIn)).toHaveLength(
        builtIns,
      );
      b.prompts.delete(gone.id);
      const { kind, name, icon, description, tags, model, temperature, maxTokens, starters } =
        a.prompts.get(mine.id);
      a.prompts.update(mine.id, {
        kind,
        name,
        icon,
        description,
        tags,
        text: 'Review this, kindly.',
        model,
        temperature,
        maxTokens,
        starters,
      });
      await syncAll(a, b);
      for (const d of [a, b]) {
        expect(d.prompts.list().map((p) => p.name)).not.toContain('Old snippet');
        expect(d.prompts.get(mine.id).text).toBe('Review this, kindly.');
        const settings = await d.settings.get();
        expect(settings.theme).toBe('dark');
        expect(settings.chatDefaults).toEqual({ temperature: 0.3, maxTokens: 100 });
        expect((await d.prices.get()).prices['gpt-x']).toEqual({
          inputPerMillion: 1,
          outputPerMillion: 2,
        });
      }
      // A price removed on B is removed on A.
      await b.prices.setPrice('gpt-x', null);
      await syncAll(b, a);
      expect((await a.prices.get()).prices['gpt-x']).toBeUndefined();
    });

    it('a quiet sync makes one request, and the same data synced twice changes nothing', async () => {
      const a = await device('a');
      const b = await device('b');
      const conversation = a.chat.create({ title: 'Quiet' });
      a.chat.append(conversation.id, [{ role: 'user', content: 'hello', status: 'complete' }]);
      await syncAll(a, b);
      const before = visibleState(b);
      const quiet = await b.engine.sync();
      expect(quiet.requests).toBeLessThanOrEqual(3);
      expect(quiet.uploaded.objects).toBe(0);
      expect(visibleState(b)).toEqual(before);
    });

    // Small snapshot parts, and a snapshot after a few kilobytes of logs.
    const SMALL = { minBytes: 2_000, ratio: 0.5, partEntities: 4 };

    it('a computer reading a snapshot while another compacts and deletes files nothing names: the old parts stay for the grace period, nothing is lost', async () => {
      const a = await device('a', 0, { compaction: SMALL });
      const b = await device('b');
      const keptFile = withFile(a, 'Kept', 'bytes of a file still in use');
      const gone = withFile(a, 'Deleted for good', 'bytes of a file nothing names later');
      for (let i = 0; i < 4; i += 1) write(a, `conversation ${i}`);
      await syncAll(a, b);
      expect((await store.target().list('b/')).objects).toHaveLength(2);
      // Deleted, and purged from every computer's trash when its 30 days have passed.
      a.chat.softDelete(gone.conversation);
      await syncAll(a, b);
      for (const d of [a, b]) expect(d.chat.purgeDeleted(0)).toBe(1);
      // The day after, the file nothing names is noted; it goes the day after that.
      later(25 * HOUR, a, b);
      await syncAll(a, b);
      expect((await store.target().list('b/')).objects).toHaveLength(2);
      later(25 * HOUR, a, b);
      const old = snapshotOf(a)!;
      expect(old.parts).toBeGreaterThan(2);
      // A new computer, in the middle of reading A's snapshot when A compacts again and
      // deletes the file.
      let partsRead = 0;
      let newSnapshot: string | undefined;
      const c = await device('c', 50 * HOUR, {
        wrap: (inner) =>
          hooked(inner, async (name) => {
            if (!name.startsWith('s/') || (partsRead += 1) !== 2) return;
            newSnapshot = await compactAgain(a, old.id);
          }),
      });
      const reading = await c.engine.sync();
      expect(reading.problem, JSON.stringify(reading.problem)).toBeNull();
      expect(newSnapshot).toBeDefined();
      expect(partsRead).toBeGreaterThanOrEqual(old.parts);
      expect(reading.refused).toEqual([]);
      // The file nothing named is gone from the storage; the one in use is not.
      expect((await store.target().list('b/')).objects).toHaveLength(1);
      expect(await present(objectName(keys, 'blob', keptFile.sha256))).toBe(true);
      // The old parts are still there for a while…
      for (const name of partNames(a, old)) expect(await present(name)).toBe(true);
      await syncAll(a, b, c);
      expect(visibleState(c)).toEqual(visibleState(a));
      expect(visibleState(b)).toEqual(visibleState(a));
      expect(c.attachments.content(keptFile.sha256)).toBeDefined();
      // …and gone after it.
      later(2 * HOUR, a, b, c);
      await syncAll(a, b, c);
      for (const name of partNames(a, old)) expect(await present(name)).toBe(false);
      // The same bytes attached again are uploaded again, and reach the others.
      const again = withFile(a, 'Attached again', 'bytes of a file nothing names later');
      expect(again.sha256).toBe(gone.sha256);
      await a.engine.sync();
      expect(await present(objectName(keys, 'blob', gone.sha256))).toBe(true);
      await syncAll(a, b, c);
      expect(await present(objectName(keys, 'blob', gone.sha256))).toBe(true);
      for (const d of [b, c]) expect(d.attachments.content(gone.sha256)).toBeDefined();
    });

    it('a computer cut off while reading a snapshot, away past the grace period, starts again from the new one; nothing is lost', async () => {
      const a = await device('a', 0, { compaction: SMALL });
      const b = await device('b');
      for (let i = 0; i < 6; i += 1) write(a, `conversation ${i}`);
      await syncAll(a, b);
      const old = snapshotOf(a)!;
      expect(old.parts).toBeGreaterThan(2);
      // C's connection drops after the first part of A's snapshot.
      let partsRead = 0;
      let offline = false;
      const c = await device('c', 0, {
        wrap: (inner) =>
          hooked(inner, async (name) => {
            if (name.startsWith('s/') && (partsRead += 1) === 2) offline = true;
            if (offline)
              throw new TargetError(
                'unreachable',
                said('sync.target.unreachable', { host: 'storage', code: 'ECONNRESET' }),
              );
          }),
      });
      const cut = await c.engine.sync();
      expect(cut.problem?.problem).toBe('unreachable');
      // Written on C while away.
      const away = c.chat.create({ title: 'Written while away' });
      c.chat.append(away.id, [{ role: 'user', content: 'still here?', status: 'complete' }]);
      // A moves on: a new snapshot, and two hours later the old one is gone.
      await compactAgain(a, old.id);
      await syncAll(a, b);
      later(2 * HOUR, a, b, c);
      await syncAll(a, b);
      for (const name of partNames(a, old)) expect(await present(name)).toBe(false);
      // Back online: C reads the new snapshot.
      offline = false;
      const back = await c.engine.sync();
      expect(back.problem, JSON.stringify(back.problem)).toBeNull();
      await syncAll(a, b, c);
      expect(visibleState(c)).toEqual(visibleState(a));
      expect(visibleState(b)).toEqual(visibleState(a));
      expect(a.chat.get(away.id)?.title).toBe('Written while away');
      expect(visibleState(a).length).toBeGreaterThan(6);
    });

    it('a file gone from the storage while a message still names it is uploaded again by a computer that has it', async () => {
      const a = await device('a');
      const b = await device('b');
      const file = withFile(a, 'With a file', 'the bytes that went missing');
      await syncAll(a, b);
      expect(b.attachments.content(file.sha256)).toBeDefined();
      // Deleted from the storage (by a computer that had not yet seen a message naming it).
      await store.target().delete(objectName(keys, 'blob', file.sha256));
      const c = await device('c');
      await c.engine.sync();
      expect(c.attachments.content(file.sha256)).toBeUndefined();
      // C's head says it waits for it; B, reading it, uploads it again.
      await syncAll(b, c);
      expect(c.attachments.content(file.sha256)).toBeDefined();
      expect(visibleState(c)).toEqual(visibleState(a));
    });

    it('a wrong recovery phrase is said plainly and writes nothing', async () => {
      await device('a');
      const target = store.target();
      const listed = async () =>
        (await Promise.all(['h/', 'o/', 's/', 'b/'].map((p) => target.list(p)))).flatMap((l) =>
          l.objects.map((o) => `${o.name}:${o.size}`),
        );
      const before = (await listed()).sort();
      const wrong = newRecoveryPhrase();
      await expect(openStorage(target, wrong, TEST_COST)).rejects.toMatchObject({
        messageId: 'sync.phrase.wrong',
      });
      expect((await listed()).sort()).toEqual(before);
    });
  });
}

/** A conversation of a few messages. */
function write(d: SyncDevice, title: string): string {
  const conversation = d.chat.create({ title });
  for (let i = 0; i < 3; i += 1)
    d.chat.append(conversation.id, [
      {
        role: i % 2 ? 'assistant' : 'user',
        content: `${title} ${i} ${'words '.repeat(30)}`,
        status: 'complete',
      },
    ]);
  return conversation.id;
}

/** A conversation whose message has a file; the file's SHA-256. */
function withFile(
  d: SyncDevice,
  title: string,
  text: string,
): { conversation: string; sha256: string } {
  const conversation = d.chat.create({ title });
  const data = new TextEncoder().encode(text);
  d.chat.transaction(() => {
    const [message] = d.chat.append(conversation.id, [
      { role: 'user', content: title, status: 'complete' },
    ]);
    d.attachments.add(message!.id, [
      { name: 'file.txt', kind: 'text', mimeType: 'text/plain', data, text },
    ]);
  });
  return { conversation: conversation.id, sha256: createHash('sha256').update(data).digest('hex') };
}

/** A target that calls `before` ahead of each read of an object. */
function hooked(inner: SyncTarget, before: (name: string) => Promise<void>): SyncTarget {
  return {
    description: inner.description,
    list: (prefix) => inner.list(prefix),
    get: async (name) => {
      await before(name);
      return inner.get(name);
    },
    putIfAbsent: (name, bytes) => inner.putIfAbsent(name, bytes),
    delete: (name) => inner.delete(name),
  };
}

/** Every file under a folder, by its path inside it. */
export async function folderContents(root: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (dir: string, prefix: string) => {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      if ((await stat(path)).isDirectory()) await walk(path, `${prefix}${name}/`);
      else out.set(`${prefix}${name}`, await readFile(path));
    }
  };
  await walk(root, '');
  return out;
}

/** Every object a target holds, read through it. */
export async function targetContents(target: SyncTarget): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const prefix of ['h/', 'o/', 's/', 'b/']) {
    for (const object of (await target.list(prefix)).objects) {
      const bytes = await target.get(object.name);
      if (bytes !== undefined) out.set(object.name, Buffer.from(bytes));
    }
  }
  return out;
}
