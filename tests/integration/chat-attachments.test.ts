/**
 * Files sent with a message, over the real router and bridge against the demo relay: text and
 * PDFs read in main and sent as delimited blocks, each bad file refused by name with why (the
 * drafts and nothing else lost), a file deleted between attach and send, the stored files kept
 * through regenerate, edit, a branch and a restart, opened and saved.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import {
  attachmentBlock,
  messageWithAttachments,
} from '../../electron/main/services/chat/attachments';
import { NOTES_PAGES } from '../fixtures/documents/contents';
import { setMainLocale } from '../../electron/main/services/words';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const KEY = 'sk-demo-attachments-test-8d2e';
const MODEL = 'demo-chat-fast';
const DOCUMENTS = join(import.meta.dirname, '../fixtures/documents');

let relay: DemoRelay;
let dir: string;
let app: ChatApp;

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
});
afterAll(async () => {
  await relay.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-attachments-'));
  app = await openChatApp(join(dir, 'data'));
  await app.api.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: KEY });
});
afterEach(async () => {
  await app.services.close();
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe('attaching files', () => {
  it('asks in main’s dialog in the language shown', async () => {
    setMainLocale('de');
    try {
      await app.api.attachFiles();
    } finally {
      setMainLocale('en');
    }
    expect(app.dialogs.openRequests.at(-1)).toEqual({
      title: 'Dateien anhängen',
      filters: ['Text, Code, PDF und Bilder', 'Alle Dateien'],
    });
  });

  it('reads text and PDF files chosen in the dialog, and sends them as delimited blocks', async () => {
    const notes = await file('notes.md', '# Tide table\nHigh water at 06:12 on Monday.\n');
    const pdf = join(dir, 'notes.pdf');
    await copyFile(join(DOCUMENTS, 'notes.pdf'), pdf);
    app.dialogs.openPaths.push([notes, pdf]);
    const picked = await app.api.attachFiles();
    expect(picked.refused).toEqual([]);
    expect(picked.attached.map((a) => [a.name, a.kind, a.mimeType, a.pages])).toEqual([
      ['notes.md', 'text', 'text/markdown', undefined],
      ['notes.pdf', 'pdf', 'application/pdf', 3],
    ]);
    for (const attached of picked.attached) {
      expect(attached.bytes).toBeGreaterThan(0);
      expect(attached.tokens).toBeGreaterThan(0);
    }

    const { id } = await app.api.createConversation({ model: MODEL });
    const sent = await app.api.sendMessage({
      conversationId: id,
      text: 'What do these say about Monday?',
      attachmentIds: picked.attached.map((a) => a.id),
    });
    const reply = await app.finished(sent.replyId);
    expect(reply.status).toBe('complete');
    // The demo model quotes each file: it was sent their text, with the PDF's pages.
    expect(reply.content).toContain('### From your files');
    expect(reply.content).toContain('**notes.md** (text/markdown');
    expect(reply.content).toContain('begins: “# Tide table High water at 06:12 on Monday.”');
    expect(reply.content).toContain(`**notes.pdf** (application/pdf, 3 pages`);
    expect(reply.content).toMatch(new RegExp(`page 1 begins: “[^”]*${NOTES_PAGES[0]}`));
    // The message's own words were answered, not the files'.
    expect(reply.content).toContain('## What do these say');
    expect(reply.content).not.toContain('<attached-file');

    const { messages } = await app.api.getConversation({ id });
    expect(messages[0]!.attachments?.map((a) => a.name)).toEqual(['notes.md', 'notes.pdf']);
    // Search finds the files' text, on the message they were sent with, led by the file's name.
    const hits = await app.api.searchMessages({ query: 'barometer' });
    expect(hits.map((h) => h.messageId)).toEqual([sent.userMessageId]);
    expect(hits[0]!.snippet[0]).toEqual({ text: 'notes.pdf: ', hit: false });
    expect(hits[0]!.snippet.filter((s) => s.hit).map((s) => s.text)).toEqual(['barometer']);
    // A word in both the message and a file: one hit for the message (the reply quotes it too).
    const both = await app.api.searchMessages({ query: 'monday' });
    expect(both.filter((h) => h.messageId === sent.userMessageId)).toHaveLength(1);
    expect(messages[0]!.content).toBe('What do these say about Monday?');
    expect(messages[1]!.attachments).toBeUndefined();
  });

  it('refuses each bad file by name with why, and attaches the good ones beside them', async () => {
    const good = await file('good.txt', 'Plain words.');
    const binary = await file('data.txt', new Uint8Array([0, 1, 2, 3, 255, 0, 7]));
    const locked = join(dir, 'locked.pdf');
    await copyFile(join(DOCUMENTS, 'locked.pdf'), locked);
    const scanned = join(dir, 'scanned.pdf');
    await copyFile(join(DOCUMENTS, 'scanned.pdf'), scanned);
    const missing = join(dir, 'gone.md');
    await app.api.updateSettings({ attachments: { maxFileMb: 1, contextTokens: 128_000 } });
    const big = await file('big.txt', 'x'.repeat(1024 * 1024 + 1));

    const result = await app.api.attachDropped({
      grants: await app.grant([good, binary, locked, scanned, missing, big, dir]),
    });
    expect(result.attached.map((a) => a.name)).toEqual(['good.txt']);
    expect(result.refused.map((r) => [r.name, r.reason])).toEqual([
      ['data.txt', 'binary'],
      ['locked.pdf', 'encrypted'],
      ['scanned.pdf', 'no_text'],
      ['gone.md', 'missing'],
      ['big.txt', 'too_large'],
      [dir.split('/').at(-1), 'not_regular'],
    ]);
    for (const refusal of result.refused) expect(refusal.message).toMatch(/^\S.* was not added: /);
    expect(result.refused.find((r) => r.name === 'big.txt')!.message).toContain('1 MB');
    expect(result.refused.find((r) => r.name === 'locked.pdf')!.message).toContain('password');
  });

  it('reads a pasted file from its bytes, and refuses pasted binary data by name', async () => {
    const pasted = await app.api.attachBytes({
      name: 'clip.csv',
      base64: Buffer.from('city,tide\nBrest,6.1\n').toString('base64'),
    });
    expect(pasted.attached.map((a) => [a.name, a.kind, a.mimeType])).toEqual([
      ['clip.csv', 'text', 'text/csv'],
    ]);
    const image = await app.api.attachBytes({
      name: 'image.bin',
      base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]).toString('base64'),
    });
    expect(image.attached).toEqual([]);
    expect(image.refused[0]).toMatchObject({ name: 'image.bin', reason: 'binary' });
    // Bad payloads never reach main's reader.
    await expect(app.api.attachBytes({ name: 'x.txt', base64: 'not base64!' })).rejects.toThrow(
      /not base64/,
    );
  });

  it('attaches images scaled to the size set, and refuses each bad image by name with why', async () => {
    await app.api.updateSettings({
      attachments: { maxFileMb: 1, contextTokens: 128_000, imageMaxSide: 800 },
    });
    const wide = await file(
      'harbour.png',
      await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#1e6fd9' } })
        .png()
        .toBuffer(),
    );
    const whole = await sharp({
      create: { width: 300, height: 300, channels: 3, background: '#d91e1e' },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const cut = await file('cut.png', whole.subarray(0, whole.length / 2));
    const bmp = await file('scan.bmp', new Uint8Array([0x42, 0x4d, 0, 0, 0, 0]));
    // Noise does not compress: over the 1 MB cap as a PNG.
    const noise = randomBytes(700 * 700 * 3);
    const big = await file(
      'big.png',
      await sharp(noise, { raw: { width: 700, height: 700, channels: 3 } })
        .png()
        .toBuffer(),
    );
    const notes = await file('notes.txt', 'Words beside the pictures.');

    const result = await app.api.attachDropped({
      grants: await app.grant([wide, cut, notes, bmp, big]),
    });
    expect(result.attached.map((a) => [a.name, a.kind, a.mimeType, a.width, a.height])).toEqual([
      ['harbour.png', 'image', 'image/png', 800, 400],
      ['notes.txt', 'text', 'text/plain', undefined, undefined],
    ]);
    expect(result.attached[0]!.thumbnail).toMatch(/^data:image\/webp;base64,/);
    expect(result.refused.map((r) => [r.name, r.reason])).toEqual([
      ['cut.png', 'damaged'],
      ['scan.bmp', 'unsupported'],
      ['big.png', 'too_large'],
    ]);
    expect(result.refused[0]!.message).toMatch(/^cut\.png was not added: .*truncated/);
    expect(result.refused[1]!.message).toMatch(/^scan\.bmp was not added: BMP images are not sent/);
    expect(result.refused[2]!.message).toContain('1 MB');

    // A pasted image is read from its bytes the same way.
    const pasted = await app.api.attachBytes({
      name: 'clip.jpg',
      base64: (
        await sharp({ create: { width: 10, height: 20, channels: 3, background: '#fff' } })
          .jpeg()
          .toBuffer()
      ).toString('base64'),
    });
    expect(pasted.attached.map((a) => [a.kind, a.mimeType, a.width, a.height])).toEqual([
      ['image', 'image/jpeg', 10, 20],
    ]);
  });

  it('sends images as image parts to a model that reads them, and refuses them for one that does not', async () => {
    const photo = await file(
      'harbour.png',
      await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#1e6edc' } })
        .png()
        .toBuffer(),
    );
    const notes = await file('notes.md', '# Tide table\nHigh water at 06:12.\n');
    const { attached } = await app.api.attachDropped({ grants: await app.grant([photo, notes]) });
    const ids = attached.map((a) => a.id);

    // demo-chat-fast reads no images (the model list says so): refused by name, nothing written.
    const plain = await app.api.createConversation({ model: MODEL });
    await expect(
      app.api.sendMessage({ conversationId: plain.id, text: 'What is this?', attachmentIds: ids }),
    ).rejects.toThrow(
      'demo-chat-fast does not accept images, so harbour.png was not sent: choose a model that accepts images, remove the image, or mark demo-chat-fast as accepting images on the Models screen.',
    );
    await expect(
      app.api.sendMessage({ conversationId: plain.id, text: 'What is this?', attachmentIds: ids }),
    ).rejects.toMatchObject({
      messageId: 'attachments.imagesNotAccepted',
      values: { model: 'demo-chat-fast', count: 1, names: 'harbour.png' },
    });
    expect((await app.api.getConversation({ id: plain.id })).messages).toEqual([]);

    const { id } = await app.api.createConversation({ model: 'demo-vision' });
    const sent = await app.api.sendMessage({
      conversationId: id,
      text: 'What is this?',
      attachmentIds: ids,
    });
    const reply = await app.finished(sent.replyId);
    expect(reply.status).toBe('complete');
    // Scaled to 1536 on its longest side before it was sent; the vision model measured it.
    expect(reply.content).toContain('**Image 1**: 1536 × 768 pixels; mostly blue (#1e6edc, 100%)');
    expect(reply.content).toContain('You asked: “What is this?”');
    const { messages } = await app.api.getConversation({ id });
    expect(messages[0]!.attachments?.map((a) => [a.name, a.kind, a.mimeType])).toEqual([
      ['harbour.png', 'image', 'image/png'],
      ['notes.md', 'text', 'text/markdown'],
    ]);
    const thumbnail = await app.api.attachmentThumbnail({ id: messages[0]!.attachments![0]!.id });
    expect(thumbnail.url).toMatch(/^data:image\/webp;base64,/);
    expect(
      (await app.api.attachmentThumbnail({ id: messages[0]!.attachments![1]!.id })).url,
    ).toBeNull();

    // The person says demo-chat-fast reads images: the app sends them, and the relay refuses.
    await app.api.setModelImageInput({ modelId: MODEL, acceptsImages: true });
    const again = await app.api.attachDropped({ grants: await app.grant([photo]) });
    const tried = await app.api.sendMessage({
      conversationId: plain.id,
      text: 'And now?',
      attachmentIds: again.attached.map((a) => a.id),
    });
    const refused = await app.finished(tried.replyId);
    expect(refused.status).toBe('error');
    expect(refused.error).toMatchObject({ param: 'messages[0].content[1]', status: 400 });
  });

  it('refuses a message whose file was deleted since it was attached, keeping everything', async () => {
    const keep = await file('keep.txt', 'Stays.');
    const gone = await file('gone.txt', 'Deleted before sending.');
    const { attached } = await app.api.attachDropped({ grants: await app.grant([keep, gone]) });
    await unlink(gone);
    const { id } = await app.api.createConversation({ model: MODEL });
    const ids = attached.map((a) => a.id);
    await expect(
      app.api.sendMessage({ conversationId: id, text: 'Read both', attachmentIds: ids }),
    ).rejects.toThrow(/gone\.txt was not sent: it is no longer there/);
    // With its key, the reason said when the file was added, for the page's language.
    await expect(
      app.api.sendMessage({ conversationId: id, text: 'Read both', attachmentIds: ids }),
    ).rejects.toMatchObject({
      messageId: 'documents.notSent',
      values: { name: 'gone.txt', why: { id: expect.any(String) } },
    });
    // Nothing was written.
    expect((await app.api.getConversation({ id })).messages).toEqual([]);
    // The drafts are still there: once the file is back, the same message goes.
    await writeFile(gone, 'Back again.');
    const sent = await app.api.sendMessage({
      conversationId: id,
      text: 'Read both',
      attachmentIds: ids,
    });
    expect((await app.finished(sent.replyId)).content).toContain('begins: “Back again.”');
    // Sent drafts are forgotten: they cannot be sent twice.
    await expect(
      app.api.sendMessage({ conversationId: id, text: 'Again', attachmentIds: ids }),
    ).rejects.toThrow(/no longer ready/);
  });

  it('names every file refused at once, each by key, for the page’s language', async () => {
    const first = await file('first.txt', 'One.');
    const second = await file('second.txt', 'Two.');
    const { attached } = await app.api.attachDropped({ grants: await app.grant([first, second]) });
    await unlink(first);
    await unlink(second);
    const { id } = await app.api.createConversation({ model: MODEL });
    const refused = app.api.sendMessage({
      conversationId: id,
      text: 'Read both',
      attachmentIds: attached.map((a) => a.id),
    });
    await expect(refused).rejects.toMatchObject({
      kind: 'invalid_request',
      message: expect.stringMatching(
        /first\.txt was not sent: it is no longer there.* second\.txt was not sent: it is no longer there/,
      ),
      parts: [
        {
          message: expect.stringMatching(/^first\.txt was not sent/),
          messageId: 'documents.notSent',
          values: { name: 'first.txt', why: { id: expect.any(String) } },
        },
        {
          message: expect.stringMatching(/^second\.txt was not sent/),
          messageId: 'documents.notSent',
          values: { name: 'second.txt', why: { id: expect.any(String) } },
        },
      ],
    });
    expect((await app.api.getConversation({ id })).messages).toEqual([]);
  });

  it('refuses a message whose text and files are over the context limit', async () => {
    await app.api.updateSettings({ attachments: { maxFileMb: 20, contextTokens: 1000 } });
    const long = await file('long.txt', 'word '.repeat(2000));
    const { attached } = await app.api.attachDropped({ grants: await app.grant([long]) });
    const { id } = await app.api.createConversation({ model: MODEL });
    await expect(
      app.api.sendMessage({
        conversationId: id,
        text: 'Summarise',
        attachmentIds: attached.map((a) => a.id),
      }),
    ).rejects.toThrow(/about 2,\d{3} tokens, more than the 1,000/);
    expect((await app.api.getConversation({ id })).messages).toEqual([]);
  });

  it('keeps the files through regenerate, edit, a branch and a restart; opens and saves them', async () => {
    const notes = await file('harbour.txt', 'The ferry leaves at nine.');
    const { attached } = await app.api.attachDropped({ grants: await app.grant([notes]) });
    const { id } = await app.api.createConversation({ model: MODEL });
    const sent = await app.api.sendMessage({
      conversationId: id,
      text: 'When does it leave?',
      attachmentIds: attached.map((a) => a.id),
    });
    await app.finished(sent.replyId);
    // The file on disk no longer matters once sent: its copy is in the database.
    await unlink(notes);

    const again = await app.api.regenerateReply({ conversationId: id });
    expect((await app.finished(again.replyId)).content).toContain(
      'begins: “The ferry leaves at nine.”',
    );
    const edited = await app.api.editMessage({ messageId: sent.userMessageId, text: 'And back?' });
    expect((await app.finished(edited.replyId)).content).toContain(
      'begins: “The ferry leaves at nine.”',
    );
    const branch = await app.api.forkConversation({ messageId: edited.userMessageId });
    const forked = await app.api.getConversation({ id: branch.id });
    expect(forked.messages[0]!.attachments?.map((a) => a.name)).toEqual(['harbour.txt']);

    await app.services.close();
    app = await openChatApp(join(dir, 'data'));
    const { messages } = await app.api.getConversation({ id });
    const [edit] = messages;
    expect(edit!.content).toBe('And back?');
    expect(edit!.attachments).toHaveLength(1);
    const stored = edit!.attachments![0]!;
    expect(stored).toMatchObject({ name: 'harbour.txt', kind: 'text', bytes: 25 });

    const target = join(dir, 'saved.txt');
    app.dialogs.savePaths.push(target);
    await expect(app.api.saveAttachment({ id: stored.id })).resolves.toEqual({
      saved: true,
      path: target,
      savedId: expect.any(String),
    });
    await expect(readFile(target, 'utf8')).resolves.toBe('The ferry leaves at nine.');
    // Opened from a copy in a private folder of the app's own, under its own name.
    await app.api.openAttachment({ id: stored.id });
    const copy = app.opened.at(-1)!;
    expect(basename(copy)).toBe('harbour.txt');
    expect(copy.startsWith(join(dir, 'data'))).toBe(true);
    await expect(readFile(copy, 'utf8')).resolves.toBe('The ferry leaves at nine.');
    // One stored copy of the bytes for the three messages that carry the file.
    expect(
      app.services.db.one<{ n: number }>('SELECT count(*) AS n FROM chat_attachment_blobs')?.n,
    ).toBe(1);
    // Deleting every conversation that names it lets the bytes go.
    for (const conversation of [id, branch.id]) {
      app.services.db.run('DELETE FROM chat_conversations WHERE id = ?', [conversation]);
    }
    expect(
      app.services.db.one<{ n: number }>('SELECT count(*) AS n FROM chat_attachment_blobs')?.n,
    ).toBe(0);
  });
});

describe('the text a model is sent for a file', () => {
  it('names the file and its type, and each page of a PDF', () => {
    expect(
      attachmentBlock({
        name: 'a.pdf',
        mimeType: 'application/pdf',
        text: 'one\n\ntwo',
        pages: [
          { page: 1, text: 'one' },
          { page: 3, text: 'two' },
        ],
      }),
    ).toBe(
      '<attached-file name="a.pdf" type="application/pdf" pages="2">\n[Page 1]\none\n\n[Page 3]\ntwo\n</attached-file>',
    );
    expect(
      messageWithAttachments('Hi', [{ name: 'x"\ny.txt', mimeType: 'text/plain', text: 'body' }]),
    ).toBe('Hi\n\n<attached-file name="x  y.txt" type="text/plain">\nbody\n</attached-file>');
  });
});
