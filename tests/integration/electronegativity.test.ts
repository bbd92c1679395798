/**
 * Electronegativity over the Electron code and the page, read from its SARIF report: it exits 0
 * even when it finds problems, so the report is what counts. Warnings and errors fail the test;
 * notes ("review the use of openExternal") are for reading, and stay.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const folders: string[] = [];

interface SarifResult {
  level: string;
  ruleId: string;
  message?: { text?: string };
  locations?: Array<{
    physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } };
  }>;
}

async function scan(prepare: (dir: string) => Promise<void>): Promise<SarifResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'relay-electronegativity-'));
  folders.push(dir);
  const input = join(dir, 'input');
  await mkdir(input);
  await prepare(input);
  const report = join(dir, 'report.sarif');
  const bin = join(root, 'node_modules/.bin/electronegativity');
  // The Electron version is given so the tool does not try to look it up online.
  await run(bin, ['-i', input, '-o', report, '-r', '-v', 'false', '-e', '45.4.1'], {
    timeout: 120_000,
  });
  const sarif = JSON.parse(await readFile(report, 'utf8')) as {
    runs: Array<{ results: SarifResult[] }>;
  };
  return sarif.runs.flatMap((r) => r.results);
}

function describeResult(r: SarifResult): string {
  const where = r.locations?.[0]?.physicalLocation;
  return `${r.level} ${r.ruleId} ${where?.artifactLocation?.uri ?? ''}:${where?.region?.startLine ?? ''} ${r.message?.text ?? ''}`;
}

afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('electronegativity', () => {
  it('finds no warning-level problem in electron/ and the page, and fails a weakened window', async () => {
    const [ours, weakened] = await Promise.all([
      scan(async (input) => {
        await cp(join(root, 'electron'), join(input, 'electron'), { recursive: true });
        await cp(join(root, 'renderer/index.html'), join(input, 'index.html'));
      }),
      scan(async (input) => {
        await writeFile(
          join(input, 'main.js'),
          "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
        );
      }),
    ]);
    const serious = ours.filter((r) => r.level === 'warning' || r.level === 'error');
    expect(serious.map(describeResult)).toEqual([]);
    // The same scan does catch a window that turns the boundary off: the check can fail.
    const caught = weakened
      .filter((r) => r.level === 'warning' || r.level === 'error')
      .map((r) => r.ruleId);
    expect(caught).toEqual(
      expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK']),
    );
  }, 180_000);
});
