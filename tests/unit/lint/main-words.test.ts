/**
 * Main's words reach the page by their key in main's catalogue (`said('key', values)`), so the
 * page shows them in the person's language: no error main makes is written as English text alone.
 * A scan of main's sources for the two ways English slipped through: an `AppError` given a text,
 * and an error object written with a text `message`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const main = join(root, 'electron/main');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `new AppError('kind', 'text…')` or `` `text…` ``: a refusal without a key. */
const TEXT_APP_ERROR = /new AppError\(\s*'[a-z_]+',\s*[`'"]/g;
/** `{ kind: 'aborted', message: 'text…' }`: an error for the page written in English. */
const TEXT_IPC_ERROR = /kind: '[a-z_]+',\s*message: [`'"]/g;

function unkeyed(text: string): string[] {
  return [...text.matchAll(TEXT_APP_ERROR), ...text.matchAll(TEXT_IPC_ERROR)].map((m) =>
    m[0].replace(/\s+/g, ' '),
  );
}

describe("main's errors for the page", () => {
  it('are said by a key of the catalogue, never by English text alone', () => {
    const found = sources(main).flatMap((path) =>
      unkeyed(readFileSync(path, 'utf8')).map((hit) => `${relative(root, path)}: ${hit}`),
    );
    expect(found).toEqual([]);
  });

  it('are caught by the scan when written as text', () => {
    expect(unkeyed("throw new AppError(\n  'not_found',\n  `${name} is gone`,\n);")).toHaveLength(
      1,
    );
    expect(unkeyed("store.end({ kind: 'aborted', message: 'The app closed.' });")).toHaveLength(1);
    expect(unkeyed("throw new AppError('not_found', said('knowledge.gone'));")).toEqual([]);
  });
});
