/**
 * The files under a knowledge base's sources as the disk has them now, and the hash of a file's
 * bytes: what indexing compares with the files it read before.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceKind } from './knowledge-store';

/** The most files one base holds; a folder with more is cut there, and the person told. */
export const MAX_KNOWLEDGE_FILES = 10_000;

/** A file found under the sources, as the disk has it now. */
export interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * The files under `sources` now, in a stable order, at most `limit`; hidden files are left out,
 * and links are not followed (a link loop, or a link out of the folder, adds nothing).
 */
export async function walkSources(
  sources: readonly { path: string; kind: SourceKind }[],
  limit = MAX_KNOWLEDGE_FILES,
): Promise<FoundFile[]> {
  const found = new Map<string, FoundFile>();
  const visit = async (path: string, depth: number): Promise<void> => {
    if (found.size >= limit || depth > 32) return;
    let info;
    try {
      info = await lstat(path);
    } catch {
      return; // gone: its file drops out
    }
    if (info.isDirectory()) {
      let entries: string[];
      try {
        entries = (await readdir(path)).sort();
      } catch {
        return;
      }
      for (const entry of entries) {
        if (entry.startsWith('.')) continue;
        await visit(join(path, entry), depth + 1);
      }
    } else if (info.isFile()) {
      found.set(path, { path, size: info.size, mtimeMs: info.mtimeMs });
    }
  };
  for (const source of sources) await visit(source.path, 0);
  return [...found.values()];
}

/** sha256 of a file's bytes, read as a stream (a large PDF never sits whole in main). */
export function hashFile(path: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (data) => hash.update(data))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', () => resolve(undefined));
  });
}
