/**
 * The canary sweep's own checks (section 9's final sweep runs as tests/reliability/canary-sweep.ts
 * after the whole suite): it finds the key in every form it looks for, allows the prompt only in
 * database files, and searches nested values for the key.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { RelayError } from '../../electron/main/services/relay/relay-client';
import { CANARY_KEY, CANARY_PROMPT, containsKey, deepText, suiteDir, sweep } from './lib/canary';

const dirs: string[] = [];
// Removed even in a full run: these folders hold a planted key, which the final sweep would find.
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('finds a planted key in UTF-8, UTF-16 and base64, and the prompt outside the database', async () => {
  const dir = await suiteDir('sweep-control');
  dirs.push(dir);
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs', 'main.log'), `line with Bearer ${CANARY_KEY}\n`);
  writeFileSync(join(dir, 'utf16.bin'), Buffer.from(CANARY_KEY, 'utf16le'));
  writeFileSync(join(dir, 'b64.txt'), Buffer.from(CANARY_KEY).toString('base64'));
  writeFileSync(join(dir, 'no-prefix.txt'), CANARY_KEY.slice(3));
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({ last: CANARY_PROMPT }));
  writeFileSync(join(dir, 'relay-desktop.db'), `SQLite ${CANARY_PROMPT}`);
  writeFileSync(join(dir, 'relay-desktop.db-wal'), `WAL ${CANARY_PROMPT}`);
  const result = sweep([dir], [{ name: 'console', text: `error: ${CANARY_KEY}` }]);
  expect(
    result.hits.map((h) => `${h.what}: ${h.file.split('/').slice(1).join('/') || h.file}`).sort(),
  ).toEqual([
    'key: b64.txt',
    'key: console',
    'key: logs/main.log',
    'key: no-prefix.txt',
    'key: utf16.bin',
    'prompt outside the database: settings.json',
  ]);
  expect(result.promptInDatabase).toBe(2);
});

it('a clean folder passes', async () => {
  const dir = await suiteDir('sweep-clean');
  dirs.push(dir);
  writeFileSync(join(dir, 'connections.json'), '{"connections":[{"keyLast4":"0b9d"}]}');
  expect(sweep([dir]).hits).toEqual([]);
});

it('searches errors deeply: message, stack, cause and nested values', () => {
  const nested = new Error('outer', { cause: new Error(`inner ${CANARY_KEY}`) });
  expect(containsKey(deepText(nested))).toBe(true);
  expect(containsKey(deepText({ a: [{ b: new Map([['k', `x${CANARY_KEY}`]]) }] }))).toBe(true);
  expect(
    containsKey(deepText(new RelayError('unauthorized', 'The relay did not accept the key.'))),
  ).toBe(false);
});
