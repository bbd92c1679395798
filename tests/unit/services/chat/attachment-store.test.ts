/**
 * The attachment store on an in-memory database: files stored with a message in order, their
 * bytes once by content, copied to another message over the same bytes, synced files kept as
 * they came, a deleted conversation's files not given out, and the page shown no bytes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHAT_DOMAIN, CHAT_MIGRATIONS } from '../../../../electron/main/services/chat/migrations';
import {
  AttachmentStore,
  infoOf,
  type ReadAttachment,
} from '../../../../electron/main/services/chat/attachment-store';
import { attachmentBlock } from '../../../../electron/main/services/chat/attachment-format';
import { migrate, openDatabase, type Db } from '../../../../electron/main/services/database';

const AT = '2026-02-03T04:05:06.000Z';
let db: Db;
let store: AttachmentStore;

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  await migrate(db, CHAT_DOMAIN, CHAT_MIGRATIONS);
  db.run('INSERT INTO chat_conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', [
    'c',
    'Files',
    AT,
    AT,
  ]);
  for (const [id, seq] of [
    ['m1', 0],
    ['m2', 1],
    ['m3', 2],
  ] as const)
    db.run(
      `INSERT INTO chat_messages (id, conversation_id, seq, role, content, status, created_at)
        VALUES (?, 'c', ?, 'user', 'hello', 'complete', ?)`,
      [id, seq, AT],
    );
  store = new AttachmentStore(db);
});
afterEach(() => db.close());

const bytes = (text: string) => new TextEncoder().encode(text);
const note: ReadAttachment = {
  name: 'note.txt',
  kind: 'text',
  mimeType: 'text/plain',
  data: bytes('harbour'),
  text: 'harbour',
};
const paper: ReadAttachment = {
  name: 'paper.pdf',
  kind: 'pdf',
  mimeType: 'application/pdf',
  data: bytes('%PDF'),
  text: 'one\n\ntwo',
  pages: [
    { page: 1, text: 'one' },
    { page: 2, text: 'two' },
  ],
};
const picture: ReadAttachment = {
  name: 'p.png',
  kind: 'image',
  mimeType: 'image/png',
  data: bytes('png'),
  text: '',
};

describe('AttachmentStore', () => {
  it('stores files in order with their token estimates, and shows the page no bytes or text', () => {
    store.add('m1', [note, paper]);
    const files = store.forMessages(['m1', 'm2']);
    expect([...files.keys()]).toEqual(['m1']);
    const [first, second] = files.get('m1') ?? [];
    expect(first).toMatchObject({ name: 'note.txt', bytes: 7, text: 'harbour', messageId: 'm1' });
    expect(first?.tokens).toBe(Math.ceil(attachmentBlock(note).length / 4));
    expect(second?.pages).toEqual(paper.pages);
    expect(infoOf(second!)).toEqual({
      id: second?.id,
      name: 'paper.pdf',
      kind: 'pdf',
      mimeType: 'application/pdf',
      bytes: 4,
      tokens: second?.tokens,
      pages: 2,
    });
    expect(store.forMessages([]).size).toBe(0);
  });

  it('reads a file whose stored pages are damaged as one without pages, its text kept', () => {
    store.add('m1', [paper]);
    db.run('UPDATE chat_attachments SET pages = \'[{"page": 1, "te\'');
    store.add('m2', [paper]);
    db.run('UPDATE chat_attachments SET pages = \'[{"page": "one"}]\' WHERE message_id = \'m2\'');
    for (const id of ['m1', 'm2']) {
      const [read] = store.forMessages([id]).get(id) ?? [];
      expect(read).toMatchObject({ name: 'paper.pdf', text: 'one\n\ntwo' });
      expect(read).not.toHaveProperty('pages');
      const [exported] = store.forExport([id]).get(id) ?? [];
      expect(exported).toMatchObject({ name: 'paper.pdf', text: 'one\n\ntwo' });
      expect(exported).not.toHaveProperty('pages');
    }
  });

  it('keeps one copy of the bytes for a copy to another message, and lets it go with the last', () => {
    store.add('m1', [note]);
    store.copy('m1', 'm2');
    const [copied] = store.forMessages(['m2']).get('m2') ?? [];
    expect(copied?.name).toBe('note.txt');
    expect(db.one<{ n: number }>('SELECT COUNT(*) AS n FROM chat_attachment_blobs')?.n).toBe(1);
    const sha = [...store.forExport(['m1']).values()][0]?.[0]?.sha256 ?? '';
    expect(new TextDecoder().decode(store.content(sha))).toBe('harbour');
    db.run('DELETE FROM chat_messages WHERE id IN (?, ?)', ['m1', 'm2']);
    expect(store.hasContent(sha)).toBe(false);
    expect(store.content(sha)).toBeUndefined();
  });

  it('gives images their bytes for a request only, and a file of a deleted conversation never', () => {
    store.add('m1', [note, picture]);
    const listed = store.forMessages(['m1']).get('m1') ?? [];
    expect(listed.map((f) => f.data)).toEqual([undefined, undefined]);
    const sent = store.forRequest(['m1']).get('m1') ?? [];
    expect(sent[0]?.data).toBeUndefined();
    expect(new TextDecoder().decode(sent[1]?.data)).toBe('png');
    const id = listed[0]?.id ?? '';
    expect(store.file(id)).toMatchObject({ name: 'note.txt', kind: 'text' });
    db.run('UPDATE chat_conversations SET deleted_at = ? WHERE id = ?', [AT, 'c']);
    expect(store.file(id)).toBeUndefined();
    expect(store.file('no-such-file')).toBeUndefined();
  });

  it('stores synced files as they came, once, and only with bytes it has', () => {
    const synced = {
      id: 'a-1',
      position: 0,
      name: 'note.txt',
      kind: 'text' as const,
      mimeType: 'text/plain',
      bytes: 7,
      sha256: 'f'.repeat(64),
      text: 'harbour',
      createdAt: AT,
    };
    expect(() => store.addSynced('m3', [synced])).toThrow();
    store.addSynced('m3', [synced], new Map([[synced.sha256, bytes('harbour')]]));
    store.addSynced('m3', [synced]);
    expect(
      store
        .forMessages(['m3'])
        .get('m3')
        ?.map((f) => f.id),
    ).toEqual(['a-1']);
    expect(store.hasContent(synced.sha256)).toBe(true);
  });

  it('adds the files to the messages that have any, leaving the others as they were', () => {
    store.add('m2', [note]);
    const messages = [{ id: 'm1' }, { id: 'm2' }] as never[];
    const decorated = store.decorate(messages) as Array<{ id: string; attachments?: unknown[] }>;
    expect(decorated[0]).toBe(messages[0]);
    expect(decorated[1]?.attachments).toHaveLength(1);
    expect(store.decorate([{ id: 'm3' }] as never[])).toEqual([{ id: 'm3' }]);
  });
});
