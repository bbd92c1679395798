/**
 * Section 9, the canary sweep, run by `npm run test:reliability` after the whole suite: every
 * user data folder the suite made (with their logs/ and the console output sections saved) is
 * searched for the canary key, which may appear nowhere, and the canary prompt, which may appear
 * only inside the SQLite database files. Records the figures, removes the folders, and exits 1 on
 * any find.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CANARY_KEY,
  CANARY_PROMPT_MARK,
  containsKey,
  containsPrompt,
  SUITE_ROOT,
  sweep,
} from './lib/canary';
import { recordFigures } from './lib/record';

function main(): void {
  if (!existsSync(SUITE_ROOT)) {
    process.stderr.write(`No user data folders at ${SUITE_ROOT}: run the suite first.\n`);
    process.exit(1);
  }
  const folders = readdirSync(SUITE_ROOT, { withFileTypes: true }).filter((e) => e.isDirectory());
  const logs = folders.filter((f) => existsSync(join(SUITE_ROOT, f.name, 'logs'))).length;

  // Positive controls: the search finds the key in each form it looks for, and the prompt.
  const control = join(SUITE_ROOT, 'control-positive');
  rmSync(control, { recursive: true, force: true });
  writeFileSync(control, Buffer.from(`x ${CANARY_KEY} x`, 'utf16le'));
  const controlFound = sweep([SUITE_ROOT]).hits.some((h) => h.file === 'control-positive');
  rmSync(control, { force: true });
  const controls =
    controlFound &&
    containsKey(Buffer.from(CANARY_KEY).toString('base64')) &&
    containsKey(CANARY_KEY.slice(3)) &&
    containsPrompt(`..${CANARY_PROMPT_MARK}..`);

  const result = sweep([SUITE_ROOT]);
  const keyHits = result.hits.filter((h) => h.what === 'key');
  const promptHits = result.hits.filter((h) => h.what !== 'key');
  recordFigures(
    9,
    'Canary sweep',
    [
      { name: 'User data folders searched', value: folders.length },
      { name: '… of which with a support log (logs/)', value: logs },
      { name: 'Files searched', value: result.files },
      { name: 'Bytes searched', value: result.bytes },
      {
        name: 'Places holding the canary key',
        value: keyHits.length,
        target: '0',
        ok: keyHits.length === 0,
      },
      {
        name: 'Files outside the database holding the canary prompt',
        value: promptHits.length,
        target: '0',
        ok: promptHits.length === 0,
      },
      {
        name: 'Database files holding the canary prompt (as expected)',
        value: result.promptInDatabase,
        target: '> 0',
        ok: result.promptInDatabase > 0,
      },
      {
        name: 'Positive controls (the search finds a planted key and prompt)',
        value: controls ? 'passed' : 'FAILED',
        ok: controls,
      },
    ],
    [
      'Searched for: the key in UTF-8, UTF-16LE and base64, with and without its sk- prefix; the prompt’s distinctive mark in UTF-8, UTF-16LE and base64.',
      'Database files: relay-desktop.db, its -wal and -shm, and the backups migrations take (relay-desktop.db.before-*.bak).',
      'Sections 2 and 3 also searched the console output, errors and bridge messages they captured, and every section searched its own folders when it ended.',
      ...result.hits.slice(0, 10).map((h) => `Found: ${h.what} in ${h.file}`),
    ],
  );
  if (result.hits.length > 0 || !controls || result.promptInDatabase === 0) {
    process.stderr.write(
      `Canary sweep failed:\n${result.hits.map((h) => `  - ${h.what}: ${h.file}`).join('\n')}${controls ? '' : '\n  - a positive control was not found'}${result.promptInDatabase === 0 ? '\n  - the prompt is in no database file: did the suite run?' : ''}\n`,
    );
    process.exit(1);
  }
  rmSync(SUITE_ROOT, { recursive: true, force: true });
  process.stdout.write(
    `Canary sweep: ${result.files} files in ${folders.length} folders, no key, the prompt only in ${result.promptInDatabase} database files.\n`,
  );
}

main();
