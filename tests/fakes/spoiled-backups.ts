/**
 * Bad backup files, each made from a good one: cut short, changed after its checksum, damaged,
 * missing rows, another program's, the app's own database, not SQLite, made by a newer release.
 * A restore must refuse each with its reason before anything changes.
 */
import { copyFile, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import {
  checksumLine,
  MANIFEST_TABLE,
  sha256File,
} from '../../electron/main/services/backups/backup-file';

/** Makes a bad file out of a good backup; returns the id to restore. */
export type Spoil = (good: string, folder: string, liveDatabase: string) => Promise<string>;

async function copyAs(good: string, folder: string, name: string): Promise<string> {
  await copyFile(good, join(folder, name));
  return name;
}

const NEWER_NAME = 'relay-desktop-backup-2025-03-10T09-30-00Z-abcdef.db';

/** Each bad file: what it is, how it is made from a good backup, and the reason it is refused with. */
export const SPOILED_BACKUPS: Array<[string, Spoil, RegExp]> = [
  [
    'a truncated file',
    async (good, folder) => {
      const name = await copyAs(
        good,
        folder,
        'relay-desktop-backup-2025-03-10T09-10-00Z-abcdef.db',
      );
      const size = (await readFile(join(folder, name))).length;
      await truncate(join(folder, name), Math.floor(size / 2));
      return name;
    },
    /is incomplete: it holds [\d,]+ of its [\d,]+ bytes/,
  ],
  [
    'a file changed after its checksum',
    async (good, folder) => {
      const name = 'relay-desktop-backup-2025-03-10T09-11-00Z-abcdef.db';
      await copyAs(good, folder, name);
      await writeFile(join(folder, `${name}.sha256`), checksumLine(await sha256File(good), name));
      const db = new Database(join(folder, name));
      db.exec('DELETE FROM chat_messages WHERE rowid IN (SELECT rowid FROM chat_messages LIMIT 1)');
      db.close();
      return name;
    },
    /does not match its checksum/,
  ],
  [
    'a corrupt file without a checksum',
    async (good, folder) => {
      const name = await copyAs(
        good,
        folder,
        'relay-desktop-backup-2025-03-10T09-12-00Z-abcdef.db',
      );
      const bytes = await readFile(join(folder, name));
      // Every page after the first three overwritten: SQLite's own check must catch it.
      bytes.fill(0x5a, 4096 * 3);
      await writeFile(join(folder, name), bytes);
      return name;
    },
    /is damaged/,
  ],
  [
    'rows missing though the file is sound',
    async (good, folder) => {
      const name = await copyAs(
        good,
        folder,
        'relay-desktop-backup-2025-03-10T09-13-00Z-abcdef.db',
      );
      const db = new Database(join(folder, name));
      db.exec('DELETE FROM embedding_items');
      db.close();
      return name;
    },
    /does not hold the rows it was made with \(embedding_items: 0 rows/,
  ],
  [
    "another program's SQLite file",
    async (_good, folder) => {
      const name = 'relay-desktop-backup-2025-03-10T09-14-00Z-abcdef.db';
      const db = new Database(join(folder, name));
      db.exec(
        'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES (1)',
      );
      db.close();
      return name;
    },
    /is a SQLite database of another program, not a Relay Desktop backup/,
  ],
  [
    "the app's own database file",
    async (_good, folder, liveDatabase) =>
      copyAs(liveDatabase, folder, 'relay-desktop-backup-2025-03-10T09-15-00Z-abcdef.db'),
    /is a Relay Desktop database file, not a backup/,
  ],
  [
    'a file that is not SQLite at all',
    async (_good, folder) => {
      const name = 'relay-desktop-backup-2025-03-10T09-16-00Z-abcdef.db';
      await writeFile(
        join(folder, name),
        'PK\u0003\u0004 this is a zip, not a database'.repeat(20),
      );
      return name;
    },
    /is not a Relay Desktop backup \(it is not a SQLite database\)/,
  ],
  [
    'a backup made by a newer version',
    async (good, folder) => {
      await copyAs(good, folder, NEWER_NAME);
      const db = new Database(join(folder, NEWER_NAME));
      // What a later release would have written: a step of the chat schema this one lacks.
      const step =
        (
          db
            .prepare("SELECT max(version) AS v FROM schema_migrations WHERE domain = 'chat'")
            .get() as {
            v: number;
          }
        ).v + 1;
      db.prepare(
        "INSERT INTO schema_migrations VALUES ('chat', ?, 'a later step', '2025-03-10')",
      ).run(step);
      const row = db.prepare(`SELECT manifest FROM ${MANIFEST_TABLE}`).get() as {
        manifest: string;
      };
      const manifest = JSON.parse(row.manifest) as Record<string, unknown>;
      manifest.appVersion = '0.3.0';
      manifest.schema = { ...(manifest.schema as object), chat: step };
      const tables = manifest.tables as Record<string, number>;
      tables.schema_migrations = (tables.schema_migrations ?? 0) + 1;
      db.prepare(`UPDATE ${MANIFEST_TABLE} SET manifest = ?`).run(JSON.stringify(manifest));
      db.close();
      const path = join(folder, NEWER_NAME);
      await writeFile(`${path}.sha256`, checksumLine(await sha256File(path), NEWER_NAME));
      return NEWER_NAME;
    },
    /was made by Relay Desktop 0\.3\.0.*Install Relay Desktop 0\.3\.0 or later to restore it/,
  ],
];
