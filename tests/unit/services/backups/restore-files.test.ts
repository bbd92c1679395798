/**
 * The all-or-nothing swap of a restore, stopped at every point a crash could stop it: the next
 * start always opens either the old data whole or the restored data whole.
 */
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FILES_TABLE,
  MANIFEST_TABLE,
} from '../../../../electron/main/services/backups/backup-file';
import {
  completePendingRestore,
  markRestore,
  RESTORE_MARKER,
  RESTORE_STAGING,
  stageRestore,
} from '../../../../electron/main/services/backups/restore-files';

let dir: string;
let live: string;
let backup: string;

function database(path: string, rows: string[], sealed = false): void {
  const db = new Database(path);
  db.exec('CREATE TABLE notes (text TEXT)');
  for (const text of rows) db.prepare('INSERT INTO notes VALUES (?)').run(text);
  if (sealed) {
    db.exec(
      `CREATE TABLE ${MANIFEST_TABLE} (manifest TEXT); CREATE TABLE ${FILES_TABLE} (name TEXT, content BLOB)`,
    );
    db.exec('PRAGMA application_id = 1380270667');
  }
  db.close();
}

function notes(path: string): string[] {
  const db = new Database(path);
  try {
    return (db.prepare('SELECT text FROM notes').all() as Array<{ text: string }>).map(
      (r) => r.text,
    );
  } finally {
    db.close();
  }
}

const FILES = [
  { name: 'settings.json', bytes: new TextEncoder().encode('{"theme":"restored"}') },
  { name: 'connections.json', bytes: new TextEncoder().encode('{"restored":true}') },
  // Never restored, whatever a backup holds.
  { name: 'keys.insecure.json', bytes: new TextEncoder().encode('{"k":"sk-nope"}') },
];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-restore-files-'));
  live = join(dir, 'user-data');
  await (await import('node:fs/promises')).mkdir(live);
  database(join(live, 'relay-desktop.db'), ['old 1', 'old 2']);
  await writeFile(join(live, 'relay-desktop.db-wal'), 'a stale WAL of the old database');
  await writeFile(join(live, 'settings.json'), '{"theme":"old"}');
  await writeFile(join(live, 'model-preferences.json'), '{"old":true}');
  backup = join(dir, 'backup.db');
  database(backup, ['restored 1', 'restored 2', 'restored 3'], true);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function state() {
  const names = (await readdir(live)).sort();
  return {
    notes: notes(join(live, 'relay-desktop.db')),
    settings: await readFile(join(live, 'settings.json'), 'utf8').catch(() => undefined),
    names,
  };
}

const OLD = {
  notes: ['old 1', 'old 2'],
  settings: '{"theme":"old"}',
};
const RESTORED = {
  notes: ['restored 1', 'restored 2', 'restored 3'],
  settings: '{"theme":"restored"}',
  names: ['connections.json', 'relay-desktop.db', 'settings.json'],
};

describe('a restore stopped by a crash', () => {
  it('before its marker: the old data is left whole and the staging folder is swept', async () => {
    await stageRestore(live, backup, FILES);
    expect(await completePendingRestore(live)).toBe(false);
    expect(await state()).toMatchObject(OLD);
    expect(await readdir(live)).not.toContain(RESTORE_STAGING);
  });

  // Renames done before the crash: none, the database only, all (the marker not yet removed).
  it.each([0, 1, 3])(
    'after its marker and %i renames: the next start finishes it',
    async (done) => {
      await stageRestore(live, backup, FILES);
      await markRestore(live, FILES);
      const marker = JSON.parse(await readFile(join(live, RESTORE_MARKER), 'utf8')) as {
        renames: Array<{ from: string; to: string }>;
        remove: string[];
      };
      if (done > 0) for (const name of marker.remove) await rm(join(live, name), { force: true });
      for (const move of marker.renames.slice(0, done))
        await rename(join(live, move.from), join(live, move.to));

      expect(await completePendingRestore(live)).toBe(true);
      expect(await state()).toEqual(RESTORED);
      // The backup's own tables are gone from the restored database, and it is not a backup.
      const db = new Database(join(live, 'relay-desktop.db'));
      const tables = (
        db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
          name: string;
        }>
      ).map((t) => t.name);
      expect(tables).toEqual(['notes']);
      expect(
        (db.prepare('PRAGMA application_id').get() as { application_id: number }).application_id,
      ).toBe(0);
      db.close();
      // And again: nothing more to do.
      expect(await completePendingRestore(live)).toBe(false);
      expect(await state()).toEqual(RESTORED);
    },
  );
});
