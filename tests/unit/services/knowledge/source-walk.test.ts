/**
 * The walk under a knowledge base's sources: files in a stable order, hidden files and links
 * left out, a source gone skipped, the file limit kept; and a file's hash, none when unreadable.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashFile, walkSources } from '../../../../electron/main/services/knowledge/source-walk';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-source-walk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('walkSources', () => {
  it('finds the files in order, leaving out hidden files, links and sources gone', async () => {
    await mkdir(join(dir, 'docs', 'b'), { recursive: true });
    await writeFile(join(dir, 'docs', 'z.txt'), 'z');
    await writeFile(join(dir, 'docs', 'b', 'a.txt'), 'a');
    await writeFile(join(dir, 'docs', '.hidden.txt'), 'h');
    await mkdir(join(dir, 'docs', '.git'));
    await writeFile(join(dir, 'docs', '.git', 'config'), 'c');
    await writeFile(join(dir, 'single.md'), '# One');
    await symlink(join(dir, 'docs'), join(dir, 'docs', 'loop'));
    const found = await walkSources([
      { path: join(dir, 'docs'), kind: 'folder' },
      { path: join(dir, 'single.md'), kind: 'file' },
      { path: join(dir, 'gone'), kind: 'folder' },
      { path: join(dir, 'docs', 'z.txt'), kind: 'file' },
    ]);
    expect(found.map((f) => f.path)).toEqual([
      join(dir, 'docs', 'b', 'a.txt'),
      join(dir, 'docs', 'z.txt'),
      join(dir, 'single.md'),
    ]);
    expect(found[0]).toMatchObject({ size: 1 });
    expect(typeof found[0]?.mtimeMs).toBe('number');
  });

  it('stops at the file limit', async () => {
    for (let i = 0; i < 5; i++) await writeFile(join(dir, `n-${i}.txt`), String(i));
    const found = await walkSources([{ path: dir, kind: 'folder' }], 3);
    expect(found.map((f) => f.path)).toEqual([0, 1, 2].map((i) => join(dir, `n-${i}.txt`)));
  });
});

describe('hashFile', () => {
  it('hashes the bytes, and gives nothing for a file it cannot read', async () => {
    await writeFile(join(dir, 'a.txt'), 'harbour');
    expect(await hashFile(join(dir, 'a.txt'))).toBe(
      createHash('sha256').update('harbour').digest('hex'),
    );
    expect(await hashFile(join(dir, 'missing.txt'))).toBeUndefined();
  });
});
