/**
 * Section 11, backups: a process taking a backup, and one restoring one, killed with SIGKILL at
 * random moments; bad backups refused before anything changes; backups across releases; the
 * schedule on a fake clock; a full drive, real (a small tmpfs) and injected (ENOSPC).
 *
 * After every kill: the live data passes integrity_check and is exactly as before (a backup) or
 * exactly one of before and restored (a restore), never a mix; and every backup in the folder
 * whose checksum file says it was verified passes a full check (checksum, integrity, every
 * table's rows against its manifest).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAppServices, KNOWN_SCHEMA } from '../../electron/main/app-services';
import {
  inspectBackup,
  vacuumInto,
  type CopyDatabase,
} from '../../electron/main/services/backups/backup-file';
import { nodeBackupFs, type BackupFs } from '../../electron/main/services/backups/backup-folder';
import {
  BackupsService,
  type BackupsServiceOptions,
} from '../../electron/main/services/backups/backups-service';
import { ChatStore } from '../../electron/main/services/chat/store';
import { CHAT_MIGRATIONS } from '../../electron/main/services/chat/migrations';
import {
  databasePath,
  migrate,
  openDatabase,
  type Db,
} from '../../electron/main/services/database';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { FakeClock } from '../fakes/fake-clock';
import { mountSmallTmpfs } from '../fakes/small-tmpfs';
import { SPOILED_BACKUPS } from '../fakes/spoiled-backups';
import { bundleScript } from './lib/bundle';
import { CANARY_KEY, cleanUp, suiteDir, sweep } from './lib/canary';
import { count, FULL, recordFigures, type Figure } from './lib/record';

const BACKUP_KILLS = count(100, 4);
const RESTORE_KILLS = count(100, 4);
const FIXTURE = resolve(import.meta.dirname, '../fixtures/data-0.1/user-data');
const CHILD = resolve(import.meta.dirname, '../fakes/backup-crash-child.ts');
const INSTALLATION = 'a1b2c3';
const HOUR = 3_600_000;
/** The heavy data folder's conversations (20 messages each): about 10 MB in a full run. */
const CONVERSATIONS = count(400, 60);
/** The restore rounds' data is lighter: each round resets it, restores and reopens it. */
const RESTORE_CONVERSATIONS = count(150, 60);
/** Hours of the hourly schedule simulated a minute at a time. */
const HOURS = count(48, 6);
/** Days of a daily schedule, asleep between mornings. */
const DAYS = count(40, 10);

let root: string;
let bundle: string | undefined;
const figures: Figure[] = [];
const notes: string[] = [];
const problems: string[] = [];
/** Backups claiming verification that are not sound, found during the restore kills. */
const claimsFound: string[] = [];

beforeAll(async () => {
  root = await suiteDir('backups');
  try {
    bundle = await bundleScript(CHILD, 'backup-crash-child');
  } catch {
    bundle = undefined;
  }
});
afterAll(() => cleanUp([root]));

/**
 * A data folder of a heavy user: the 0.1 data plus `conversations` conversations of 20 messages
 * (about 10 MB in a full run); its backups go to `folder`, never on schedule (the test drives them).
 */
async function heavyData(
  dir: string,
  folder: string,
  conversations = CONVERSATIONS,
): Promise<void> {
  await cp(FIXTURE, dir, { recursive: true });
  const db = await openDatabase({ path: databasePath(dir) });
  const store = await ChatStore.open(db);
  const words = 'tide pool anemone kelp barnacle urchin limpet starfish crab heron '.repeat(12);
  {
    for (let c = 0; c < conversations; c++) {
      const conversation = store.create({ model: 'demo-chat', title: `Conversation ${c}` });
      store.append(
        conversation.id,
        Array.from({ length: 20 }, (_, m) => ({
          role: m % 2 === 0 ? ('user' as const) : ('assistant' as const),
          content: `${c}.${m} ${words}`,
          status: 'complete' as const,
        })),
      );
    }
  }
  db.close();
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(dir, 'backups.json'),
    JSON.stringify({ version: 1, installationId: INSTALLATION, folder, schedule: 'off' }),
  );
}

