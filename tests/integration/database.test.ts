import { copyFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  databasePath,
  migrate,
  MigrationError,
  openDatabase,
  type Migration,
} from '../../electron/main/services/database';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-db-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const notes: Migration[] = [
  {
    version: 1,
    name: 'notes table',
    up: (db) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)'),
  },
  {
    version: 2,
    name: 'note titles',
    up: (db) => db.exec("ALTER TABLE notes ADD COLUMN title TEXT NOT NULL DEFAULT ''"),
  },
];

describe('the database', () => {
  it('opens in WAL mode, migrates each domain once, and keeps rows free of driver metadata', async () => {
    const db = await openDatabase({ path: databasePath(dir) });
    expect(db.one<{ journal_mode: string }>('PRAGMA journal_mode')?.journal_mode).toBe('wal');
    expect((await migrate(db, 'notes', notes)).applied).toEqual([1, 2]);
    expect((await migrate(db, 'notes', notes)).applied).toEqual([]);
    db.run('INSERT INTO notes (body, title) VALUES (?, ?)', ['hello', 't']);
    expect(db.one('SELECT body, title FROM notes')).toEqual({ body: 'hello', title: 't' });
    expect(db.integrityCheck()).toBe('ok');
    db.close();
  });

  it('leaves every write in the database file when it closes, with statements still prepared', async () => {
    const path = databasePath(dir);
    const db = await openDatabase({ path });
    await migrate(db, 'notes', notes);
    db.run('INSERT INTO notes (body) VALUES (?)', ['kept']);
    // Read through a prepared statement the connection keeps, as every query does.
    expect(db.one('SELECT body FROM notes')).toEqual({ body: 'kept' });
    expect((await stat(`${path}-wal`)).size).toBeGreaterThan(0);
    db.close();
    // The WAL is checkpointed into the file: gone or empty.
    const wal = await stat(`${path}-wal`).catch(() => undefined);
    expect(wal?.size ?? 0).toBe(0);
    // The file alone, without its WAL beside it, holds the write.
    const alone = join(dir, 'alone.db');
    await copyFile(path, alone);
    const copy = await openDatabase({ path: alone });
    expect(copy.one('SELECT body FROM notes')).toEqual({ body: 'kept' });
    copy.close();
  });

  it('keeps the text after a NUL character (the driver would cut a bound string there)', async () => {
    const db = await openDatabase({ path: databasePath(dir) });
    await migrate(db, 'notes', notes);
    db.run('INSERT INTO notes (body, title) VALUES (?, ?)', ['before\0after', 't\0\0']);
    db.run('INSERT INTO notes (body) VALUES (:body)', { body: 'named\0param' });
    expect(db.all('SELECT body, title FROM notes ORDER BY id')).toEqual([
      { body: 'before\uFFFDafter', title: 't\uFFFD\uFFFD' },
      { body: 'named\uFFFDparam', title: '' },
    ]);
    expect(db.one('SELECT body FROM notes WHERE body = ?', ['before\0after'])).toEqual({
      body: 'before\uFFFDafter',
    });
    db.close();
  });

  it('keeps no copies on the first start, when one domain after another makes its tables', async () => {
    const db = await openDatabase({ path: databasePath(dir) });
    await migrate(db, 'notes', notes);
    const later = await migrate(db, 'tags', [
      { version: 1, name: 'tags table', up: (d) => d.exec('CREATE TABLE tags (name TEXT)') },
    ]);
    expect(later).toEqual({ applied: [1] });
    expect((await readdir(dir)).filter((f) => f.endsWith('.bak'))).toEqual([]);
    db.close();
  });

  it('copies a database that held data before a domain it never had makes its tables', async () => {
    let db = await openDatabase({ path: databasePath(dir) });
    await migrate(db, 'notes', notes);
    db.close();
    db = await openDatabase({ path: databasePath(dir) });
    const result = await migrate(db, 'tags', [
      { version: 1, name: 'tags table', up: (d) => d.exec('CREATE TABLE tags (name TEXT)') },
    ]);
    expect(result.backupPath).toMatch(/before-tags-1/);
    db.close();
  });

  it('opens a database of every earlier version with its data intact', async () => {
    let db = await openDatabase({ path: databasePath(dir) });
    await migrate(db, 'notes', notes.slice(0, 1));
    db.run('INSERT INTO notes (body) VALUES (?)', ['written by version 1']);
    db.close();

    db = await openDatabase({ path: databasePath(dir) });
    const result = await migrate(db, 'notes', notes);
    expect(result.applied).toEqual([2]);
    expect(result.backupPath).toMatch(/before-notes-2/);
    expect(db.all('SELECT body, title FROM notes')).toEqual([
      { body: 'written by version 1', title: '' },
    ]);
    db.close();
  });

  it('a migration that throws halfway leaves the original data and a backup, never an empty database', async () => {
    let db = await openDatabase({ path: databasePath(dir) });
    await migrate(db, 'notes', notes);
    db.run('INSERT INTO notes (body) VALUES (?)', ['precious']);
    const broken: Migration = {
      version: 3,
      name: 'half done',
      up: (d) => {
        d.exec('CREATE TABLE tags (name TEXT)');
        d.exec('DELETE FROM notes');
        throw new Error('disk full');
      },
    };
    const error = await migrate(db, 'notes', [...notes, broken]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toMatch(
      /step 3, half done\) failed: disk full.*left as it was.*copy was kept/,
    );
    expect(db.all('SELECT body FROM notes')).toEqual([{ body: 'precious' }]);
    expect(db.all("SELECT name FROM sqlite_master WHERE name = 'tags'")).toEqual([]);
    db.close();

    const backup = (await readdir(dir)).find((f) => f.includes('before-notes-3'));
    expect(backup).toBeDefined();
    const copy = await openDatabase({ path: join(dir, backup as string) });
    expect(copy.all('SELECT body FROM notes')).toEqual([{ body: 'precious' }]);
    copy.close();

    db = await openDatabase({ path: databasePath(dir) });
    expect(db.all('SELECT body FROM notes')).toEqual([{ body: 'precious' }]);
    db.close();
  });

  it('keeps the migrations of different domains apart', async () => {
    const db = await openDatabase({ path: ':memory:' });
    await migrate(db, 'notes', notes);
    const other: Migration[] = [
      { version: 1, name: 'others', up: (d) => d.exec('CREATE TABLE others (x)') },
    ];
    expect((await migrate(db, 'others', other)).applied).toEqual([1]);
    db.close();
  });
});
