/**
 * Importing conversations through the real router and services: only regular files are read
 * (a FIFO or a folder is refused by name, never waited on), a large import leaves main's
 * event loop free, since the files are read and checked in a worker thread and written in slices,
 * and exports written by earlier releases import: before files travelled with them (format
 * version 2), and before tool calls did (version 3).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXPORT_FORMAT_ID, EXPORT_VERSION } from '../../electron/main/services/chat/transfer';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const EXPORTS_V2 = join(import.meta.dirname, '../fixtures/chat-export-v2');
const EXPORTS_V3 = join(import.meta.dirname, '../fixtures/chat-export-v3');

let dataDir: string;
let app: ChatApp;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-import-'));
  app = await openChatApp(dataDir);
});
afterEach(async () => {
  await app.services.close();
  await rm(dataDir, { recursive: true, force: true });
});

const AT = '2026-01-01T00:00:00.000Z';

/** An export of `count` conversations of `messages` messages of about `chars` characters each. */
function exportText(count: number, messages: number, chars: number, title = 'Imported'): string {
  const words = 'tide pools hold anemones crabs and small fish between the rocks '.split(' ');
  const conversations = Array.from({ length: count }, (_, c) => ({
    title: `${title} ${c}`,
    createdAt: AT,
    updatedAt: AT,
    pinned: false,
    model: null,
    systemPrompt: '',
    temperature: null,
    maxTokens: null,
    messages: Array.from({ length: messages }, (_, m) => {
      let content = `${c}-${m}:`;
      for (let w = 0; content.length < chars; w++)
        content += ` ${words[(c + m + w) % words.length]}`;
      return {
        role: m % 2 === 0 ? 'user' : 'assistant',
        content,
        status: 'complete',
        createdAt: AT,
      };
    }),
  }));
  return JSON.stringify({
    format: EXPORT_FORMAT_ID,
    version: EXPORT_VERSION,
    exportedAt: AT,
    conversations,
  });
}

