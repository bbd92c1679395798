/**
 * Section 13, sync: a computer syncing is killed with SIGKILL at random moments mid-upload and
 * mid-download (a process of its own, over a storage folder slowed to 25 ms a request), and
 * synced to the end afterwards: nothing is lost, nothing is applied or stored twice, and both
 * computers end with the same conversations. Killed too while it deletes the snapshot parts and
 * logs its compactions superseded, past their grace period: another computer never finds an
 * object a head names gone, and nothing is left behind. Then the property: any interleaving of edits on
 * three computers, synced in any order, ends with every computer in the same state.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newRecoveryPhrase } from '../../electron/main/services/sync/sync-crypto';
import { openStorage } from '../../electron/main/services/sync/sync-setup';
import { FolderTarget } from '../../electron/main/services/sync/targets/folder-target';
import {
  openSyncDevice,
  visibleState,
  type SyncDevice,
  type SyncDeviceOptions,
} from '../fakes/sync-device';
import { TEST_COST } from '../integration/sync/scenarios';
import { bundleScript } from './lib/bundle';
import { cleanUp, suiteDir } from './lib/canary';
import { count, recordFigures } from './lib/record';

const KILLS = count(30, 3);
const RUNS = count(60, 6);
const CHILD = join(import.meta.dirname, '../fakes/sync-crash-child.ts');
const DELAY_MS = 25;

let root: string;
let child: string;
const figures: Parameters<typeof recordFigures>[2] = [];

beforeAll(async () => {
  root = await suiteDir('sync');
  child = await bundleScript(CHILD, 'sync-crash-child');
});
afterAll(() => {
  recordFigures(13, 'Sync', figures, [
    `Storage: a folder, every request slowed to ${DELAY_MS} ms; kills at a uniform random moment over 1.2× an uninterrupted sync.`,
  ]);
  cleanUp([root]);
});

/** Runs one sync in a child process and kills it `afterMs` after it starts syncing (or lets it end). */
async function syncKilled(
  dir: string,
  storage: string,
  key: string,
  afterMs: number,
  options?: Pick<SyncDeviceOptions, 'skewMs' | 'compaction'>,
): Promise<boolean> {
  const args = [child, dir, storage, key, String(DELAY_MS)];
  if (options) args.push(JSON.stringify(options));
  const process_ = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  process_.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => process_.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    process_.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('syncing\n')) resolve();
    });
    process_.on('exit', (code) =>
      out.includes('syncing') ? resolve() : reject(new Error(`child exited ${code}: ${err}`)),
    );
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, afterMs))), exited]);
  clearTimeout(timer);
  const killed = process_.exitCode === null;
  process_.kill('SIGKILL');
  await exited;
  return killed;
}

async function timedSync(dir: string, storage: string, key: string): Promise<number> {
  const start = Date.now();
  await syncKilled(dir, storage, key, 60_000);
  return Date.now() - start;
}

function seed(device: SyncDevice, conversations: number, messages: number, tag: string): void {
  for (let c = 0; c < conversations; c += 1) {
    const conversation = device.chat.create({ title: `${tag} ${c}` });
    for (let m = 0; m < messages; m += 1)
      device.chat.append(conversation.id, [
        {
          role: m % 2 === 0 ? 'user' : 'assistant',
          content: `${tag} ${c}.${m} ${'text '.repeat(20)}`,
          status: 'complete',
        },
      ]);
  }
}

it(`loses and doubles nothing across ${KILLS} kills mid-upload and ${KILLS} mid-download`, async () => {
  const storage = await mkdtemp(join(root, 'storage-'));
  const target = new FolderTarget(storage);
  const { keys } = await openStorage(target, newRecoveryPhrase(), TEST_COST);
  const key = keys.master.toString('base64');
  const aDir = await mkdtemp(join(root, 'a-'));
  const bDir = await mkdtemp(join(root, 'b-'));
  let a = await openSyncDevice({
    target,
    keys,
    dir: aDir,
    compaction: { minBytes: 64 * 1024, ratio: 0.5 },
  });
  let killedUpload = 0;
  let killedDownload = 0;
  // Mid-upload: A has new conversations each round, and is killed while sending them.
  for (let round = 0; round < KILLS; round += 1) {
    seed(a, 12, 4, `upload round ${round}`);
    await a.close();
    const whole = round === 0 ? 40 * DELAY_MS : 12 * DELAY_MS;
    if (await syncKilled(aDir, storage, key, Math.random() * whole * 1.2)) killedUpload += 1;
    a = await openSyncDevice({
      target,
      keys,
      dir: aDir,
      compaction: { minBytes: 64 * 1024, ratio: 0.5 },
    });
  }
  expect((await a.engine.sync()).problem).toBeNull();
  await a.close();
  // Mid-download: B, new, is killed while taking it all in.
  // How long an uninterrupted first sync takes, on a copy of the storage and a throwaway folder.
  const copy = await mkdtemp(join(root, 'storage-copy-'));
  await cp(storage, copy, { recursive: true });
  const throwaway = await mkdtemp(join(root, 'timing-'));
  const whole = await timedSync(throwaway, copy, key);
  for (let round = 0; round < KILLS; round += 1)
    if (await syncKilled(bDir, storage, key, Math.random() * whole * 1.2)) killedDownload += 1;
  a = await openSyncDevice({ target, keys, dir: aDir });
  const b = await openSyncDevice({ target, keys, dir: bDir });
  try {
    expect((await b.engine.sync()).problem).toBeNull();
    expect((await a.engine.sync()).problem).toBeNull();
    const expected = visibleState(a);
    expect(expected).toHaveLength(12 * KILLS);
    expect(visibleState(b)).toEqual(expected);
    const messages = (d: SyncDevice) =>
      d.db.one<{ n: number }>('SELECT count(*) AS n FROM chat_messages')!.n;
    expect(messages(b)).toBe(12 * 4 * KILLS);
    expect(messages(a)).toBe(12 * 4 * KILLS);
    expect(a.db.integrityCheck()).toBe('ok');
    expect(b.db.integrityCheck()).toBe('ok');
    // One head per computer: none left behind by a kill.
    expect((await target.list('h/')).objects).toHaveLength(2);
    figures.push(
      { name: 'kills mid-upload', value: killedUpload, target: `${KILLS} tried` },
      { name: 'kills mid-download', value: killedDownload, target: `${KILLS} tried` },
      { name: 'conversations lost', value: 0, target: '0', ok: true },
      { name: 'messages doubled', value: messages(b) - 12 * 4 * KILLS, target: '0', ok: true },
    );
  } finally {
    await a.close();
    await b.close();
  }
});