/** A digest of everything a person would notice in a data folder, read straight from the files. */
async function digest(dir: string): Promise<{ digest: string; integrity: string; rows: number }> {
  const db = await openDatabase({ path: databasePath(dir) });
  try {
    const hash = createHash('sha256');
    const integrity = db.integrityCheck();
    let rows = 0;
    for (const table of [
      'chat_conversations',
      'chat_messages',
      'embedding_runs',
      'embedding_items',
    ]) {
      for (const row of db.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY rowid`)) {
        hash.update(
          JSON.stringify(row, (_k, v: unknown) =>
            v instanceof ArrayBuffer ? Buffer.from(v).toString('hex') : v,
          ),
        );
        rows++;
      }
    }
    for (const file of ['settings.json', 'connections.json', 'model-preferences.json'])
      hash.update(await readFile(join(dir, file), 'utf8').catch(() => `(no ${file})`));
    return { digest: hash.digest('hex'), integrity, rows };
  } finally {
    db.close();
  }
}

interface Child {
  /** Stages printed so far. */
  stages: string[];
  /** When each stage began, in ms after `ready`. */
  stageAt: Map<string, number>;
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** Resolves when the child reports `stage` (or has exited). */
  reached(stage: string): Promise<void>;
  kill(): Promise<void>;
}

function startChild(dir: string, mode: 'backup' | 'restore', name?: string): Child {
  const script = bundle === undefined ? ['--import', 'tsx', CHILD] : [bundle];
  const args = [...script, dir, CANARY_KEY, mode, ...(name ? [name] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const stages: string[] = [];
  const stageAt = new Map<string, number>();
  const waiting = new Map<string, Array<() => void>>();
  let readyAt = 0;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  const ready = new Promise<void>((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const stage = line.startsWith('stage ') ? line.slice(6) : line === 'done' ? 'done' : '';
        if (line === 'ready') {
          readyAt = performance.now();
          done();
        } else if (stage) {
          stages.push(stage);
          if (!stageAt.has(stage)) stageAt.set(stage, performance.now() - readyAt);
          for (const wake of waiting.get(stage) ?? []) wake();
          waiting.delete(stage);
        }
      }
    });
    child.on('exit', (code) =>
      code === 0 ? done() : fail(new Error(`child exited ${code}: ${stderr}`)),
    );
  });
  return {
    stages,
    stageAt,
    ready,
    exited,
    reached: (stage) =>
      stageAt.has(stage)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((wake) => waiting.set(stage, [...(waiting.get(stage) ?? []), wake])),
            exited.then(() => undefined),
          ]),
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * One uninterrupted run, to spread the kills over: how long it takes from `ready` to `done`, and
 * when each of its stages began.
 */
async function timeOneRun(
  dir: string,
  mode: 'backup' | 'restore',
  name?: string,
): Promise<{ ms: number; stageAt: Map<string, number> }> {
  const child = startChild(dir, mode, name);
  await child.ready;
  const code = await child.exited;
  if (code !== 0) throw new Error(`the ${mode} run failed (${code})`);
  return { ms: child.stageAt.get('done') ?? 0, stageAt: child.stageAt };
}

/** Every backup whose checksum file claims it was verified, checked in full. Returns the bad ones. */
async function falseClaims(folder: string): Promise<string[]> {
  const bad: string[] = [];
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.db.sha256')) continue;
    const backup = name.slice(0, -'.sha256'.length);
    try {
      const inspection = await inspectBackup(join(folder, backup), {
        knownSchema: KNOWN_SCHEMA,
        appVersion: '0.2.0',
      });
      if (inspection.checksum !== 'matches') bad.push(`${backup}: checksum not checked`);
    } catch (error) {
      bad.push(`${backup}: ${(error as Error).message}`);
    }
  }
  return bad;
}

function tally(stages: string[]): string {
  return stages.at(-1) ?? 'starting';
}

function countBy(list: string[]): string {
  const counts = new Map<string, number>();
  for (const item of list) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
}

it(
  `keeps the live data and every verified backup sound across ${BACKUP_KILLS} kills (-9) during a backup`,
  async () => {
    const dir = join(root, 'backup-kills');
    const folder = join(root, 'backup-kills-folder');
    await heavyData(dir, folder);
    const before = await digest(dir);
    // Three uninterrupted runs: the kills spread over the median's length (a first run is slower).
    const runMs = median(
      [
        await timeOneRun(dir, 'backup'),
        await timeOneRun(dir, 'backup'),
        await timeOneRun(dir, 'backup'),
      ].map((run) => run.ms),
    );
    for (const name of await readdir(folder)) await rm(join(folder, name));
    let liveIntact = 0;
    let claimsChecked = 0;
    const claims: string[] = [];
    const killedAt: string[] = [];
    const leftovers: string[] = [];

    for (let round = 0; round < BACKUP_KILLS; round++) {
      const child = startChild(dir, 'backup');
      await child.ready;
      await new Promise((r) => setTimeout(r, Math.random() * runMs * 1.1));
      await child.kill();
      killedAt.push(tally(child.stages));
      const after = await digest(dir);
      if (after.integrity === 'ok' && after.digest === before.digest) liveIntact++;
      else problems.push(`backup kill ${round}: the live data changed (${after.integrity})`);
      const names = await readdir(folder);
      leftovers.push(
        names.some((n) => n.endsWith('.partial'))
          ? 'an unfinished copy'
          : names.some((n) => n.endsWith('.db') && !names.includes(`${n}.sha256`))
            ? 'a copy without its checksum'
            : 'nothing unfinished',
      );
      const bad = await falseClaims(folder);
      claimsChecked += names.filter((n) => n.endsWith('.sha256')).length;
      claims.push(...bad);
      // The verified ones are removed between rounds (the folder would grow by 10 MB a round);
      // what a kill left unfinished stays, for the next run to clear up.
      for (const name of names)
        if (name.endsWith('.sha256'))
          await rm(join(folder, name.slice(0, -7))).then(() => rm(join(folder, name)));
    }
    // One more run clears up what the kills left, and succeeds.
    await timeOneRun(dir, 'backup');
    const final = await readdir(folder);
    const cleared = !final.some((n) => n.endsWith('.partial'));
    const finalClaims = await falseClaims(folder);
    const sealed = final.filter((n) => n.endsWith('.sha256')).length;
    const unchecked = final.filter((n) => n.endsWith('.db') && !final.includes(`${n}.sha256`));

    figures.push(
      {
        name: 'Kills during a backup (SIGKILL)',
        value: BACKUP_KILLS,
        target: '100',
        ok: FULL ? BACKUP_KILLS >= 100 : undefined,
      },
      { name: '… at the stage', value: countBy(killedAt) },
      { name: '… leaving', value: countBy(leftovers) },
      {
        name: 'Live data intact (integrity_check ok, every row and data file as before)',
        value: liveIntact,
        target: `${BACKUP_KILLS}`,
        ok: liveIntact === BACKUP_KILLS,
      },
      {
        name: 'Backups claiming to be verified (checksum beside them), each checked in full',
        value: claimsChecked,
      },
      {
        name: '… of which not sound',
        value: claims.length + finalClaims.length,
        target: '0',
        ok: claims.length + finalClaims.length === 0,
      },
      {
        name: 'Next backup after the kills: unfinished copies cleared, copies without checksum rechecked and sealed',
        value: cleared && unchecked.length === 0 ? `yes (${sealed} sealed backups)` : 'no',
        ok: cleared && unchecked.length === 0,
      },
      {
        name: 'One uninterrupted backup of the data folder (copy, seal, verify, hash)',
        value: Math.round(runMs),
        unit: 'ms',
      },
    );
    notes.push(
      `The data folder: the 0.1 fixture plus ${CONVERSATIONS} conversations of 20 messages (${before.rows.toLocaleString('en-US')} rows, about ${Math.round(((await readFile(databasePath(dir))).length / 1e6) * 10) / 10} MB). Each round a new Node process (${bundle === undefined ? 'through tsx' : 'bundled by esbuild'}) opens the app's services on it and takes one backup; it is killed after a uniform random delay over 1.1× the time an uninterrupted backup takes (the median of three) from the moment its services are open.`,
    );
    expect(liveIntact).toBe(BACKUP_KILLS);
    expect([...claims, ...finalClaims]).toEqual([]);
    expect(cleared).toBe(true);
  },
  count(1_500_000, 120_000),
);

it(
  `leaves the data wholly as it was or wholly restored across ${RESTORE_KILLS} kills (-9) during a restore`,
  async () => {
    const pristine = join(root, 'restore-pristine');
    const folder = join(root, 'restore-kills-folder');
    await heavyData(pristine, folder, RESTORE_CONVERSATIONS);
    // The backup to restore: the same data a while later (conversations gone, settings changed).
    const later = join(root, 'restore-later');
    await cp(pristine, later, { recursive: true });
    {
      const db = await openDatabase({ path: databasePath(later) });
      db.exec("DELETE FROM chat_conversations WHERE title LIKE 'Conversation 1%'");
      db.close();
      await writeFile(
        join(later, 'settings.json'),
        (await readFile(join(later, 'settings.json'), 'utf8')).replace('"dark"', '"light"'),
      );
    }
    await timeOneRun(later, 'backup');
    const [backupName] = (await readdir(folder)).filter((n) => n.endsWith('.db'));
    if (!backupName) throw new Error('no backup to restore');
    const restored = await digest(later);
    const old = await digest(pristine);
    const dir = join(root, 'restore-kills');
    const reset = async () => {
      await rm(dir, { recursive: true, force: true });
      await cp(pristine, dir, { recursive: true });
      for (const name of await readdir(folder))
        if (name.includes('-before-restore')) await rm(join(folder, name));
    };
    const runs = [];
    for (let i = 0; i < 3; i++) {
      await reset();
      runs.push(await timeOneRun(dir, 'restore', backupName));
      if ((await digest(dir)).digest !== restored.digest)
        problems.push('an uninterrupted restore did not restore');
    }
    const runMs = median(runs.map((run) => run.ms));
    // Half the kills anywhere in the restore; half once it has begun to put the restored data in
    // place, over the length that stage takes.
    const swapMs = median(runs.map((run) => run.ms - (run.stageAt.get('restoring') ?? 0)));

    let whole = 0;
    let endedOld = 0;
    let endedRestored = 0;
    let safetyWhenRestored = 0;
    const killedAt: string[] = [];
    const openMs: number[] = [];
    for (let round = 0; round < RESTORE_KILLS; round++) {
      await reset();
      const child = startChild(dir, 'restore', backupName);
      await child.ready;
      if (round % 2 === 1) await child.reached('restoring');
      const delay = Math.random() * (round % 2 === 0 ? runMs : swapMs) * 1.1;
      await new Promise((r) => setTimeout(r, delay));
      await child.kill();
      killedAt.push(tally(child.stages));
      // The next start: the services open (finishing a restore cut short), then close.
      const started = performance.now();
      const services = await createAppServices({
        userDataDir: dir,
        secretStore: new MemorySecretStore(),
      });
      openMs.push(performance.now() - started);
      await services.close();
      const after = await digest(dir);
      const leftovers = (await readdir(dir)).filter((n) => n.startsWith('restore-'));
      if (after.integrity !== 'ok')
        problems.push(`restore kill ${round}: integrity ${after.integrity}`);
      else if (leftovers.length > 0)
        problems.push(`restore kill ${round}: left ${leftovers.join(', ')}`);
      else if (after.digest === old.digest) {
        whole++;
        endedOld++;
      } else if (after.digest === restored.digest) {
        whole++;
        endedRestored++;
        const safety = (await readdir(folder)).find((n) => n.endsWith('-before-restore.db'));
        if (safety && (await readdir(folder)).includes(`${safety}.sha256`)) safetyWhenRestored++;
        else
          problems.push(
            `restore kill ${round}: restored without a verified backup of the data before`,
          );
      } else problems.push(`restore kill ${round}: the data is neither the old nor the restored`);
      claimsFound.push(...(await falseClaims(folder)));
    }
    const sorted = [...openMs].sort((a, b) => a - b);
    figures.push(
      {
        name: 'Kills during a restore (SIGKILL)',
        value: RESTORE_KILLS,
        target: '100',
        ok: FULL ? RESTORE_KILLS >= 100 : undefined,
      },
      { name: '… at the stage', value: countBy(killedAt) },
      {
        name: 'Data wholly the old or wholly the restored after the next start (integrity_check ok)',
        value: whole,
        target: `${RESTORE_KILLS}`,
        ok: whole === RESTORE_KILLS,
      },
      { name: '… the old data', value: endedOld },
      { name: '… the restored data', value: endedRestored },
      {
        name: 'Restored with a verified backup of the data before it beside',
        value: `${safetyWhenRestored} of ${endedRestored}`,
        ok: safetyWhenRestored === endedRestored,
      },
      {
        name: 'Backups in the folder claiming verification but not sound',
        value: claimsFound.length,
        target: '0',
        ok: claimsFound.length === 0,
      },
      {
        name: 'One uninterrupted restore (check, back up the current data, stage, swap, reopen)',
        value: Math.round(runMs),
        unit: 'ms',
      },
      {
        name: 'Next start after a kill (services open, a cut-short restore finished), p50',
        value: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
        unit: 'ms',
      },
    );
    notes.push(
      `Restore rounds: the data folder (the fixture plus ${RESTORE_CONVERSATIONS} conversations) reset to the same data each round; the backup restored is of that data changed (conversations deleted, the theme changed), so old and restored differ; the digest covers every row of the chat and embeddings tables and the three data files. Even rounds are killed at a uniform random moment over 1.1× an uninterrupted restore (the median of three), odd rounds at one over 1.1× the length of the stage that puts the restored data in place, counted from when the child reports it.`,
    );
    expect(whole).toBe(RESTORE_KILLS);
    expect(claimsFound).toEqual([]);
  },
  count(1_500_000, 120_000),
);
it('refuses every kind of bad backup with its reason before anything changes', async () => {
  const dir = join(root, 'refusals');
  const folder = join(root, 'refusals-folder');
  await heavyData(dir, folder, 20);
  const services = await createAppServices({
    userDataDir: dir,
    secretStore: new MemorySecretStore(),
    version: '0.2.0',
  });
  try {
    const good = await services.backups.backUpNow();
    const before = await digest(dir);
    const filesBefore = (await readdir(folder)).length;
    let refused = 0;
    for (const [what, spoil, reason] of SPOILED_BACKUPS) {
      const id = await spoil(join(folder, good.name), folder, databasePath(dir));
      const count = (await readdir(folder)).length;
      const outcome = await services.backups.restore(id).then(
        () => 'restored',
        (error: Error) => error.message,
      );
      const unchanged =
        (await digest(dir)).digest === before.digest && (await readdir(folder)).length === count;
      if (reason.test(outcome) && unchanged) refused++;
      else problems.push(`${what}: ${outcome}${unchanged ? '' : ' (and the data changed)'}`);
    }
    expect(filesBefore).toBeGreaterThan(0);
    figures.push({
      name: `Bad backups refused with their reason, nothing changed (${SPOILED_BACKUPS.map((s) => s[0]).join('; ')})`,
      value: `${refused} of ${SPOILED_BACKUPS.length}`,
      ok: refused === SPOILED_BACKUPS.length,
    });
    expect(refused).toBe(SPOILED_BACKUPS.length);
  } finally {
    await services.close();
  }
});

it('restores a backup of this release into a later schema, and refuses the reverse', async () => {
  const dir = join(root, 'versions');
  const folder = join(root, 'versions-folder');
  await heavyData(dir, folder, 20);
  const services = await createAppServices({
    userDataDir: dir,
    secretStore: new MemorySecretStore(),
    version: '0.2.0',
  });
  const current = await services.backups.backUpNow();
  const rowsBefore = (await digest(dir)).rows;
  await services.close();

  // The later release: the chat schema has one more step, and its services open the restored
  // data (running that step) as the app's do.
  const next = KNOWN_SCHEMA['chat']! + 1;
  const later = [
    ...CHAT_MIGRATIONS,
    {
      version: next,
      name: 'a colour for each conversation',
      up: (db: Db) =>
        db.exec("ALTER TABLE chat_conversations ADD COLUMN colour TEXT NOT NULL DEFAULT 'grey'"),
    },
  ];
  const laterDir = join(root, 'versions-later');
  await mkdir(laterDir, { recursive: true });
  let db = await openDatabase({ path: databasePath(laterDir) });
  await migrate(db, 'chat', later);
  const laterService = new BackupsService({
    userDataDir: laterDir,
    appVersion: '0.3.0',
    knownSchema: { ...KNOWN_SCHEMA, chat: next },
    live: () => ({ db, connections: async () => [] }),
    reopen: async (swap) => {
      db.close();
      await swap();
      db = await openDatabase({ path: databasePath(laterDir) });
      await migrate(db, 'chat', later);
    },
  });
  await writeFile(
    join(laterDir, 'backups.json'),
    JSON.stringify({ version: 1, installationId: 'fedcba', folder, schedule: 'off' }),
  );
  await laterService.restore(current.name);
  const step = db.one<{ v: number }>(
    "SELECT max(version) AS v FROM schema_migrations WHERE domain = 'chat'",
  )?.v;
  db.close();
  const rowsAfter = (await digest(laterDir)).rows;
  db = await openDatabase({ path: databasePath(laterDir) });
  const laterBackup = await laterService.backUpNow();
  db.close();

  const reader = new BackupsService({
    userDataDir: dir,
    appVersion: '0.2.0',
    knownSchema: KNOWN_SCHEMA,
    live: () => {
      throw new Error('a refused backup must not reach the live data');
    },
    reopen: async () => undefined,
  });
  const refusal = await reader.restore(laterBackup.name).then(
    () => 'restored',
    (e: Error) => e.message,
  );
  const forward = step === next && rowsAfter === rowsBefore;
  const backward = /made by Relay Desktop 0\.3\.0.*Install Relay Desktop 0\.3\.0 or later/.test(
    refusal,
  );
  figures.push(
    {
      name: "This release's backup restored by a later release (one more chat step): every row kept, migrated",
      value: forward
        ? `yes (${rowsAfter.toLocaleString('en-US')} rows, chat at step ${step})`
        : `no (${rowsAfter} of ${rowsBefore} rows, step ${step})`,
      ok: forward,
    },
    {
      name: "The later release's backup refused by this one, naming the version needed",
      value: backward ? 'yes' : refusal,
      ok: backward,
    },
  );
  expect(forward).toBe(true);
  expect(backward).toBe(true);
});

/** A service on a data folder with a fake clock, for the schedule and the full-drive cases. */
async function scheduled(name: string, extra: Partial<BackupsServiceOptions> = {}) {
  const dir = join(root, name);
  const folder = join(root, `${name}-folder`);
  await heavyData(dir, folder, 5);
  const db = await openDatabase({ path: databasePath(dir) });
  const clock = new FakeClock('2025-03-03T08:00:00Z');
  const service = new BackupsService({
    userDataDir: dir,
    appVersion: '0.2.0',
    knownSchema: KNOWN_SCHEMA,
    live: () => ({ db, connections: async () => [] }),
    reopen: async () => undefined,
    clock,
    ...extra,
  });
  return { dir, folder, db, clock, service };
}

it('takes scheduled backups on time under a fake clock, and rotates them', async () => {
  const { folder, db, clock, service } = await scheduled('schedule');
  await service.setSchedule('hourly');
  service.start();
  const settle = () => service.settled();
  const taken: number[] = [];
  const names = async () => (await readdir(folder)).filter((n) => n.endsWith('.db'));
  let seen = new Set<string>();
  // Hours of an hourly schedule, the clock moving a minute at a time.
  for (let minute = 0; minute < HOURS * 60; minute++) {
    await clock.advance(60_000, settle);
    for (const name of await names())
      if (!seen.has(name)) {
        seen.add(name);
        taken.push(clock.now().getTime());
      }
  }
  const gaps = taken.slice(1).map((t, i) => t - (taken[i] ?? t));
  const late = Math.max(...gaps.map((g) => g - HOUR));
  // Then days of a daily schedule, a laptop asleep between its mornings.
  await service.setSchedule('daily');
  seen = new Set(await names());
  let daily = 0;
  for (let day = 0; day < DAYS; day++) {
    await clock.sleep(24 * HOUR, settle);
    for (const name of await names()) {
      if (seen.has(name)) continue;
      seen.add(name);
      daily++;
    }
  }
  const kept = (await names()).length;
  await service.close();
  db.close();
  figures.push(
    {
      name: `Hourly schedule over ${HOURS} simulated hours: backups taken`,
      value: taken.length,
      target: `${HOURS}`,
      ok: taken.length >= HOURS && taken.length <= HOURS + 1,
    },
    {
      name: '… latest one after its due time',
      value: Math.round(late / 1000),
      unit: 's',
      target: '<= 60',
      ok: late <= 60_000,
    },
    {
      name: `Daily schedule over ${DAYS} simulated days (asleep between): backups taken`,
      value: daily,
      target: `${DAYS}`,
      ok: daily === DAYS,
    },
    {
      name: '… kept by the rotation at the end (all today, one a day for a week, one a week for a month)',
      value: kept,
      target: '<= 13',
      ok: kept <= 13 && (!FULL || kept >= 11),
    },
  );
  expect(late).toBeLessThanOrEqual(60_000);
  expect(daily).toBe(DAYS);
});

it('reports a full drive, real and injected, and leaves no backup claiming verification', async () => {
  const tmpfs = await mountSmallTmpfs(96 * 1024);
  let realOutcome = `not run: ${tmpfs.skipped ?? ''}`;
  let realOk: boolean | undefined;
  if (tmpfs.path) {
    const noFigure: BackupFs = {
      ...nodeBackupFs,
      statfs: () => Promise.reject(new Error('no figure')),
    };
    const { dir, db, service } = await scheduled('tmpfs', { fs: noFigure });
    await writeFile(
      join(dir, 'backups.json'),
      JSON.stringify({
        version: 1,
        installationId: INSTALLATION,
        folder: tmpfs.path,
        schedule: 'off',
      }),
    );
    const error = await service.backUpNow().then(
      () => undefined,
      (e: Error) => e.message,
    );
    const left = await readdir(tmpfs.path);
    realOk = /is full/.test(error ?? '') && left.length === 0;
    realOutcome = realOk
      ? 'reported as full, nothing left in the folder'
      : `${error} (left: ${left.join(', ')})`;
    db.close();
    await tmpfs.unmount();
  }
  const enospc: BackupFs = {
    ...nodeBackupFs,
    open: (async (path: string, ...rest: unknown[]) => {
      if (String(path).includes('.sha256'))
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return (nodeBackupFs.open as (...a: unknown[]) => unknown)(path, ...rest);
    }) as BackupFs['open'],
  };
  const injected = await scheduled('enospc', { fs: enospc });
  const message = await injected.service.backUpNow().then(
    () => 'taken',
    (e: Error) => e.message,
  );
  const status = await injected.service.status();
  const leftInjected = await readdir(injected.folder);
  injected.db.close();
  const injectedOk =
    /is full/.test(message) && status.problem?.kind === 'full' && leftInjected.length === 0;

  // A copy step that loses one row (a failing disk, a bug): the check must catch it.
  const lossy: CopyDatabase = (db, target) => {
    const snapshot = vacuumInto(db, target);
    const copy = new Database(target);
    copy.exec('DELETE FROM chat_messages WHERE rowid = (SELECT max(rowid) FROM chat_messages)');
    copy.close();
    return snapshot;
  };
  const faulty = await scheduled('lossy', { copy: lossy });
  const caught = await faulty.service.backUpNow().then(
    () => 'taken',
    (e: Error) => e.message,
  );
  const leftFaulty = await readdir(faulty.folder);
  const faultyStatus = await faulty.service.status();
  faulty.db.close();
  const caughtOk =
    /failed its check after it was written/.test(caught) &&
    leftFaulty.some((n) => n.endsWith('.FAILED.db')) &&
    leftFaulty.some((n) => n.endsWith('.FAILED.txt')) &&
    !leftFaulty.some((n) => n.endsWith('.sha256')) &&
    faultyStatus.problem?.kind === 'failed';

  figures.push(
    {
      name: 'A real full drive (a 96 KB tmpfs, no free-space figure so SQLite runs out of room)',
      value: realOutcome,
      ok: realOk,
    },
    {
      name: 'ENOSPC injected while the checksum is written: reported as full, no backup left claiming verification',
      value: injectedOk ? 'yes' : `${message}; ${leftInjected.join(', ')}`,
      ok: injectedOk,
    },
    {
      name: 'A copy that lost a row: caught by the check, kept aside as .FAILED.db with a note, no checksum, the status a warning',
      value: caughtOk ? 'yes' : caught,
      ok: caughtOk,
    },
  );
  if (tmpfs.skipped) notes.push(`The real full drive was not measured: ${tmpfs.skipped}.`);
  expect(injectedOk).toBe(true);
  expect(caughtOk).toBe(true);
  if (realOk !== undefined) expect(realOk).toBe(true);
});

it('writes the figures, and no backup holds the key', async () => {
  const swept = sweep([root]);
  figures.push({
    name: 'Canary key in any backup or data folder',
    value: swept.hits.length,
    target: '0',
    ok: swept.hits.length === 0,
  });
  recordFigures(11, 'Backups', figures, [
    ...notes,
    ...problems.slice(0, 8).map((p) => `Problem: ${p}`),
  ]);
  expect(swept.hits).toEqual([]);
  expect(problems).toEqual([]);
});
