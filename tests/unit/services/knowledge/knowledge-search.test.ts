/**
 * Knowledge search over a store on an in-memory database and a scripted relay client: a
 * question embedded with the base's model, chunks ranked by cosine with a heading after the
 * passages, packed vectors forgotten when told, and the refusals before anything is sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../../../../electron/main/services/database';
import type { Chunk } from '../../../../electron/main/services/knowledge/chunking';
import { KnowledgeSearch } from '../../../../electron/main/services/knowledge/knowledge-search';
import { KnowledgeStore } from '../../../../electron/main/services/knowledge/knowledge-store';
import {
  KNOWLEDGE_DOMAIN,
  KNOWLEDGE_MIGRATIONS,
} from '../../../../electron/main/services/knowledge/migrations';
import type { RelayClient } from '../../../../electron/main/services/relay/relay-client';

const NOW = '2026-01-02T03:04:05.000Z';
let db: Db;
let store: KnowledgeStore;
let question: number[];
let asked: Array<{ connectionId: string; model: string; input: unknown }>;

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  await migrate(db, KNOWLEDGE_DOMAIN, KNOWLEDGE_MIGRATIONS);
  store = new KnowledgeStore(db);
  store.insert({ id: 'kb-1', name: 'Notes', model: 'm', connectionId: 'c-1', now: NOW });
  question = [1, 0];
  asked = [];
});
afterEach(() => db.close());

function search() {
  return new KnowledgeSearch(store, async (connectionId) => {
    return {
      embed: async ({ model, input }: { model: string; input: unknown }) => {
        asked.push({ connectionId, model, input });
        return { model, vectors: [question], usage: { promptTokens: 3 } };
      },
    } as unknown as RelayClient;
  });
}

function chunk(text: string, ord: number): Chunk {
  return {
    text,
    start: 0,
    end: text.length,
    page: ord === 0 ? 2 : null,
    headings: ['Intro'],
    lineStart: ord + 1,
    lineEnd: ord + 2,
    hash: `hash-${ord}`,
  };
}

/** Three chunks: a heading alone nearest the question, then two passages. */
function embedded(
  vectors: number[][] = [
    [1, 0],
    [0.8, 0.2],
    [0, 1],
  ],
) {
  const docs = store.documents;
  const texts = ['# Harbour', 'The harbour opens at six.', 'Unrelated.'];
  docs.saveFile(
    'kb-1',
    { fileId: 'f-1', known: false },
    { path: '/notes/a.md', name: 'a.md', size: 1, mtimeMs: 1, hash: 'h' },
    {
      ok: true,
      document: { name: 'a.md', format: 'markdown', mimeType: 'text/markdown', bytes: 1, text: '' },
    },
    texts.map(chunk),
    NOW,
  );
  docs.saveVectors('kb-1', docs.pendingChunks('kb-1'), vectors, 2, 0);
}

describe('KnowledgeSearch', () => {
  it('ranks a heading alone after every passage found with it, keeping its score', async () => {
    embedded();
    const { hits, tokens } = await search().search('kb-1', '  When does it open? ', 3);
    expect(tokens).toBe(3);
    expect(asked).toEqual([{ connectionId: 'c-1', model: 'm', input: ['When does it open?'] }]);
    expect(hits.map((h) => [h.rank, h.text])).toEqual([
      [1, 'The harbour opens at six.'],
      [2, 'Unrelated.'],
      [3, '# Harbour'],
    ]);
    expect(hits[2]?.score).toBeCloseTo(1);
    expect(hits[0]).toMatchObject({
      fileName: 'a.md',
      path: '/notes/a.md',
      position: { page: null, headings: ['Intro'], lineStart: 2, lineEnd: 3 },
    });
    expect(hits[0]).not.toHaveProperty('vector');
  });

  it('reads chunks back by id with their vectors, leaving out ids not in the base', () => {
    embedded();
    const ids = store.documents.vectors('kb-1').map((v) => String(v.id));
    const found = search().chunks('kb-1', [...ids.slice(0, 1), '999999', 'x']);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ text: '# Harbour', position: { page: 2 } });
    expect(Array.from(found[0]?.vector ?? [])).toEqual([1, 0]);
  });

  it('reads a chunk whose stored headings are damaged as one without headings, its text kept', () => {
    embedded();
    const ids = store.documents.vectors('kb-1').map((v) => String(v.id));
    db.run('UPDATE knowledge_chunks SET headings = ? WHERE id = ?', ['{"cut', Number(ids[0])]);
    db.run('UPDATE knowledge_chunks SET headings = ? WHERE id = ?', ['[1, 2]', Number(ids[1])]);
    const found = search().chunks('kb-1', ids);
    expect(found.map((c) => [c.text, c.position.headings])).toEqual([
      ['# Harbour', []],
      ['The harbour opens at six.', []],
      ['Unrelated.', ['Intro']],
    ]);
  });

  it('packs a base once, and packs it again only after being told it changed', () => {
    embedded();
    const knowledge = search();
    expect(knowledge.nearest('kb-1', [0, 1], 1)[0]?.text).toBe('Unrelated.');
    db.run('UPDATE knowledge_chunks SET vector = NULL WHERE text = ?', ['Unrelated.']);
    // Still the pack made before: the store was changed behind its back.
    expect(knowledge.nearest('kb-1', [0, 1], 1)[0]?.text).toBe('Unrelated.');
    knowledge.invalidate('kb-1');
    expect(knowledge.nearest('kb-1', [0, 1], 1)[0]?.text).toBe('The harbour opens at six.');
  });

  it('refuses an empty question, a base with nothing embedded and a vector of another size', async () => {
    const knowledge = search();
    await expect(knowledge.questionVector('kb-1', '   ')).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await expect(knowledge.questionVector('kb-1', 'Why?')).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    expect(knowledge.nearest('kb-1', [1, 0], 3)).toEqual([]);
    embedded();
    question = [1, 0, 0];
    await expect(knowledge.questionVector('kb-1', 'Why?')).rejects.toMatchObject({
      kind: 'bad_response',
    });
    expect(asked).toHaveLength(1);
    await expect(knowledge.questionVector('gone', 'Why?')).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});