it(`keeps every object a head names across ${KILLS} kills while superseded snapshot parts and logs are deleted`, async () => {
  const HOUR = 3_600_000;
  const storage = await mkdtemp(join(root, 'superseded-'));
  const target = new FolderTarget(storage);
  const { keys } = await openStorage(target, newRecoveryPhrase(), TEST_COST);
  const key = keys.master.toString('base64');
  const aDir = await mkdtemp(join(root, 'superseded-a-'));
  // A snapshot at every sync that sent something, in small parts: each round supersedes many.
  const compaction = { minBytes: 1, ratio: 0, partEntities: 10 };
  let skewMs = 0;
  const openA = () => openSyncDevice({ target, keys, dir: aDir, compaction, skewMs });
  let a = await openA();
  const b = await openSyncDevice({ target, keys, dir: await mkdtemp(join(root, 'superseded-b-')) });
  const superseded = (d: SyncDevice) =>
    (
      JSON.parse(
        d.db.one<{ value: string }>("SELECT value FROM sync_state WHERE key = 'superseded'")
          ?.value ?? '[]',
      ) as unknown[]
    ).length;
  let killed = 0;
  let deleted = 0;
  try {
    for (let round = 0; round < KILLS; round += 1) {
      seed(a, 6, 4, `superseded round ${round}`);
      for (const d of [a, b, a]) expect((await d.engine.sync()).problem).toBeNull();
      const waiting = superseded(a);
      expect(waiting).toBeGreaterThan(0);
      deleted += waiting;
      await a.close();
      // Two hours later, A's next sync deletes them: killed at a random moment of it.
      skewMs += 2 * HOUR;
      const whole = (4 + waiting) * DELAY_MS;
      if (await syncKilled(aDir, storage, key, Math.random() * whole * 1.2, { skewMs, compaction }))
        killed += 1;
      a = await openA();
      // B, reading A's head now, finds everything it names.
      const report = await b.engine.sync();
      expect(report.problem).toBeNull();
      expect(report.refused).toEqual([]);
    }
    skewMs += 2 * HOUR;
    await a.close();
    a = await openA();
    expect((await a.engine.sync()).problem).toBeNull();
    expect(superseded(a)).toBe(0);
    // Nothing left behind: the storage holds A's last snapshot and no other part.
    const snapshot = JSON.parse(
      a.db.one<{ value: string }>("SELECT value FROM sync_state WHERE key = 'snapshot'")!.value,
    ) as { parts: number };
    expect((await target.list('s/')).objects).toHaveLength(snapshot.parts);
    // A new computer starts from it and ends with everything.
    const c = await openSyncDevice({
      target,
      keys,
      dir: await mkdtemp(join(root, 'superseded-c-')),
    });
    try {
      expect((await c.engine.sync()).problem).toBeNull();
      expect((await b.engine.sync()).problem).toBeNull();
      expect(visibleState(a)).toHaveLength(6 * KILLS);
      expect(visibleState(b)).toEqual(visibleState(a));
      expect(visibleState(c)).toEqual(visibleState(a));
    } finally {
      await c.close();
    }
    figures.push(
      { name: 'kills while deleting superseded objects', value: killed, target: `${KILLS} tried` },
      { name: 'superseded objects deleted', value: deleted, target: '—', ok: true },
      { name: 'objects a head names found missing', value: 0, target: '0', ok: true },
    );
  } finally {
    await a.close();
    await b.close();
  }
});

