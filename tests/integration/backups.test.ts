/**
 * Backups through the real router and services, on a copy of the data folder the previous
 * release (0.1) wrote: taking them, verifying them, the status, restore, and every kind of file
 * a restore must refuse.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'libsql';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vacuumInto, type CopyDatabase } from '../../electron/main/services/backups/backup-file';
import { nodeBackupFs, type BackupFs } from '../../electron/main/services/backups/backup-folder';
import { KNOWN_SCHEMA } from '../../electron/main/app-services';
import { MemorySecretStore, PLAINTEXT_KEYS_FILE } from '../../electron/main/services/secret-store';
import { errorText } from '../../electron/main/services/words';
import type { ErrorMessageKey, MessageValues } from '../../electron/shared/messages/keys';
import { openChatApp, type ChatApp } from '../fakes/chat-app';
import { FakeClock } from '../fakes/fake-clock';
import { SPOILED_BACKUPS } from '../fakes/spoiled-backups';
import { mountSmallTmpfs } from '../fakes/small-tmpfs';

/** A status's problem as the page shows it in `locale`: by its key, else its English text. */
function inLanguage(
  locale: 'de' | 'ja',
  problem: { message: string; messageId?: string | undefined; values?: unknown },
): string {
  return problem.messageId === undefined
    ? problem.message
    : errorText(locale, problem.messageId as ErrorMessageKey, problem.values as MessageValues);
}

const FIXTURE = resolve(import.meta.dirname, '../fixtures/data-0.1/user-data');
const CANARY = 'sk-backup-canary-7f3a9c21e5d8b4';
const HOUR = 3_600_000;

let dataDir: string;
let backupDir: string;
let clock: FakeClock;
let secrets: MemorySecretStore;
let picturesDir: string;
const opened: ChatApp[] = [];
const scratch: string[] = [];

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

interface OpenOptions {
  fs?: BackupFs;
  copy?: CopyDatabase;
  secretStore?: MemorySecretStore;
  userDataDir?: string;
  chooseFolder?: string | false;
}

/** How many times main reloaded the page of each app. */
const reloads = new Map<ChatApp, number>();

/** The app on `dataDir`, its backup folder chosen (and the first backup taken) unless told not to. */
async function open(options: OpenOptions = {}): Promise<ChatApp> {
  const box: { app?: ChatApp } = {};
  const app = await openChatApp(options.userDataDir ?? dataDir, options.secretStore ?? secrets, {
    picturesDir,
    backupSeams: {
      clock,
      computerName: 'test-laptop',
      ...(options.fs ? { fs: options.fs } : {}),
      ...(options.copy ? { copy: options.copy } : {}),
    },
    reloadWindow: () => box.app && reloads.set(box.app, (reloads.get(box.app) ?? 0) + 1),
    version: '0.2.0',
  });
  box.app = app;
  opened.push(app);
  if (options.chooseFolder !== false) {
    app.dialogs.folders.push(options.chooseFolder ?? backupDir);
    await app.api.chooseBackupFolder();
    await app.services.backups.settled();
  }
  return app;
}

/** The data a person would notice, read through the app itself. */
async function dataOf(app: ChatApp) {
  const conversations = await app.api.listConversations();
  const settings = await app.api.getSettings();
  const connections = await app.api.listConnections();
  const messages = await Promise.all(
    conversations.map(async (c) => (await app.api.getConversation({ id: c.id })).messages.length),
  );
  return {
    conversations: conversations.map((c) => c.title).sort(),
    messages: messages.reduce((a, b) => a + b, 0),
    theme: settings.theme,
    connections: connections.map((c) => `${c.name} ${c.baseUrl}`).sort(),
    runs: (await app.api.listEmbeddingRuns()).length,
    prompts: (await app.api.listPrompts({ includeHidden: true }))
      .map((p) => `${p.name}${p.hidden ? ' (hidden)' : ''}`)
      .sort(),
  };
}

beforeEach(async () => {
  dataDir = await tempDir('relay-backups-data-');
  await cp(FIXTURE, dataDir, { recursive: true });
  backupDir = await tempDir('relay-backups-folder-');
  clock = new FakeClock('2025-03-10T09:00:00Z');
  secrets = new MemorySecretStore();
  picturesDir = await tempDir('relay-backups-pictures-');
  await cp(join(FIXTURE, '../Pictures'), picturesDir, { recursive: true });
});

