/**
 * The sync scenarios every storage must pass, run against a folder, a real WebDAV server and a
 * real S3-compatible server: two or three computers with their own user data folders syncing
 * through one storage.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRecoveryPhrase } from '../../../electron/main/services/sync/sync-crypto';
import { openStorage } from '../../../electron/main/services/sync/sync-setup';
import type { SyncTarget } from '../../../electron/main/services/sync/targets/target';
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

    async function device(label: string, skewMs = 0): Promise<SyncDevice> {
      const target = store.target();
      const { keys } = await openStorage(target, phrase, TEST_COST);
      const opened = await openSyncDevice({ target, keys, label, skewMs });
      devices.push(opened);
      return opened;
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
