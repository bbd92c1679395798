/**
 * Backups across releases. This file plays a later release: the chat schema has one more step
 * (`vi.mock` adds it to the real migrations). A backup made by the current release (of the 0.1
 * data folder) restores into it and is brought up to date; a backup it makes is refused by the
 * current release, which says which version is needed.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KNOWN_SCHEMA } from '../../electron/main/app-services';
import type * as ChatMigrations from '../../electron/main/services/chat/migrations';
import { BackupsService } from '../../electron/main/services/backups/backups-service';
import {
  databasePath,
  migrate,
  openDatabase,
  type Migration,
} from '../../electron/main/services/database';
import { EMBEDDINGS_MIGRATIONS } from '../../electron/main/services/embeddings/run-store';
import { IMAGE_MIGRATIONS } from '../../electron/main/services/images/gallery';
import { KNOWLEDGE_MIGRATIONS } from '../../electron/main/services/knowledge/migrations';
import { PROMPTS_MIGRATIONS } from '../../electron/main/services/prompts/migrations';
import { SYNC_MIGRATIONS } from '../../electron/main/services/sync/sync-tables';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { openChatApp, type ChatApp } from '../fakes/chat-app';
import { FakeClock } from '../fakes/fake-clock';

vi.mock('../../electron/main/services/chat/migrations', async (importOriginal) => {
  const original = await importOriginal<typeof ChatMigrations>();
  return {
    ...original,
    CHAT_MIGRATIONS: [
      ...original.CHAT_MIGRATIONS,
      {
        version: Math.max(...original.CHAT_MIGRATIONS.map((m) => m.version)) + 1,
        name: 'a colour for each conversation',
        up(db: { exec(sql: string): void }) {
          db.exec("ALTER TABLE chat_conversations ADD COLUMN colour TEXT NOT NULL DEFAULT 'grey'");
        },
      },
    ],
  };
});

const FIXTURE = resolve(import.meta.dirname, '../fixtures/data-0.1/user-data');
const newest = (migrations: readonly Migration[]) => Math.max(...migrations.map((m) => m.version));
const { CHAT_MIGRATIONS: CURRENT_CHAT } = await vi.importActual<typeof ChatMigrations>(
  '../../electron/main/services/chat/migrations',
);
/** What the current release knows: its real migrations, without this file's extra step. */
const CURRENT_SCHEMA = {
  chat: newest(CURRENT_CHAT),
  embeddings: newest(EMBEDDINGS_MIGRATIONS),
  images: newest(IMAGE_MIGRATIONS),
  knowledge: newest(KNOWLEDGE_MIGRATIONS),
  prompts: newest(PROMPTS_MIGRATIONS),
  sync: newest(SYNC_MIGRATIONS),
};
/** The chat step this (later) release adds. */
const LATER_CHAT = CURRENT_SCHEMA.chat + 1;

let dirs: string[] = [];
const apps: ChatApp[] = [];
async function temp(prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

beforeEach(() => {
  dirs = [];
});
afterEach(async () => {
  for (const app of apps.splice(0)) await app.services.close().catch(() => undefined);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A backup of the 0.1 data folder as the current release writes it. */
async function currentReleaseBackup(folder: string, clock: FakeClock): Promise<string> {
  const data = await temp('relay-versions-current-');
  await cp(FIXTURE, data, { recursive: true });
  const db = await openDatabase({ path: databasePath(data) });
  // The current release has brought the 0.1 data up to its chat schema.
  await migrate(db, 'chat', CURRENT_CHAT);
  const service = new BackupsService({
    userDataDir: data,
    appVersion: '0.1.0',
    knownSchema: CURRENT_SCHEMA,
    live: () => ({ db, connections: async () => [] }),
    reopen: async () => undefined,
    clock,
    computerName: 'old-laptop',
  });
  const config = join(data, 'backups.json');
  await (
    await import('node:fs/promises')
  ).writeFile(
    config,
    JSON.stringify({ version: 1, installationId: 'c0ffee', folder, schedule: 'off' }),
  );
  const entry = await service.backUpNow('manual');
  db.close();
  return entry.name;
}

describe('backups across releases', () => {
  it('this (later) release knows the extra step', () => {
    expect(KNOWN_SCHEMA).toEqual({ ...CURRENT_SCHEMA, chat: LATER_CHAT });
  });

  it("restores the current release's backup into its later schema, and the reverse is refused", async () => {
    const clock = new FakeClock('2025-06-01T08:00:00Z');
    const folder = await temp('relay-versions-folder-');
    const older = await currentReleaseBackup(folder, clock);

    const data = await temp('relay-versions-later-');
    const app = await openChatApp(data, new MemorySecretStore(), {
      backupSeams: { clock, computerName: 'new-laptop' },
      version: '0.3.0',
    });
    apps.push(app);
    app.dialogs.folders.push(folder);
    await app.api.chooseBackupFolder();
    await app.services.backups.settled();

    await clock.advance(60_000);
    await app.api.restoreBackup({ id: older });
    const conversations = await app.api.listConversations();
    expect(conversations.map((c) => c.title)).toContain('Maths notes');
    expect(conversations).toHaveLength(5);
    // Brought up to this release's schema, with its copy taken before the step ran.
    const db = app.services.db;
    expect(
      db.one<{ v: number }>("SELECT max(version) AS v FROM schema_migrations WHERE domain = 'chat'")
        ?.v,
    ).toBe(LATER_CHAT);
    expect(
      db
        .all<{ colour: string }>('SELECT colour FROM chat_conversations')
        .every((r) => r.colour === 'grey'),
    ).toBe(true);
    expect((await readdir(data)).some((n) => n.includes(`.before-chat-${LATER_CHAT}-`))).toBe(true);

    // A backup this release makes, opened by the current release: refused, naming the version.
    const made = await app.api.backUpNow();
    const current = new BackupsService({
      userDataDir: await temp('relay-versions-reader-'),
      appVersion: '0.1.0',
      knownSchema: CURRENT_SCHEMA,
      live: () => {
        throw new Error('not needed to read a backup');
      },
      reopen: async () => undefined,
    });
    const preview = await current.preview(current.pick(join(folder, made.name)));
    expect(preview.restorable).toBe(false);
    expect(preview.problem).toMatch(
      /made by Relay Desktop 0\.3\.0, which keeps its data in a newer form than this version \(0\.1\.0\) can read\. Install Relay Desktop 0\.3\.0 or later/,
    );
    await expect(current.restore(current.pick(join(folder, made.name)))).rejects.toThrow(
      /0\.3\.0 or later/,
    );
  });
});
