/**
 * The knowledge store on an in-memory database: bases and their sources, the files read and
 * their chunks, vectors kept for unchanged text, and stored rows that do not read (an error or a
 * refusal's values that are not JSON) read as if they had none.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../../electron/main/services/database';
import type { DocumentResult } from '../../../../electron/main/services/documents/document-text';
import type { Chunk } from '../../../../electron/main/services/knowledge/chunking';
import { storedWords } from '../../../../electron/main/services/knowledge/document-store';
import { KnowledgeStore } from '../../../../electron/main/services/knowledge/knowledge-store';
import {
  KNOWLEDGE_DOMAIN,
  KNOWLEDGE_MIGRATIONS,
} from '../../../../electron/main/services/knowledge/migrations';

const NOW = '2026-01-02T03:04:05.000Z';
let db: Db;
let store: KnowledgeStore;

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  await migrate(db, KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS);
  store = new KnowledgeStore(db);
});
afterEach(() => db.close());

function base(id = 'kb-1', name = 'Notes') {
  store.insert({ id, name, model: 'm', connectionId: 'c-1', now: NOW });
}

function chunk(text: string, ord = 0): Chunk {
  return {
    text,
    start: 0,
    end: text.length,
    page: null,
    headings: ['Intro'],
    lineStart: ord + 1,
    lineEnd: ord + 1,
    hash: `hash-${text}`,
  };
}

const read: DocumentResult = {
  ok: true,
  document: { name: 'a.md', format: 'markdown', mimeType: 'text/markdown', bytes: 3, text: 'a' },
};
const file = (path = '/notes/a.md') => ({ path, name: 'a.md', size: 3, mtimeMs: 1, hash: 'h' });

describe('KnowledgeStore', () => {
  it('lists bases by name with their counts, and refuses a base that is gone', () => {
    base('kb-2', 'beta');
    base('kb-1', 'Alpha');
    expect(store.rows().map((r) => r.name)).toEqual(['Alpha', 'beta']);
    const summary = store.summary(store.row('kb-1'), new Map([['c-1', 'Relay']]));
    expect(summary).toMatchObject({
      id: 'kb-1',
      connectionName: 'Relay',
      status: 'empty',
      files: 0,
      refused: 0,
      chunks: 0,
      embedded: 0,
      dimensions: null,
    });
    expect(store.find('nope')).toBeUndefined();
    expect(() => store.row('nope')).toThrow(expect.objectContaining({ kind: 'not_found' }));
  });

  it('reads a stored error that is not JSON as no error', () => {
    base();
    db.run(`UPDATE knowledge_bases SET status = 'failed', error = '{not json' WHERE id = 'kb-1'`);
    const summary = store.summary(store.row('kb-1'), new Map());
    expect(summary.status).toBe('failed');
    expect(summary).not.toHaveProperty('error');
    expect(summary.connectionName).toBeNull();
  });

  it('marks a base left indexing as cancelled, and ends indexing with its error', () => {
    base('kb-1');
    base('kb-2');
    store.setIndexing('kb-1', NOW);
    store.cancelInterrupted({ kind: 'aborted', message: 'Closed.' });
    expect(store.row('kb-1')).toMatchObject({ status: 'cancelled' });
    expect(JSON.parse(store.row('kb-1').error ?? '')).toMatchObject({ kind: 'aborted' });
    expect(store.row('kb-2')).toMatchObject({ status: 'empty', error: null });
    store.endIndexing('kb-2', 'ready', undefined, NOW);
    expect(store.row('kb-2')).toMatchObject({ status: 'ready', error: null });
  });

  it('adds a source once, removes it by its row id only, and copies them to a new base', () => {
    base();
    expect(
      store.addSources(
        'kb-1',
        [
          { path: '/notes', kind: 'folder' },
          { path: '/notes', kind: 'folder' },
          { path: '/a.txt', kind: 'file' },
        ],
        NOW,
      ),
    ).toBe(2);
    const sources = store.sources('kb-1');
    expect(sources.map((s) => s.path)).toEqual(['/a.txt', '/notes']);
    expect(store.removeSource('kb-1', 'not-a-number')).toBe(false);
    expect(store.removeSource('kb-1', '99999')).toBe(false);
    expect(store.removeSource('kb-1', String(sources[0]?.id))).toBe(true);
    store.copy('kb-1', { id: 'kb-2', name: 'Copy', model: 'n', connectionId: 'c-1', now: NOW });
    expect(store.sourcePaths('kb-2')).toEqual([{ path: '/notes', kind: 'folder' }]);
    expect(store.hasSources('kb-2')).toBe(true);
    store.delete('kb-2');
    expect(store.hasSources('kb-2')).toBe(false);
  });

  it('keeps a chunk’s vector when its text is read again unchanged, and counts the change', () => {
    base();
    const docs = store.documents;
    const first = docs.saveFile(
      'kb-1',
      { fileId: 'f-1', known: false },
      file(),
      read,
      [chunk('one'), chunk('two', 1)],
      NOW,
    );
    expect(first).toEqual({ chunks: 2, embedded: 0 });
    const pending = docs.pendingChunks('kb-1');
    expect(docs.unembedded(pending).map((r) => r.text)).toEqual(['one', 'two']);
    expect(
      docs.saveVectors(
        'kb-1',
        pending,
        [
          [1, 0],
          [0, 1],
        ],
        2,
        7,
      ),
    ).toBe(2);
    expect(store.row('kb-1')).toMatchObject({ dimensions: 2, tokens: 7 });
    expect(docs.chunkCounts('kb-1')).toEqual({ chunks: 2, embedded: 2 });

    const again = docs.saveFile(
      'kb-1',
      { fileId: 'f-1', known: true },
      file(),
      read,
      [chunk('one'), chunk('three', 1)],
      NOW,
    );
    expect(again).toEqual({ chunks: 0, embedded: -1 });
    expect(docs.chunkCounts('kb-1')).toEqual({ chunks: 2, embedded: 1 });
    expect(docs.unembedded(docs.pendingChunks('kb-1')).map((r) => r.text)).toEqual(['three']);
    const [kept] = docs.vectors('kb-1');
    const found = docs.chunk('kb-1', Number(kept?.id));
    expect(found).toMatchObject({ text: 'one', name: 'a.md', path: '/notes/a.md' });
    expect(docs.chunk('kb-2', Number(kept?.id))).toBeUndefined();
    expect(docs.chunkTotals('kb-1')).toEqual({ chunks: 2, chars: 8 });
    expect(docs.sampleText('kb-1')).toBe('one');
  });

  it('keeps a refused file by name and reason, with no chunks, and lists it first', () => {
    base();
    const docs = store.documents;
    docs.saveFile('kb-1', { fileId: 'f-1', known: false }, file(), read, [chunk('one')], NOW);
    const refused: DocumentResult = {
      ok: false,
      refusal: {
        name: 'b.pdf',
        reason: 'encrypted',
        message: 'b.pdf was not added.',
        messageId: 'documents.encrypted' as never,
        values: { name: 'b.pdf' },
      },
    };
    const change = docs.saveFile(
      'kb-1',
      { fileId: 'f-2', known: false },
      { ...file('/notes/b.pdf'), name: 'b.pdf' },
      refused,
      [],
      NOW,
    );
    expect(change).toEqual({ chunks: 0, embedded: 0 });
    const listed = docs.listedFiles('kb-1', 10);
    expect(listed.map((f) => [f.name, f.status, f.reason, f.chunks])).toEqual([
      ['b.pdf', 'refused', 'encrypted', 0],
      ['a.md', 'ready', null, 1],
    ]);
    expect(storedWords(listed[0]!)).toEqual({
      messageId: 'documents.encrypted',
      values: { name: 'b.pdf' },
    });
    expect(docs.readyFileCount('kb-1')).toBe(1);
    expect(store.summary(store.row('kb-1'), new Map())).toMatchObject({ files: 1, refused: 1 });
    docs.deleteFiles(['f-1']);
    expect(docs.chunkCounts('kb-1')).toEqual({ chunks: 0, embedded: 0 });
    expect(docs.file('kb-1', 'f-2')).toEqual({ path: '/notes/b.pdf', name: 'b.pdf' });
  });

  it('reads a refusal’s stored values that are not JSON, or not values, as the key alone', () => {
    expect(storedWords({ message_id: null, message_values: '{}' })).toEqual({});
    expect(storedWords({ message_id: 'k', message_values: null })).toEqual({ messageId: 'k' });
    expect(storedWords({ message_id: 'k', message_values: '{broken' })).toEqual({
      messageId: 'k',
    });
    expect(storedWords({ message_id: 'k', message_values: '[1, 2]' })).toEqual({
      messageId: 'k',
    });
  });

  it('drops every vector when the base moves to another model, keeping its chunks', () => {
    base();
    const docs = store.documents;
    docs.saveFile('kb-1', { fileId: 'f-1', known: false }, file(), read, [chunk('one')], NOW);
    docs.saveVectors('kb-1', docs.pendingChunks('kb-1'), [[1, 2, 3]], 3, 4);
    store.switchModel('kb-1', 'other', NOW);
    expect(store.row('kb-1')).toMatchObject({ model: 'other', dimensions: null, tokens: 0 });
    expect(docs.chunkCounts('kb-1')).toEqual({ chunks: 1, embedded: 0 });
    docs.touchFile('f-1', 10, 20);
    expect(docs.files('kb-1')[0]).toMatchObject({ size: 10, mtime_ms: 20 });
  });
});