afterEach(async () => {
  for (const app of opened.splice(0)) await app.services.close().catch(() => undefined);
  for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('taking a backup', () => {
  it('is verified, carries a sha256sum checksum, and holds the data files but never a key', async () => {
    // Keys in the keychain and even in the plaintext key file: neither may reach a backup.
    await writeFile(join(dataDir, PLAINTEXT_KEYS_FILE), JSON.stringify({ any: CANARY }));
    const app = await open({ chooseFolder: false });
    for (const connection of await app.api.listConnections())
      await app.api.updateConnection({ id: connection.id, changes: { apiKey: CANARY } });
    app.dialogs.folders.push(backupDir);
    await app.api.chooseBackupFolder();
    await app.services.backups.settled();

    const { backups } = await app.api.listBackups();
    expect(backups).toHaveLength(1);
    const [backup] = backups;
    expect(backup).toMatchObject({
      state: 'verified',
      reason: 'manual',
      fromThisComputer: true,
      computerName: 'test-laptop',
      appVersion: '0.2.0',
      counts: { conversations: 5, embeddingRuns: 2, images: 2 },
    });
    expect(backup?.counts?.messages).toBeGreaterThan(5);

    const names = await readdir(backupDir);
    expect(names.sort()).toEqual([backup?.name, `${backup?.name}.sha256`].sort());
    const { stdout } = await promisify(execFile)('sha256sum', ['-c', `${backup?.name}.sha256`], {
      cwd: backupDir,
    });
    expect(stdout).toContain(': OK');

    const bytes = await readFile(join(backupDir, backup?.name ?? ''));
    expect(bytes.includes(Buffer.from(CANARY))).toBe(false);
    expect(bytes.includes(Buffer.from(CANARY, 'utf16le'))).toBe(false);

    const preview = await app.api.previewBackup({ id: backup?.id ?? '' });
    expect(preview).toMatchObject({ restorable: true, checksumMatches: true });
    expect(preview.files.sort()).toEqual(
      ['connections.json', 'model-preferences.json', 'settings.json'].sort(),
    );
    expect(preview.connections.map((c) => c.hadKey)).toEqual([true, true]);

    const status = await app.api.getBackupStatus();
    expect(status).toMatchObject({
      tone: 'ok',
      folder: backupDir,
      schedule: 'daily',
      lastVerified: { name: backup?.name },
    });
    expect(status.nextDueAt).toBe(new Date(clock.now().getTime() + 24 * HOUR).toISOString());
  });
});

describe('the schema versions a backup is checked against', () => {
  it('name every domain the app migrates, at its newest step', async () => {
    // A domain added later must be listed in KNOWN_SCHEMA, or its backups would be refused.
    const app = await open({ chooseFolder: false });
    const applied = app.services.db.all<{ domain: string; version: number }>(
      'SELECT domain, max(version) AS version FROM schema_migrations GROUP BY domain',
    );
    // Sync's tables are made when sync is first set up; every other domain's at the app's start.
    const { sync, ...atStart } = KNOWN_SCHEMA;
    expect(sync).toBeGreaterThan(0);
    expect(Object.fromEntries(applied.map((r) => [r.domain, r.version]))).toEqual(atStart);
  });
});

describe('restoring', () => {
  it('backs up the current data first, puts the backup back whole, and reloads the page', async () => {
    const app = await open();
    const before = await dataOf(app);
    const [backup] = (await app.api.listBackups()).backups;

    // The person carries on: a conversation deleted, the theme changed, a connection added.
    const [first] = await app.api.listConversations();
    await app.api.deleteConversation({ id: first?.id ?? '' });
    await app.api.updateSettings({ theme: 'light' });
    await app.api.createConnection({ name: 'Later', baseUrl: 'https://later.example.com' });
    await app.api.createPrompt({ kind: 'snippet', name: 'Later prompt', text: 'Hi {{name}}' });
    const changed = await dataOf(app);
    expect(changed).not.toEqual(before);

    clock.advance(60_000);
    const result = await app.api.restoreBackup({ id: backup?.id ?? '' });
    expect(await dataOf(app)).toEqual(before);
    await new Promise((r) => setTimeout(r, 100));
    expect(reloads.get(app)).toBe(1);
    expect(result.connectionsNeedingKeys).toBe(0);

    // The data as it was just before is a verified backup of its own: the way back.
    expect(result.safetyBackup).toMatch(/-before-restore\.db$/);
    const list = (await app.api.listBackups()).backups;
    const safety = list.find((b) => result.safetyBackup.endsWith(b.name));
    expect(safety).toMatchObject({ state: 'verified', reason: 'before-restore' });
    await app.api.restoreBackup({ id: safety?.id ?? '' });
    expect(await dataOf(app)).toEqual(changed);

    // And the restored data opens again after a restart.
    await app.services.close();
    const again = await open({ chooseFolder: false });
    expect(await dataOf(again)).toEqual(changed);
  });

  it('on another computer, asks for the key of each connection that had one', async () => {
    const app = await open({ chooseFolder: false });
    for (const connection of await app.api.listConnections())
      await app.api.updateConnection({ id: connection.id, changes: { apiKey: CANARY } });
    app.dialogs.folders.push(backupDir);
    await app.api.chooseBackupFolder();
    await app.services.backups.settled();
    await app.services.close();

    // A new computer: an empty data folder, an empty keychain, the synced backup folder.
    const other = await open({
      userDataDir: await tempDir('relay-backups-other-'),
      secretStore: new MemorySecretStore(),
    });
    const list = (await other.api.listBackups()).backups;
    const theirs = list.find((b) => !b.fromThisComputer);
    expect(theirs).toMatchObject({ state: 'verified', computerName: 'test-laptop' });
    const result = await other.api.restoreBackup({ id: theirs?.id ?? '' });
    expect(result.connectionsNeedingKeys).toBe(2);
    const status = await other.api.getBackupStatus();
    expect(status.restored?.connectionsNeedingKeys.map((c) => c.name).sort()).toEqual([
      'Local relay',
      'Work relay',
    ]);
    const work = status.restored?.connectionsNeedingKeys.find((c) => c.name === 'Work relay');
    await other.api.updateConnection({ id: work?.id ?? '', changes: { apiKey: CANARY } });
    expect(
      (await other.api.getBackupStatus()).restored?.connectionsNeedingKeys.map((c) => c.name),
    ).toEqual(['Local relay']);
    expect((await other.api.dismissRestoreNotice()).restored).toBeUndefined();
  });
});

describe('a backup that cannot be used is refused with the reason, before anything changes', () => {
  it.each(SPOILED_BACKUPS)('%s', async (_what, spoil, reason) => {
    const app = await open();
    const [good] = (await app.api.listBackups()).backups;
    const id = await spoil(
      join(backupDir, good?.name ?? ''),
      backupDir,
      join(dataDir, 'relay-desktop.db'),
    );
    const before = await dataOf(app);
    const filesBefore = (await readdir(backupDir)).sort();

    const preview = await app.api.previewBackup({ id });
    expect(preview.restorable).toBe(false);
    expect(preview.problem).toMatch(reason);
    await expect(app.api.restoreBackup({ id })).rejects.toThrow(reason);

    expect(await dataOf(app)).toEqual(before);
    // Not even the backup of the current data that a restore starts with was taken.
    expect((await readdir(backupDir)).sort()).toEqual(filesBefore);
    expect(reloads.get(app)).toBeUndefined();
  });
});

describe('a backup that fails its check', () => {
  it('is kept aside, named so, with a note, and the person is told', async () => {
    // A copy step that loses a row: what a faulty disk or a racing writer would do.
    const lossy: CopyDatabase = (db, target) => {
      const snapshot = vacuumInto(db, target);
      const copy = new Database(target);
      copy.exec(
        'DELETE FROM chat_messages WHERE rowid IN (SELECT rowid FROM chat_messages LIMIT 1)',
      );
      copy.close();
      return snapshot;
    };
    const app = await open({ copy: lossy, chooseFolder: false });
    app.dialogs.folders.push(backupDir);
    await app.api.chooseBackupFolder();
    await app.services.backups.settled();
    await expect(app.api.backUpNow()).rejects.toThrow(/failed its check after it was written/);

    const names = await readdir(backupDir);
    expect(names.filter((n) => n.endsWith('.sha256'))).toEqual([]);
    const aside = names.filter((n) => n.endsWith('.FAILED.db'));
    expect(aside).toHaveLength(2);
    const note = await readFile(join(backupDir, aside[0]?.replace('.db', '.txt') ?? ''), 'utf8');
    expect(note).toMatch(/must not be restored[\s\S]*chat_messages/);

    const status = await app.api.getBackupStatus();
    expect(status.tone).toBe('warning');
    expect(status.problem?.kind).toBe('failed');
    expect(status.problem?.message).toMatch(/kept aside as relay-desktop-backup-.*\.FAILED\.db/);
    // Stored with its key, so the status reads in the language of the moment.
    expect(status.problem).toMatchObject({
      messageId: 'backups.failed.check',
      values: { aside: expect.stringMatching(/\.FAILED\.db$/) },
    });
    expect(inLanguage('de', status.problem!)).toMatch(/hat nach dem Schreiben ihre Prüfung/);
    const listed = (await app.api.listBackups()).backups;
    expect(listed.every((b) => b.state === 'failed')).toBe(true);
    await expect(app.api.restoreBackup({ id: listed[0]?.id ?? '' })).rejects.toThrow(
      /failed its check when it was made/,
    );
  });

  it('a backup whose checksum was never written (the app stopped) is checked again and sealed', async () => {
    const app = await open();
    const [backup] = (await app.api.listBackups()).backups;
    await rm(join(backupDir, `${backup?.name}.sha256`));
    expect((await app.api.listBackups()).backups[0]?.state).toBe('unchecked');
    await clock.advance(HOUR);
    await app.api.backUpNow();
    const states = (await app.api.listBackups()).backups.map((b) => b.state);
    expect(states).toEqual(['verified', 'verified']);
  });
});

describe('a full drive', () => {
  it('is reported before a backup starts when the drive has no room', async () => {
    const fullFs: BackupFs = { ...nodeBackupFs, statfs: async () => ({ bavail: 10, bsize: 4096 }) };
    const app = await open({ fs: fullFs, chooseFolder: false });
    app.dialogs.folders.push(backupDir);
    await app.api.chooseBackupFolder();
    await app.services.backups.settled();
    const status = await app.api.getBackupStatus();
    expect(status.problem).toMatchObject({ kind: 'full' });
    expect(status.problem?.message).toMatch(
      /is full: a backup needs about .* MB and 0\.1 MB are free/,
    );
    await expect(app.api.backUpNow()).rejects.toThrow(/is full/);
    expect(await readdir(backupDir)).toEqual([]);
  });

  it('ENOSPC while writing the checksum leaves no backup that claims to be verified', async () => {
    const enospc: BackupFs = {
      ...nodeBackupFs,
      open: (async (path: string, ...rest: unknown[]) => {
        if (String(path).includes('.sha256'))
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return (nodeBackupFs.open as (...a: unknown[]) => unknown)(path, ...rest);
      }) as BackupFs['open'],
    };
    const app = await open({ fs: enospc });
    await expect(app.api.backUpNow()).rejects.toThrow(/drive of the backup folder .* is full/);
    expect(await readdir(backupDir)).toEqual([]);
    expect((await app.api.getBackupStatus()).problem?.kind).toBe('full');
  });

  it('SQLITE_FULL during the copy is reported as a full drive, and nothing is left behind', async () => {
    const full: CopyDatabase = (db, target) => {
      vacuumInto(db, target);
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    const app = await open({ copy: full });
    expect((await app.api.getBackupStatus()).problem?.kind).toBe('full');
    expect(await readdir(backupDir)).toEqual([]);
  });
});

describe('a real full drive: a 96 KB tmpfs', async () => {
  const tmpfs = await mountSmallTmpfs(96 * 1024);
  afterAll(() => tmpfs.unmount?.());

  it.skipIf(tmpfs.skipped !== undefined)(
    'is reported from its real free space before anything is written',
    async () => {
      const app = await open({ chooseFolder: tmpfs.path ?? '' });
      const status = await app.api.getBackupStatus();
      expect(status.problem).toMatchObject({ kind: 'full' });
      expect(await readdir(tmpfs.path ?? '')).toEqual([]);
    },
  );

  it.skipIf(tmpfs.skipped !== undefined)(
    'where the drive gives no free space figure, SQLite running out of room is reported, and nothing is left',
    async () => {
      const noFigure: BackupFs = {
        ...nodeBackupFs,
        statfs: () => Promise.reject(Object.assign(new Error('ENOSYS'), { code: 'ENOSYS' })),
      };
      const app = await open({ fs: noFigure, chooseFolder: tmpfs.path ?? '' });
      const status = await app.api.getBackupStatus();
      expect(status.problem).toMatchObject({ kind: 'full' });
      expect(status.problem?.message).toMatch(
        /could not be written: the drive of the backup folder .* is full/,
      );
      expect(await readdir(tmpfs.path ?? '')).toEqual([]);
      // The live data is untouched and still works.
      expect((await app.api.listConversations()).length).toBe(5);
    },
  );
});

describe('the schedule, on a fake clock', () => {
  it('backs up when due, tells when the folder is missing, and catches up when it is back', async () => {
    const app = await open();
    await app.api.setBackupSchedule({ schedule: 'hourly' });
    const settle = () => app.services.backups.settled();
    const count = async () =>
      (await readdir(backupDir).catch(() => [])).filter((n) => n.endsWith('.db')).length;
    expect(await count()).toBe(1);

    await clock.advance(59 * 60_000, settle);
    expect(await count()).toBe(1);
    await clock.advance(2 * 60_000, settle);
    expect(await count()).toBe(2);

    // The drive is unplugged: the folder is gone. Nothing is made in its place.
    const unplugged = `${backupDir}-unplugged`;
    await cp(backupDir, unplugged, { recursive: true });
    await rm(backupDir, { recursive: true });
    await clock.advance(2 * HOUR, settle);
    const status = await app.api.getBackupStatus();
    expect(status.tone).toBe('warning');
    expect(status.problem).toMatchObject({ kind: 'missing' });
    expect(status.problem?.message).toMatch(/is not there: is its drive plugged in/);
    expect(status.problem).toMatchObject({ messageId: 'backups.folder.missing' });
    expect(inLanguage('ja', status.problem!)).toMatch(
      /が見つかりません。ドライブは接続されていますか/,
    );
    expect(status.lastVerified).toBeDefined();

    // Plugged in again: the next look backs up at once.
    await cp(unplugged, backupDir, { recursive: true });
    scratch.push(unplugged);
    await clock.advance(60_000, settle);
    expect(await count()).toBe(3);
    expect((await app.api.getBackupStatus()).tone).toBe('ok');
  });

  it('says a backup is overdue, backs up at quit when one is due, and rotates old ones', async () => {
    const app = await open();
    await app.services.close();
    // The computer was off for three days.
    await clock.advance(3 * 24 * HOUR);
    const later = await open({ chooseFolder: false });
    const status = await later.api.getBackupStatus();
    expect(status.problem).toMatchObject({ kind: 'overdue' });
    expect(status.problem?.message).toMatch(/older than two days/);
    expect(inLanguage('de', status.problem!)).toMatch(/älter als zwei Tage/);
    // Quitting now backs up, since the last one is older than the schedule.
    await later.services.close();
    const names = (await readdir(backupDir)).filter((n) => n.endsWith('.db'));
    expect(names).toHaveLength(2);
  });

  it('keeps showing a failure stored in English only, as the previous release wrote it', async () => {
    const app = await open();
    await app.services.close();
    const configPath = join(dataDir, 'backups.json');
    const config = JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
    const message = 'The backup could not be made: the disk said no.';
    await writeFile(
      configPath,
      JSON.stringify({
        ...config,
        lastFailure: {
          at: new Date(clock.now().getTime() + 1000).toISOString(),
          kind: 'failed',
          message,
        },
      }),
    );
    await clock.advance(2000);
    const later = await open({ chooseFolder: false });
    const status = await later.api.getBackupStatus();
    expect(status.problem).toEqual({ kind: 'failed', message });
  });

  it('keeps every backup from today, one a day for a week and one a week for a month', async () => {
    const app = await open();
    const settle = () => app.services.backups.settled();
    // A laptop that sleeps through each day and wakes once a day.
    for (let day = 0; day < 40; day++) await clock.sleep(24 * HOUR, settle);
    const kept = (await app.api.listBackups()).backups.map((b) => new Date(b.createdAt));
    const days = kept.map((d) => Math.round((clock.now().getTime() - d.getTime()) / (24 * HOUR)));
    // Daily backups for 40 days: the last 8 days each, then one a week, nothing past a month.
    for (let day = 0; day <= 7; day++) expect(days).toContain(day);
    expect(Math.max(...days)).toBeLessThanOrEqual(31);
    expect(kept.length).toBeLessThanOrEqual(1 + 7 + 5);
    expect(kept.length).toBeGreaterThanOrEqual(1 + 7 + 3);
  });
});