describe('importing conversations', () => {
  it('reads only regular files: a FIFO or a folder is refused by name, never waited on', async () => {
    const fifo = join(dataDir, 'waiting.json');
    execFileSync('mkfifo', [fifo]);
    const folder = join(dataDir, 'folder.json');
    await mkdir(folder);
    const good = join(dataDir, 'good.json');
    await writeFile(good, exportText(1, 2, 40, 'Good'));
    try {
      app.dialogs.openPaths.push([fifo, folder, good]);
      const result = await app.api.importConversations();
      expect(result.conversationIds).toHaveLength(1);
      expect(result.refused).toEqual([
        {
          name: 'waiting.json',
          reason: expect.stringMatching(/waiting\.json is not a regular file/),
        },
        {
          name: 'folder.json',
          reason: expect.stringMatching(/folder\.json is not a regular file/),
        },
      ]);
      expect((await app.api.listConversations()).map((c) => c.title)).toEqual(['Good 0']);
    } finally {
      // Lets a reader that did open the FIFO (and waits on it) see its end.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader: nothing waits on it.
      }
    }
  });

  // A 20 MB import, on two cores other work shares: it can take longer than the default 20 s.
  it('keeps main free while a large import is read, checked and written', async () => {
    const file = join(dataDir, 'large.json');
    // About 20 MB: 160 conversations of 50 messages of 2,500 characters.
    await writeFile(file, exportText(160, 50, 2500));
    app.dialogs.openPaths.push([file]);

    // A timer every 5 ms: the longest wait between two of its ticks is how long main froze.
    let last = performance.now();
    let longest = 0;
    let ticks = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 5);
    const started = performance.now();
    let result;
    try {
      result = await app.api.importConversations();
    } finally {
      clearInterval(timer);
    }
    const took = performance.now() - started;

    expect(result.conversationIds).toHaveLength(160);
    expect((await app.api.searchMessages({ query: 'anemones' })).length).toBeGreaterThan(0);
    // Timers kept running through the import: no stall took more than a small part of it.
    expect(ticks).toBeGreaterThan(10);
    expect(
      longest,
      `longest stall ${Math.round(longest)} ms of ${Math.round(took)} ms`,
    ).toBeLessThan(took / 4);
  }, 60_000);

  it('imports exports written by the previous release (version 2): one JSON file, and a zip', async () => {
    app.dialogs.openPaths.push([join(EXPORTS_V2, 'one.json'), join(EXPORTS_V2, 'several.zip')]);
    const result = await app.api.importConversations();
    expect(result.refused).toEqual([]);
    expect(result.conversationIds).toHaveLength(4);
    const list = await app.api.listConversations();
    expect(list.map((c) => [c.title, c.pinned]).sort()).toEqual([
      ['Ferry notes', false],
      ['Sea birds compared', false],
      ['Tides at the harbour', true],
      ['Tides at the harbour', true],
    ]);

    // The edited question: two versions, the second shown, each with its reply.
    const tides = result.conversationIds[0]!;
    const shown = await app.api.getConversation({ id: tides });
    expect(shown.conversation.systemPrompt).toBe('Answer like a harbour master.');
    expect(shown.messages.map((m) => [m.role, m.content.split('\n')[0]])).toEqual([
      ['user', 'When is low tide at the harbour?'],
      ['assistant', '## When is low tide at the harbour'],
    ]);
    expect(shown.messages[0]!.branch).toMatchObject({ index: 1, count: 2 });

    // The compare: one question, two replies of the same batch, the second continued with.
    const birds = list.find((c) => c.title === 'Sea birds compared')!;
    const compared = await app.api.getConversation({ id: birds.id });
    expect(compared.messages.map((m) => m.model ?? null)).toEqual([null, 'demo-chat-fast']);
    expect(compared.messages[1]!.branch).toMatchObject({ index: 1, count: 2 });
    expect(compared.messages[1]!.batchId).toBeDefined();

    // Version 2 did not carry the file sent with this question: it imports as it was written.
    const ferry = list.find((c) => c.title === 'Ferry notes')!;
    const notes = await app.api.getConversation({ id: ferry.id });
    expect(notes.messages[0]!.content).toBe('What do my notes say about the ferry?');
    expect(notes.messages[0]!.attachments).toBeUndefined();
  });

  it('imports exports written by the release before tool calls travelled (version 3), files and all', async () => {
    app.dialogs.openPaths.push([join(EXPORTS_V3, 'one.json'), join(EXPORTS_V3, 'several.zip')]);
    const result = await app.api.importConversations();
    expect(result.refused).toEqual([]);
    expect(result.conversationIds).toHaveLength(4);
    const list = await app.api.listConversations();
    expect(list.map((c) => c.title).sort()).toEqual([
      'Ferry notes',
      'Sea birds compared',
      'Tides at the harbour',
      'Tides at the harbour',
    ]);
    for (const c of list) {
      const shown = await app.api.getConversation({ id: c.id });
      // Written before tool calls: none of its replies has any.
      expect(shown.messages.every((m) => m.tools === undefined)).toBe(true);
      expect(shown.messages.filter((m) => m.role === 'assistant').length).toBeGreaterThan(0);
    }
    const tides = await app.api.getConversation({ id: result.conversationIds[0]! });
    expect(tides.conversation.systemPrompt).toBe('Answer like a harbour master.');
    expect(tides.messages[0]!.content).toBe('When is low tide at the harbour?');
    expect(tides.messages[0]!.branch).toMatchObject({ index: 1, count: 2 });

    // Version 3 carried the file sent with this question, and the zip its bytes.
    const ferry = list.find((c) => c.title === 'Ferry notes')!;
    const notes = await app.api.getConversation({ id: ferry.id });
    expect(notes.messages[0]!.attachments?.map((a) => [a.name, a.kind])).toEqual([
      ['ferry-notes.md', 'text'],
    ]);
    expect((await app.api.searchMessages({ query: 'first ferry' })).length).toBeGreaterThan(0);
  });
});
