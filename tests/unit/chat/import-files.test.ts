/**
 * One import's limits (the files' total, what zips unpack to) and how it is written: hidden
 * until the last slice, and nothing left when writing fails half-way.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readImportFiles } from '../../../electron/main/services/chat/import-files';
import { ChatStore } from '../../../electron/main/services/chat/store';
import {
  importConversations,
  toJson,
  type ExportedConversation,
} from '../../../electron/main/services/chat/transfer';
import { openDatabase } from '../../../electron/main/services/database';

const AT = '2026-01-01T00:00:00.000Z';

function conversation(title: string, messages = 1): ExportedConversation {
  return {
    title,
    createdAt: AT,
    updatedAt: AT,
    pinned: false,
    model: null,
    systemPrompt: '',
    temperature: null,
    maxTokens: null,
    messages: Array.from({ length: messages }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `${title} ${i} ${'x'.repeat(300)}`,
      status: 'complete' as const,
      createdAt: AT,
    })),
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-import-files-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the size of one import', () => {
  const limits = { maxFileBytes: 4000, maxTotalBytes: 2000, maxZipEntries: 10 };

  it('reads files until their total would pass the limit, and refuses the rest by name', async () => {
    const paths = [];
    for (const name of ['a', 'b', 'c']) {
      const path = join(dir, `${name}.json`);
      await writeFile(path, toJson([conversation(name)], new Date(AT)));
      paths.push(path);
    }
    const titles: string[] = [];
    const result = await readImportFiles(paths, (c) => titles.push(c.title), limits);
    expect(titles).toEqual(['a', 'b']);
    expect(result).toEqual({
      documents: 2,
      refused: [{ name: 'c.json', reason: expect.stringMatching(/at most 0\.0 MB in all/) }],
    });
  });

  it('counts what a zip unpacks to, not its packed size', async () => {
    const zip = zipSync({
      'one.json': strToU8(toJson([conversation('one')], new Date(AT))),
      'two.json': strToU8(toJson([conversation('two')], new Date(AT))),
      'three.json': strToU8(toJson([conversation('three')], new Date(AT))),
    });
    const path = join(dir, 'all.zip');
    await writeFile(path, zip);
    expect(zip.byteLength).toBeLessThan(limits.maxTotalBytes);
    const titles: string[] = [];
    const result = await readImportFiles([path], (c) => titles.push(c.title), limits);
    expect(titles).toEqual([]);
    expect(result.refused).toEqual([
      {
        name: 'all.zip',
        reason: expect.stringMatching(/unpack|too (big|large)/),
        messageId: 'zip.tooLarge',
        values: expect.objectContaining({ name: 'all.zip' }),
      },
    ]);
  });
});

describe('writing an import', () => {
  it('keeps the conversations hidden until all are written, then shows them at once', async () => {
    const db = await openDatabase({ path: ':memory:' });
    const store = await ChatStore.open(db);
    const seen: number[] = [];
    const ids = await importConversations(
      store,
      Array.from({ length: 30 }, (_, i) => conversation(`c${i}`, 120)),
      { sliceMs: 1, pause: async () => void seen.push(store.list().length) },
    );
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((visible) => visible === 0)).toBe(true);
    expect(
      store
        .list()
        .map((c) => c.id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(store.allMessages(ids[0]!)).toHaveLength(120);
    db.close();
  });

  it('leaves nothing behind when writing fails half-way', async () => {
    const db = await openDatabase({ path: ':memory:' });
    const store = await ChatStore.open(db);
    let pauses = 0;
    await expect(
      importConversations(
        store,
        Array.from({ length: 30 }, (_, i) => conversation(`c${i}`, 120)),
        {
          sliceMs: 1,
          pause: async () => {
            if (++pauses === 3) throw new Error('disk full');
          },
        },
      ),
    ).rejects.toThrow('disk full');
    expect(store.list()).toEqual([]);
    expect(db.one<{ n: number }>('SELECT count(*) AS n FROM chat_conversations')?.n).toBe(0);
    expect(db.one<{ n: number }>('SELECT count(*) AS n FROM chat_messages')?.n).toBe(0);
    db.close();
  });
});
