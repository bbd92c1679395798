/**
 * The one canary key and canary prompt every section of the reliability suite uses, the folder
 * all its user data folders live in, and the sweep that searches them (section 9).
 *
 * The key may appear nowhere: not in an error, a log line, a bridge message or any file. The
 * prompt may appear only inside the SQLite database files (the conversation is stored there).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { FULL } from './record';

export const CANARY_KEY = 'sk-relcanary-5d83b1f0e7a94c26b9d0';
export const CANARY_PROMPT = 'Canary prompt quokka-velvet-4417: describe tide pools at dawn.';
/** A distinctive part of the prompt, searched for on its own as well. */
export const CANARY_PROMPT_MARK = 'quokka-velvet-4417';

/**
 * Where every user data folder of the suite is made. Fixed (not per process), so that the canary
 * sweep run after the whole suite finds the folders of every section. Each reduced run sweeps and
 * removes its own folders when its file ends; a full run leaves them for the final sweep.
 */
export const SUITE_ROOT = join(
  process.env.RELIABILITY_ROOT ?? tmpdir(),
  'relay-desktop-reliability',
);

/** A fresh user data folder for one section, inside the suite's root. */
export async function suiteDir(section: string): Promise<string> {
  mkdirSync(SUITE_ROOT, { recursive: true });
  return mkdtemp(join(SUITE_ROOT, `${section}-`));
}

/** Whether a file is one of the SQLite database files (the file, its WAL, a migration backup). */
export function isDatabaseFile(path: string): boolean {
  return /\.db(-wal|-shm|-journal)?$/.test(path) || /\.db\.before-[^/]*\.bak$/.test(path);
}

/** The byte forms a leaked secret could take in a file: UTF-8, UTF-16 and base64 of UTF-8. */
function needles(secret: string): Buffer[] {
  return [
    Buffer.from(secret, 'utf8'),
    Buffer.from(secret, 'utf16le'),
    Buffer.from(Buffer.from(secret, 'utf8').toString('base64').slice(0, 24), 'utf8'),
  ];
}

const KEY_NEEDLES = [...needles(CANARY_KEY), ...needles(CANARY_KEY.slice(3))];
const PROMPT_NEEDLES = needles(CANARY_PROMPT_MARK);

export function containsKey(bytes: Buffer | string): boolean {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return KEY_NEEDLES.some((needle) => buffer.includes(needle));
}

export function containsPrompt(bytes: Buffer | string): boolean {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return PROMPT_NEEDLES.some((needle) => buffer.includes(needle));
}

/**
 * Everything reachable from a value as text: own properties (enumerable or not, so `message`,
 * `stack` and `cause` too), nested objects, arrays, maps and sets, cycles cut.
 */
export function deepText(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' && typeof value !== 'function') return String(value);
  if (seen.has(value)) return '';
  seen.add(value);
  const parts: string[] = [];
  if (value instanceof Map) {
    for (const [k, v] of value) parts.push(deepText(k, seen), deepText(v, seen));
  } else if (value instanceof Set) {
    for (const v of value) parts.push(deepText(v, seen));
  } else if (ArrayBuffer.isView(value)) {
    parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8'));
  }
  for (const name of Object.getOwnPropertyNames(value)) {
    let v: unknown;
    try {
      v = (value as Record<string, unknown>)[name];
    } catch {
      continue;
    }
    parts.push(name, deepText(v, seen));
  }
  return parts.join('\n');
}

export interface SweepHit {
  file: string;
  what: 'key' | 'prompt outside the database';
}

export interface SweepResult {
  files: number;
  bytes: number;
  /** Database files holding the canary prompt (expected when a conversation was stored). */
  promptInDatabase: number;
  hits: SweepHit[];
}

function walk(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      continue;
    }
    if (stats.isDirectory()) walk(path, out);
    else if (stats.isFile()) out.push(path);
  }
}

/**
 * Searches every file under `roots` (user data folders, their `logs/`, exports) and each captured
 * text (console output, bridge messages, errors) for the canary key and the canary prompt.
 */
export function sweep(
  roots: string[],
  texts: Array<{ name: string; text: string }> = [],
): SweepResult {
  const result: SweepResult = { files: 0, bytes: 0, promptInDatabase: 0, hits: [] };
  const files: string[] = [];
  for (const root of roots) walk(root, files);
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      continue;
    }
    result.files++;
    result.bytes += bytes.length;
    const name = relative(SUITE_ROOT, file).startsWith('..') ? file : relative(SUITE_ROOT, file);
    if (containsKey(bytes)) result.hits.push({ file: name, what: 'key' });
    if (containsPrompt(bytes)) {
      if (isDatabaseFile(file)) result.promptInDatabase++;
      else result.hits.push({ file: name, what: 'prompt outside the database' });
    }
  }
  for (const { name, text } of texts) {
    result.bytes += text.length;
    if (containsKey(text)) result.hits.push({ file: name, what: 'key' });
    if (containsPrompt(text)) result.hits.push({ file: name, what: 'prompt outside the database' });
  }
  return result;
}

/** Removes a section's folders after its own sweep, unless the full run's final sweep needs them. */
export function cleanUp(dirs: string[]): void {
  if (FULL) return;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

/** Keeps a section's captured console output for the final sweep of a full run. */
export function keepOutput(section: string, text: string): void {
  if (!FULL) return;
  mkdirSync(join(SUITE_ROOT, 'console'), { recursive: true });
  writeFileSync(join(SUITE_ROOT, 'console', `${section}.log`), text);
}
