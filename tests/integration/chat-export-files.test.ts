/**
 * Exports that carry what a message carries besides its text, through the real router and
 * bridge against the demo relay: a zip holds the files sent (their bytes once each, by SHA-256),
 * and importing it into another app brings them back, saveable, searchable and sent again on
 * regenerate; a lone JSON file names the files it leaves out; each bad file in a zip is refused
 * by name with why while the rest goes in, nothing half-written.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import {
  chatExportSchema,
  EXPORT_VERSION,
  toJson,
  type ExportedAttachment,
} from '../../electron/main/services/chat/transfer';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const KEY = 'sk-demo-export-files-4c1a';
const AT = '2026-01-01T00:00:00.000Z';

let relay: DemoRelay;
let dir: string;
let app: ChatApp;
/** The chat requests' bodies, in order. */
const chats: Array<{ messages: Array<{ role: string; content: unknown }> }> = [];
const recordingFetch: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url.endsWith('/chat/completions') && typeof init?.body === 'string')
    chats.push(JSON.parse(init.body) as (typeof chats)[number]);
  return fetch(input, init);
};

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
});
afterAll(async () => {
  await relay.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-export-files-'));
  chats.length = 0;
  app = await open('first');
});
afterEach(async () => {
  await app.services.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(name: string): Promise<ChatApp> {
  const opened = await openChatApp(join(dir, name), undefined, { fetch: recordingFetch as never });
  await opened.api.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: KEY });
  return opened;
}

const NOTES = '# Harbour log\nThe barometer fell sharply before the squall.\n';
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

async function photo(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 20, channels: 3, background: '#1e6edc' } })
    .png()
    .toBuffer();
}

/** A conversation on demo-vision: notes and a photo with the first question, notes again after. */
async function conversationWithFiles(a: ChatApp) {
  const notes = join(dir, 'harbour-log.md');
  await writeFile(notes, NOTES);
  const picture = join(dir, 'squall.png');
  await writeFile(picture, await photo());
  const { id } = await a.api.createConversation({ model: 'demo-vision' });
  const first = await a.api.attachDropped({ grants: await a.grant([notes, picture]) });
  const sent = await a.api.sendMessage({
    conversationId: id,
    text: 'What happened to the barometer?',
    attachmentIds: first.attached.map((f) => f.id),
  });
  await a.finished(sent.replyId);
  const again = await a.api.attachDropped({ grants: await a.grant([notes]) });
  const second = await a.api.sendMessage({
    conversationId: id,
    text: 'And the log once more?',
    attachmentIds: again.attached.map((f) => f.id),
  });
  await a.finished(second.replyId);
  await a.api.renameConversation({ id, title: 'Squall log' });
  return { id, sent, second };
}

async function exportAs(a: ChatApp, ids: string[], format: 'markdown' | 'json' | 'zip') {
  const path = join(dir, `export-${format}-${ids.length}`);
  a.dialogs.savePaths.push(path);
  const result = await a.api.exportConversations({ ids, format });
  expect(result.saved).toBe(true);
  return { path, result };
}

async function importInto(a: ChatApp, ...paths: string[]) {
  a.dialogs.openPaths.push(paths);
  return a.api.importConversations();
}

/** A version 3 export of one conversation whose first message carries `files`. */
function exportWithFiles(title: string, files: ExportedAttachment[]): Uint8Array {
  return strToU8(
    toJson(
      [
        {
          title,
          createdAt: AT,
          updatedAt: AT,
          pinned: false,
          model: 'demo-chat',
          systemPrompt: '',
          temperature: null,
          maxTokens: null,
          messages: [
            {
              id: 'm1',
              parentId: null,
              role: 'user',
              content: `About ${title}`,
              status: 'complete',
              createdAt: AT,
              attachments: files,
            },
          ],
        },
      ],
      new Date(AT),
    ),
  );
}

function textFile(name: string, text: string): ExportedAttachment {
  const bytes = strToU8(text);
  return {
    name,
    kind: 'text',
    mimeType: 'text/plain',
    bytes: bytes.length,
    sha256: sha256(bytes),
    text,
  };
}

const storedFiles = (a: ChatApp) =>
  a.services.db.one<{ n: number }>('SELECT count(*) AS n FROM chat_attachments')!.n;