type Op =
  | { kind: 'create'; device: number }
  | { kind: 'reply'; device: number; pick: number; text: string }
  | { kind: 'rename'; device: number; pick: number; title: string }
  | { kind: 'pin'; device: number; pick: number }
  | { kind: 'delete'; device: number; pick: number }
  | { kind: 'restore'; device: number; pick: number }
  | { kind: 'theme'; device: number; theme: 'light' | 'dark' | 'system' }
  | { kind: 'sync'; device: number };

const DEVICES = 3;
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), device: fc.nat(DEVICES - 1) }),
  fc.record({
    kind: fc.constant('reply' as const),
    device: fc.nat(DEVICES - 1),
    pick: fc.nat(),
    text: fc.string({ maxLength: 12 }),
  }),
  fc.record({
    kind: fc.constant('rename' as const),
    device: fc.nat(DEVICES - 1),
    pick: fc.nat(),
    title: fc.string({ minLength: 1, maxLength: 12 }),
  }),
  fc.record({ kind: fc.constant('pin' as const), device: fc.nat(DEVICES - 1), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), device: fc.nat(DEVICES - 1), pick: fc.nat() }),
  fc.record({ kind: fc.constant('restore' as const), device: fc.nat(DEVICES - 1), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('theme' as const),
    device: fc.nat(DEVICES - 1),
    theme: fc.constantFrom('light' as const, 'dark' as const, 'system' as const),
  }),
  fc.record({ kind: fc.constant('sync' as const), device: fc.nat(DEVICES - 1) }),
);

async function perform(devices: SyncDevice[], op: Op): Promise<void> {
  const d = devices[op.device]!;
  const all = d.chat.list();
  const trash = d.chat.deleted();
  switch (op.kind) {
    case 'create':
      d.chat.create({ title: 'New' });
      return;
    case 'reply': {
      const conversation = all[op.pick % Math.max(1, all.length)];
      if (conversation === undefined) return;
      const messages = d.chat.allMessages(conversation.id);
      const parent = messages.length === 0 ? null : messages[op.pick % messages.length]!.id;
      d.chat.append(
        conversation.id,
        [{ role: 'user', content: op.text, status: 'complete' }],
        parent,
      );
      return;
    }
    case 'rename': {
      const conversation = all[op.pick % Math.max(1, all.length)];
      if (conversation) d.chat.update(conversation.id, { title: op.title });
      return;
    }
    case 'pin': {
      const conversation = all[op.pick % Math.max(1, all.length)];
      if (conversation) d.chat.update(conversation.id, { pinned: !conversation.pinned });
      return;
    }
    case 'delete': {
      const conversation = all[op.pick % Math.max(1, all.length)];
      if (conversation) d.chat.softDelete(conversation.id);
      return;
    }
    case 'restore': {
      const conversation = trash[op.pick % Math.max(1, trash.length)];
      if (conversation) d.chat.restore(conversation.id);
      return;
    }
    case 'theme':
      await d.settings.update({ theme: op.theme });
      return;
    case 'sync':
      expect((await d.engine.sync()).problem).toBeNull();
  }
}

it(`any interleaving of edits on ${DEVICES} computers, synced in any order, converges (${RUNS} runs)`, async () => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(opArbitrary, { minLength: 5, maxLength: 30 }),
      fc.array(fc.nat(DEVICES - 1), { minLength: DEVICES * 2, maxLength: DEVICES * 3 }),
      async (ops, finalOrder) => {
        runs += 1;
        const storage = await mkdtemp(join(root, 'prop-'));
        const target = new FolderTarget(storage);
        const { keys } = await openStorage(target, newRecoveryPhrase(), TEST_COST);
        const devices: SyncDevice[] = [];
        try {
          for (let i = 0; i < DEVICES; i += 1)
            devices.push(
              await openSyncDevice({ target, keys, dir: await mkdtemp(join(root, `prop-d${i}-`)) }),
            );
          for (const op of ops) {
            await perform(devices, op);
            // Apart in wall time, as edits by a person are.
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          // Then every computer syncs, in a random order, then twice more in turn.
          for (const index of [...finalOrder, ...devices.keys(), ...devices.keys()])
            expect((await devices[index]!.engine.sync()).problem).toBeNull();
          const states = devices.map(visibleState);
          for (const state of states.slice(1)) expect(state).toEqual(states[0]);
          const trash = devices.map((d) =>
            d.chat
              .deleted()
              .map((c) => c.id)
              .sort(),
          );
          for (const list of trash.slice(1)) expect(list).toEqual(trash[0]);
          const themes = await Promise.all(
            devices.map(async (d) => (await d.settings.get()).theme),
          );
          expect(new Set(themes).size).toBe(1);
          // Every message written anywhere is on every computer.
          const ids = devices.map((d) =>
            d.db.all<{ id: string }>('SELECT id FROM chat_messages ORDER BY id').map((r) => r.id),
          );
          for (const list of ids.slice(1)) expect(list).toEqual(ids[0]);
        } finally {
          for (const d of devices) await d.destroy();
          await rm(storage, { recursive: true, force: true });
        }
      },
    ),
    { numRuns: RUNS },
  );
  figures.push({ name: 'interleavings that converged', value: runs, target: `${RUNS}`, ok: true });
});
