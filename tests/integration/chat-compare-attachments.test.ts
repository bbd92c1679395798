/**
 * Files sent with a compared message, over the real router and bridge against the demo relay:
 * every compared model is asked with the files' text, images go only to models that read them,
 * and a compare naming a model that reads none is refused before anything is sent or stored.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const KEY = 'sk-demo-compare-files-test-5c1a';
const TEXT_MODEL = 'demo-chat-fast';
const VISION_MODEL = 'demo-vision';

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
interface Asked {
  model: string;
  temperature?: number;
  messages: { role: string; content: string | Part[] }[];
}

let relay: DemoRelay;
let dir: string;
let app: ChatApp;
let asked: Asked[];

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
});
afterAll(async () => {
  await relay.close();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-compare-files-'));
  asked = [];
  app = await openChatApp(join(dir, 'data'), undefined, {
    fetch: async (url, init) => {
      if (url.endsWith('/chat/completions') && typeof init.body === 'string')
        asked.push(JSON.parse(init.body) as Asked);
      return fetch(url, init);
    },
  });
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

/** The parts of the last user message of a request (a plain string: one text part). */
function lastUserParts(request: Asked): Part[] {
  const content = request.messages.findLast((m) => m.role === 'user')!.content;
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

describe('attachments in compare', () => {
  it('asks every compared model with the attached file, stored once with the question', async () => {
    const notes = await file('notes.md', '# Tide table\nHigh water at 06:12 on Monday.\n');
    const { attached } = await app.api.attachDropped({ grants: await app.grant([notes]) });
    const { id } = await app.api.createConversation({ model: TEXT_MODEL });

    const started = await app.api.compareMessage({
      conversationId: id,
      text: 'When is high water?',
      targets: [{ model: TEXT_MODEL }, { model: VISION_MODEL }],
      attachmentIds: attached.map((a) => a.id),
    });
    const ends = await Promise.all(started.replyIds.map((r) => app.finished(r)));
    expect(ends.map((e) => e.status)).toEqual(['complete', 'complete']);
    // Each model was sent the file's text: the demo models quote it.
    for (const end of ends) {
      expect(end.content).toContain('**notes.md** (text/markdown');
      expect(end.content).toContain('begins: “# Tide table High water at 06:12 on Monday.”');
    }
    expect(asked.map((r) => r.model).sort()).toEqual([VISION_MODEL, TEXT_MODEL].sort());
    for (const request of asked) {
      const parts = lastUserParts(request);
      expect(parts.some((p) => p.type === 'image_url')).toBe(false);
      expect(parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n')).toContain(
        '<attached-file name="notes.md" type="text/markdown">',
      );
    }

    const { messages, compare } = await app.api.getConversation({ id });
    expect(messages).toHaveLength(1);
    expect(messages[0]!.attachments?.map((a) => a.name)).toEqual(['notes.md']);
    expect(compare?.replies.map((r) => r.attachments)).toEqual([undefined, undefined]);
    // Sent: the draft is gone, as after a normal send.
    await expect(
      app.api.compareMessage({
        conversationId: id,
        text: 'Again?',
        targets: [{ model: TEXT_MODEL }, { model: VISION_MODEL }],
        attachmentIds: attached.map((a) => a.id),
      }),
    ).rejects.toThrow();
  });

  it('sends an image only to a model that reads images, and refuses a compare with one that does not', async () => {
    const photo = await file(
      'harbour.png',
      await sharp({ create: { width: 400, height: 200, channels: 3, background: '#1e6edc' } })
        .png()
        .toBuffer(),
    );
    const notes = await file('notes.md', '# Tide table\nHigh water at 06:12.\n');
    const { attached } = await app.api.attachDropped({ grants: await app.grant([photo, notes]) });
    const ids = attached.map((a) => a.id);
    const { id } = await app.api.createConversation({ model: TEXT_MODEL });

    // demo-chat-fast reads no images: said before sending, naming it and the image; nothing sent.
    await expect(
      app.api.compareMessage({
        conversationId: id,
        text: 'What is this?',
        targets: [{ model: TEXT_MODEL }, { model: VISION_MODEL }],
        attachmentIds: ids,
      }),
    ).rejects.toThrow(
      'demo-chat-fast does not accept images, so harbour.png was not sent: choose a model that accepts images, remove the image, or mark demo-chat-fast as accepting images on the Models screen.',
    );
    expect(asked).toEqual([]);
    expect((await app.api.getConversation({ id })).messages).toEqual([]);

    // The drafts were kept: the same files, compared on models that read images.
    const started = await app.api.compareMessage({
      conversationId: id,
      text: 'What is this?',
      targets: [{ model: VISION_MODEL }, { model: VISION_MODEL, temperature: 0.2 }],
      attachmentIds: ids,
    });
    const ends = await Promise.all(started.replyIds.map((r) => app.finished(r)));
    for (const end of ends) {
      expect(end.status).toBe('complete');
      expect(end.content).toContain('**Image 1**: 400 × 200 pixels; mostly blue (#1e6edc, 100%)');
    }
    expect(asked).toHaveLength(2);
    for (const request of asked) {
      const parts = lastUserParts(request);
      expect(parts.filter((p) => p.type === 'image_url')).toHaveLength(1);
      expect(parts.some((p) => p.type === 'text' && p.text.includes('name="notes.md"'))).toBe(true);
    }
    const { messages } = await app.api.getConversation({ id });
    expect(messages[0]!.attachments?.map((a) => [a.name, a.kind])).toEqual([
      ['harbour.png', 'image'],
      ['notes.md', 'text'],
    ]);
  });
  it('leaves an earlier image out of the request of a compared model that reads none', async () => {
    const photo = await file(
      'harbour.png',
      await sharp({ create: { width: 40, height: 20, channels: 3, background: '#1e6edc' } })
        .png()
        .toBuffer(),
    );
    const { attached } = await app.api.attachDropped({ grants: await app.grant([photo]) });
    const { id } = await app.api.createConversation({ model: VISION_MODEL });
    const first = await app.api.sendMessage({
      conversationId: id,
      text: 'What is this?',
      attachmentIds: attached.map((a) => a.id),
    });
    expect((await app.finished(first.replyId)).status).toBe('complete');
    asked = [];

    const started = await app.api.compareMessage({
      conversationId: id,
      text: 'And in words?',
      targets: [{ model: TEXT_MODEL }, { model: VISION_MODEL }],
    });
    const ends = await Promise.all(started.replyIds.map((r) => app.finished(r)));
    expect(ends.map((e) => e.status)).toEqual(['complete', 'complete']);
    const images = (request: Asked) =>
      request.messages.flatMap((m) =>
        typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'image_url'),
      ).length;
    const byModel = new Map(asked.map((r) => [r.model, r]));
    expect(images(byModel.get(VISION_MODEL)!)).toBe(1);
    expect(images(byModel.get(TEXT_MODEL)!)).toBe(0);
  });
});