describe('exporting and importing the files sent with messages', () => {
  it('a zip carries each file once, and its import brings them back: saved, searched, sent again', async () => {
    const { id } = await conversationWithFiles(app);
    const { path } = await exportAs(app, [id], 'zip');
    const entries = unzipSync(new Uint8Array(await readFile(path)));
    const png = await photo();
    // The conversation, and each content once, though the notes were sent twice.
    expect(Object.keys(entries).sort()).toEqual(
      ['Squall-log.json', `files/${sha256(NOTES)}`, `files/${sha256(png)}`].sort(),
    );
    expect(strFromU8(entries[`files/${sha256(NOTES)}`]!)).toBe(NOTES);
    const document = chatExportSchema.parse(JSON.parse(strFromU8(entries['Squall-log.json']!)));
    expect(document.version).toBe(EXPORT_VERSION);
    expect(
      document.conversations[0]!.messages.map((m) => m.attachments?.map((a) => a.name)),
    ).toEqual([['harbour-log.md', 'squall.png'], undefined, ['harbour-log.md'], undefined]);
    await app.services.close();

    app = await open('second');
    const imported = await importInto(app, path);
    expect(imported.refused).toEqual([]);
    expect(imported.conversationIds).toHaveLength(1);
    const newId = imported.conversationIds[0]!;
    const { messages } = await app.api.getConversation({ id: newId });
    expect(messages.map((m) => m.attachments?.map((a) => [a.name, a.kind, a.bytes]))).toEqual([
      [
        ['harbour-log.md', 'text', NOTES.length],
        ['squall.png', 'image', png.length],
      ],
      undefined,
      [['harbour-log.md', 'text', NOTES.length]],
      undefined,
    ]);
    // Stored as any sent file is: one copy of each content.
    expect(
      app.services.db.one<{ n: number }>('SELECT count(*) AS n FROM chat_attachment_blobs')!.n,
    ).toBe(2);

    const target = join(dir, 'saved.md');
    app.dialogs.savePaths.push(target);
    await app.api.saveAttachment({ id: messages[0]!.attachments![0]!.id });
    await expect(readFile(target, 'utf8')).resolves.toBe(NOTES);
    expect(
      (await app.api.attachmentThumbnail({ id: messages[0]!.attachments![1]!.id })).url,
    ).toMatch(/^data:image\/webp;base64,/);
    const hits = await app.api.searchMessages({ query: 'barometer' });
    expect(hits.map((h) => h.messageId)).toContain(messages[0]!.id);
    expect(hits.find((h) => h.messageId === messages[2]!.id)?.snippet[0]?.text).toBe(
      'harbour-log.md: ',
    );

    // Regenerating the first reply sends its files again: the notes' text and the image.
    await app.api.showVersion({ messageId: messages[1]!.id });
    const again = await app.api.regenerateReply({
      conversationId: newId,
      replyId: messages[1]!.id,
    });
    expect((await app.finished(again.replyId)).status).toBe('complete');
    const asked = chats.at(-1)!.messages.at(-1)!;
    expect(asked.role).toBe('user');
    const parts = asked.content as Array<{
      type: string;
      text?: string;
      image_url?: { url: string };
    }>;
    expect(parts[0]!.text).toContain('<attached-file name="harbour-log.md" type="text/markdown">');
    expect(parts[0]!.text).toContain('The barometer fell sharply');
    expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${png.toString('base64')}`);
  });

  it('several conversations in one zip share one copy of a file', async () => {
    const { id } = await conversationWithFiles(app);
    const other = await app.api.createConversation({ model: 'demo-chat-fast' });
    const notes = join(dir, 'harbour-log.md');
    const attached = await app.api.attachDropped({ grants: await app.grant([notes]) });
    const sent = await app.api.sendMessage({
      conversationId: other.id,
      text: 'Read my log',
      attachmentIds: attached.attached.map((f) => f.id),
    });
    await app.finished(sent.replyId);
    const { path } = await exportAs(app, [id, other.id], 'json');
    const names = Object.keys(unzipSync(new Uint8Array(await readFile(path))));
    expect(names.filter((n) => n.startsWith('files/'))).toHaveLength(2);
    expect(names.filter((n) => n.endsWith('.json'))).toHaveLength(2);
    await app.services.close();

    app = await open('second');
    const imported = await importInto(app, path);
    expect(imported.refused).toEqual([]);
    expect(imported.conversationIds).toHaveLength(2);
    expect(storedFiles(app)).toBe(4);
  });

  it('a lone JSON file names the files it leaves out, and its import says so by name', async () => {
    const { id } = await conversationWithFiles(app);
    const { path, result } = await exportAs(app, [id], 'json');
    expect(result.filesLeftOut).toEqual(['harbour-log.md', 'squall.png']);
    const document = chatExportSchema.parse(JSON.parse(await readFile(path, 'utf8')));
    expect(document.conversations[0]!.messages[0]!.attachments?.map((a) => a.sha256)).toEqual([
      sha256(NOTES),
      sha256(await photo()),
    ]);
    await app.services.close();

    app = await open('second');
    const imported = await importInto(app, path);
    expect(imported.conversationIds).toHaveLength(1);
    expect(imported.refused.map((r) => r.reason)).toEqual([
      `harbour-log.md, sent in “Squall log”, was not imported: export-json-1 is a JSON export, which names the files sent but does not carry them. Import the conversation’s zip export to have them.`,
      `squall.png, sent in “Squall log”, was not imported: export-json-1 is a JSON export, which names the files sent but does not carry them. Import the conversation’s zip export to have them.`,
    ]);
    const { messages } = await app.api.getConversation({ id: imported.conversationIds[0]! });
    expect(messages[0]!.content).toBe('What happened to the barometer?');
    expect(storedFiles(app)).toBe(0);
  });

  it('Markdown names the files under the message that sent them', async () => {
    const { id } = await conversationWithFiles(app);
    const { path } = await exportAs(app, [id], 'markdown');
    const markdown = await readFile(path, 'utf8');
    expect(markdown).toContain(
      '**Files sent** (their bytes are in the zip export, not in this file):\n\n- harbour-log.md (text/markdown, 60 bytes)\n- squall.png (image/png,',
    );
  });
});

describe('bad files in an imported zip', () => {
  const good = textFile('good.txt', 'Good words about tides.');

  it('refuses a file the zip does not hold, by name, and imports the rest of the conversation', async () => {
    const missing = textFile('missing.txt', 'Never packed.');
    const zip = join(dir, 'missing.zip');
    await writeFile(
      zip,
      zipSync({
        'Tides.json': exportWithFiles('Tides', [good, missing]),
        [`files/${good.sha256}`]: strToU8('Good words about tides.'),
      }),
    );
    const imported = await importInto(app, zip);
    expect(imported.conversationIds).toHaveLength(1);
    expect(imported.refused).toEqual([
      {
        name: 'missing.zip › missing.txt',
        reason: `missing.txt, sent in “Tides”, was not imported: the zip does not hold its bytes (files/${missing.sha256}). The conversation was imported without it.`,
      },
    ]);
    const { messages } = await app.api.getConversation({ id: imported.conversationIds[0]! });
    expect(messages[0]!.attachments?.map((a) => a.name)).toEqual(['good.txt']);
  });

  it('refuses a file whose bytes do not match their SHA-256', async () => {
    const changed = textFile('changed.txt', 'What was sent.');
    const zip = join(dir, 'changed.zip');
    await writeFile(
      zip,
      zipSync({
        'Tides.json': exportWithFiles('Tides', [changed, good]),
        [`files/${changed.sha256}`]: strToU8('What was sent!'),
        [`files/${good.sha256}`]: strToU8('Good words about tides.'),
      }),
    );
    const imported = await importInto(app, zip);
    expect(imported.refused.map((r) => r.reason)).toEqual([
      'changed.txt, sent in “Tides”, was not imported: its bytes do not match the SHA-256 the export names, so it was damaged or changed. The conversation was imported without it.',
    ]);
    const { messages } = await app.api.getConversation({ id: imported.conversationIds[0]! });
    expect(messages[0]!.attachments?.map((a) => a.name)).toEqual(['good.txt']);
    // The file kept is searchable; the one refused left nothing behind.
    expect((await app.api.searchMessages({ query: 'good words' })).map((h) => h.messageId)).toEqual(
      [messages[0]!.id],
    );
    expect(await app.api.searchMessages({ query: 'sent' })).toEqual([]);
  });

  it('refuses an entry larger than a sent file can be without unpacking it', async () => {
    const zeros = new Uint8Array(51 * 1024 * 1024);
    const huge: ExportedAttachment = {
      name: 'huge.txt',
      kind: 'text',
      mimeType: 'text/plain',
      bytes: zeros.length,
      sha256: sha256(zeros),
      text: '',
    };
    const zip = join(dir, 'huge.zip');
    const packed = zipSync({
      'Tides.json': exportWithFiles('Tides', [huge, good]),
      [`files/${huge.sha256}`]: zeros,
      [`files/${good.sha256}`]: strToU8('Good words about tides.'),
    });
    expect(packed.length).toBeLessThan(1024 * 1024);
    await writeFile(zip, packed);
    const imported = await importInto(app, zip);
    expect(imported.refused.map((r) => r.reason)).toEqual([
      'huge.txt, sent in “Tides”, was not imported: it is larger than the 50 MB a file sent with a message can be, so it was not unpacked. The conversation was imported without it.',
    ]);
    expect(storedFiles(app)).toBe(1);
  });

  it('refuses an image whose bytes are not the image it says', async () => {
    const text = strToU8('not a picture at all');
    const fake: ExportedAttachment = {
      name: 'fake.png',
      kind: 'image',
      mimeType: 'image/png',
      bytes: text.length,
      sha256: sha256(text),
      text: '',
    };
    const zip = join(dir, 'fake.zip');
    await writeFile(
      zip,
      zipSync({ 'Tides.json': exportWithFiles('Tides', [fake]), [`files/${fake.sha256}`]: text }),
    );
    const imported = await importInto(app, zip);
    expect(imported.conversationIds).toHaveLength(1);
    expect(imported.refused.map((r) => r.reason)).toEqual([
      'fake.png, sent in “Tides”, was not imported: its bytes are not the image/png image the export says it is. The conversation was imported without it.',
    ]);
  });

  it('refuses an entry whose path leads out of the zip, by name, and reads the others', async () => {
    const zip = join(dir, 'climb.zip');
    const files: Zippable = {
      '../../escape.json': exportWithFiles('Escape', []),
      'files/../../etc/passwd': strToU8('root:x:0:0'),
      'Tides.json': exportWithFiles('Tides', [good]),
      [`files/${good.sha256}`]: strToU8('Good words about tides.'),
    };
    await writeFile(zip, zipSync(files));
    const imported = await importInto(app, zip);
    expect(imported.refused.map((r) => r.reason)).toEqual([
      'climb.zip › ../../escape.json has a path that leads out of the zip, so it was not read.',
      'climb.zip › files/../../etc/passwd has a path that leads out of the zip, so it was not read.',
    ]);
    expect((await app.api.listConversations()).map((c) => c.title)).toEqual(['Tides']);
    expect(storedFiles(app)).toBe(1);
  });

  it('refuses a zip bomb by name, and imports the other files chosen with it', async () => {
    // Its file entry is 20 MB of zeros whose headers say 100 bytes: stopped after a few pieces.
    const liar: ExportedAttachment = {
      ...textFile('bomb.txt', ''),
      bytes: 100,
      sha256: '0'.repeat(64),
    };
    const bombZip = join(dir, 'bomb.zip');
    await writeFile(bombZip, withLyingEntry(exportWithFiles('Bomb', [liar]), '0'.repeat(64)));
    const tides = join(dir, 'tides.zip');
    await writeFile(
      tides,
      zipSync({
        'Tides.json': exportWithFiles('Tides', [good]),
        [`files/${good.sha256}`]: strToU8('Good words about tides.'),
      }),
    );
    const imported = await importInto(app, bombZip, tides);
    expect(imported.refused).toEqual([
      {
        name: 'bomb.zip',
        reason: expect.stringMatching(
          /^bomb\.zip › files\/0{64} unpacks to more than its header says \(100 bytes\): the zip is damaged or built to exhaust memory, so nothing in it was imported\.$/,
        ),
        messageId: 'zip.entry.bomb',
        values: { name: `bomb.zip › files/${'0'.repeat(64)}`, size: 100 },
      },
    ]);
    expect((await app.api.listConversations()).map((c) => c.title)).toEqual(['Tides']);
  });
});

/** A zip of the export and a `files/<sha>` entry of 20 MB of zeros whose headers say 100 bytes. */
function withLyingEntry(json: Uint8Array, sha: string): Uint8Array {
  const zip = zipSync({ 'Bomb.json': json, [`files/${sha}`]: new Uint8Array(20_000_000) });
  const view = new DataView(zip.buffer);
  const name = strToU8(`files/${sha}`);
  const named = (at: number, offset: number) =>
    zip.subarray(at + offset, at + offset + name.length).every((b, i) => b === name[i]);
  for (let at = 0; at + 4 <= zip.length; at++) {
    const signature = view.getUint32(at, true);
    if (signature === 0x04034b50 && named(at, 30)) view.setUint32(at + 22, 100, true);
    if (signature === 0x02014b50 && named(at, 46)) view.setUint32(at + 24, 100, true);
  }
  return zip;
}
