/**
 * Export several conversations and import the zip: the selection mode of the conversation list
 * (keyboard operable, with its count, Select all and Esc), a zip through the save dialog, and
 * its import into a fresh app; a zip with a bad entry says what was imported and what was not;
 * one conversation exported as a zip with the files sent in it, imported into a fresh app, where
 * the files are on the message again and open.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Dialogs } from '../../electron/main/app-context';
import { ChatStore } from '../../electron/main/services/chat/store';
import { e2eSuite, type ConnectedOptions } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Chat relay', scratch: true });

/**
 * A clock a second further at each reading: conversations seeded in the same millisecond would
 * have no order of their own in the sidebar (nor in an export's numbered names).
 */
function ticking(): () => Date {
  let at = Date.now() - 60_000;
  return () => new Date((at += 1000));
}

function chat(options: ConnectedOptions, seed?: (store: ChatStore) => void) {
  return suite.connected(ChatPage, {
    ready: false,
    ...options,
    ...(seed ? { seed: (app) => seed(new ChatStore(app.services.db, ticking())) } : {}),
  });
}

function seedThree(store: ChatStore) {
  for (const title of ['Apples', 'Bananas', 'Cherries']) {
    const c = store.create({ title, model: 'demo-chat' });
    store.append(c.id, [
      { role: 'user', content: `Tell me about ${title.toLowerCase()}`, status: 'complete' },
      {
        role: 'assistant',
        content: `${title} are fruit.`,
        status: 'complete',
        usage: { promptTokens: 5, completionTokens: 5, totalTokens: 10 },
      },
    ]);
  }
}

const savingTo = (saved: string[]): Dialogs => ({
  chooseSavePath: async ({ defaultName }) => {
    const path = join(suite.scratch, `${saved.length}-${defaultName}`);
    saved.push(path);
    return path;
  },
  chooseOpenPaths: async () => [],
});

describe('exporting several conversations and importing the zip', () => {
  it('selects with the keyboard, exports a zip of JSON and one of Markdown, and imports the JSON zip', async () => {
    const saved: string[] = [];
    const page = await chat({ dialogs: savingTo(saved) }, seedThree);
    const sidebar = page.sidebar;
    await sidebar.getByText('Cherries').waitFor({ timeout: 8000 });

    await sidebar.getByRole('button', { name: 'Select', exact: true }).click();
    const bar = sidebar.getByRole('toolbar', { name: 'Selected conversations' });
    await expect(bar.getByRole('status').textContent()).resolves.toBe('0 selected');
    await expect(bar.getByRole('button', { name: 'Export as JSON' }).isDisabled()).resolves.toBe(
      true,
    );
    // By keyboard: Tab to a checkbox, Space to tick it.
    const apples = sidebar.getByRole('checkbox', { name: 'Apples' });
    const cherries = sidebar.getByRole('checkbox', { name: 'Cherries' });
    await apples.focus();
    await page.page.keyboard.press('Space');
    await cherries.focus();
    await page.page.keyboard.press('Space');
    await expect(bar.getByRole('status').textContent()).resolves.toBe('2 selected');
    await expect(apples.isChecked()).resolves.toBe(true);
    await expect(sidebar.getByRole('checkbox', { name: 'Bananas' }).isChecked()).resolves.toBe(
      false,
    );

    await bar.getByRole('button', { name: 'Export as JSON' }).click();
    await page.notice(/^Saved 2 conversations to .*\.zip\.$/).waitFor({ timeout: 8000 });
    await bar.getByRole('button', { name: 'Export as Markdown' }).click();
    await expect.poll(() => saved.length).toBe(2);
    await page.notice(/^Saved 2 conversations to .*1-conversations-.*\.zip\.$/).waitFor({
      timeout: 8000,
    });
    const jsonZip = unzipSync(new Uint8Array(await readFile(saved[0]!)));
    expect(Object.keys(jsonZip).sort()).toEqual(['1-Cherries.json', '2-Apples.json']);
    const markdownZip = unzipSync(new Uint8Array(await readFile(saved[1]!)));
    expect(Object.keys(markdownZip).sort()).toEqual(['1-Cherries.md', '2-Apples.md']);
    expect(strFromU8(markdownZip['2-Apples.md']!)).toContain('Apples are fruit.');

    // Select all, then Esc leaves the mode and focus goes back to Select.
    await bar.getByRole('button', { name: 'Select all' }).click();
    await expect(bar.getByRole('status').textContent()).resolves.toBe('3 selected');
    await page.page.keyboard.press('Escape');
    await expect(bar.count()).resolves.toBe(0);
    await expect(sidebar.getByRole('checkbox').count()).resolves.toBe(0);
    await expect
      .poll(() =>
        page.page.evaluate(
          () =>
            (
              globalThis as unknown as {
                document: { activeElement: { textContent: string } | null };
              }
            ).document.activeElement?.textContent,
        ),
      )
      .toBe('Select');
    // One chosen: a single file, not a zip.
    await sidebar.getByRole('button', { name: 'Select', exact: true }).click();
    await sidebar.getByRole('checkbox', { name: 'Bananas' }).check();
    await bar.getByRole('button', { name: 'Export as JSON' }).click();
    await expect.poll(() => saved.length).toBe(3);
    expect(saved[2]).toMatch(/Bananas\.json$/);
    await suite.closeApp();

    // A fresh app imports the zip: both conversations, messages and usage as they were.
    const fresh = await chat({
      dialogs: { chooseSavePath: async () => undefined, chooseOpenPaths: async () => [saved[0]!] },
    });
    await fresh.sidebar.getByRole('button', { name: 'Import' }).click();
    await fresh.notice('Imported 2 conversations.').waitFor({ timeout: 8000 });
    const titles = fresh.sidebar.locator('.chat-conversation-title');
    await expect
      .poll(async () => (await titles.allTextContents()).sort())
      .toEqual(['Apples', 'Cherries']);
    await fresh.openConversation('Apples');
    await expect.poll(() => fresh.lastReply().textContent()).toContain('Apples are fruit.');
    await expect(fresh.conversationUsage().textContent()).resolves.toBe(
      '10 tokens in this conversation',
    );
  });

  it('imports the good entries of a zip and names each one refused, with why', async () => {
    const saved: string[] = [];
    const page = await chat({ dialogs: savingTo(saved) }, seedThree);
    await page.sidebar.getByText('Cherries').waitFor({ timeout: 8000 });
    await page.sidebar.getByRole('button', { name: 'Select', exact: true }).click();
    await page.sidebar.getByRole('button', { name: 'Select all' }).click();
    await page.sidebar.getByRole('button', { name: 'Export as JSON' }).click();
    await expect.poll(() => saved.length).toBe(1);
    await page.notice(/^Saved 3 conversations/).waitFor({ timeout: 8000 });
    await suite.closeApp();
    const entries = unzipSync(new Uint8Array(await readFile(saved[0]!)));
    const mixed = join(suite.scratch, 'mixed.zip');
    await writeFile(
      mixed,
      zipSync({
        '1-Cherries.json': entries['1-Cherries.json']!,
        'notes.txt': strToU8('hello'),
        'broken.json': strToU8('{"format": "relay-desktop-chat", '),
      }),
    );
    const notZip = join(suite.scratch, 'not-a.zip');
    await writeFile(notZip, 'plain text');

    const picks = [[mixed], [notZip]];
    const fresh = await chat({
      dialogs: {
        chooseSavePath: async () => undefined,
        chooseOpenPaths: async () => picks.shift() ?? [],
      },
    });
    await fresh.sidebar.getByRole('button', { name: 'Import' }).click();
    await fresh.notice('Imported one conversation. 2 files were not imported.').waitFor({
      timeout: 8000,
    });
    const refused = fresh.page.getByRole('list', { name: 'Files not imported' });
    await expect(refused.locator('li').allTextContents()).resolves.toEqual([
      'mixed.zip › notes.txt is not a JSON chat export.',
      'mixed.zip › broken.json is not a JSON file, so it cannot be imported.',
    ]);
    await fresh.sidebar.getByText('Cherries').waitFor({ timeout: 8000 });

    // Nothing importable: an error that names the file, and nothing added.
    await fresh.sidebar.getByRole('button', { name: 'Import' }).click();
    await fresh
      .notice('not-a.zip is not a zip file, or it is damaged. Nothing was imported.')
      .waitFor({ timeout: 8000 });
    await expect(refused.count()).resolves.toBe(0);
    await expect(fresh.sidebar.locator('.chat-conversation').count()).resolves.toBe(1);
  });

  it('exports a conversation with its files as a zip, imports it into a fresh app and opens a file', async () => {
    const dir = await mkdtemp(join(suite.scratch, 'files-'));
    const notes = join(dir, 'harbour-log.md');
    await writeFile(notes, '# Harbour log\nThe barometer fell before the squall.\n');
    const photo = join(dir, 'squall.png');
    await writeFile(
      photo,
      await sharp({ create: { width: 64, height: 32, channels: 3, background: '#1e6edc' } })
        .png()
        .toBuffer(),
    );
    const saved: string[] = [];
    const picks = [[notes, photo]];
    const page = await chat({
      dialogs: {
        chooseOpenPaths: async () => picks.shift() ?? [],
        chooseSavePath: savingTo(saved).chooseSavePath,
      },
    });
    await page.ready();
    await page.chooseModel('demo-vision');
    await page.page.getByRole('button', { name: 'Attach files' }).click();
    const chips = page.page.getByRole('list', { name: 'Attached files' });
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(2);
    await page.send('What does my log say?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');

    await page.conversationAction('What does my log say?', 'Export', 'Zip, with its files (.zip)');
    await page.notice(/^Saved the conversation to .*\.zip\.$/).waitFor({ timeout: 8000 });
    const entries = Object.keys(unzipSync(new Uint8Array(await readFile(saved[0]!))));
    expect(entries.filter((name) => name.startsWith('files/'))).toHaveLength(2);
    // As JSON alone, the note names the files left out.
    await page.conversationAction('What does my log say?', 'Export', 'JSON (.json)');
    await page
      .notice(
        /^Saved the conversation to .*\.json\. A JSON file does not carry the files sent in it \(harbour-log\.md and squall\.png\): export it as a zip to keep them\.$/,
      )
      .waitFor({ timeout: 8000 });
    await suite.closeApp();

    const opened: string[] = [];
    const fresh = await chat({
      dialogs: { chooseSavePath: async () => undefined, chooseOpenPaths: async () => [saved[0]!] },
      platform: {
        desktop: {
          showInFolder: () => undefined,
          moveToTrash: () => Promise.reject(new Error('No trash here.')),
          openPath: async (path) => (opened.push(path), ''),
        },
      },
    });
    await fresh.sidebar.getByRole('button', { name: 'Import' }).click();
    await fresh.notice('Imported one conversation.').waitFor({ timeout: 8000 });
    // The imported conversation opens, its files on the message that sent them.
    const sent = fresh.page
      .locator('article.chat-message[data-role="user"]')
      .getByRole('list', { name: 'Files sent' });
    await expect
      .poll(() => sent.locator('.chat-attachment-name').allTextContents(), { timeout: 8000 })
      .toEqual(['harbour-log.md', 'squall.png']);
    await expect
      .poll(() => sent.locator('img.chat-attachment-thumbnail').count(), { timeout: 8000 })
      .toBe(1);
    await sent.getByRole('button', { name: 'Open harbour-log.md' }).click();
    await expect.poll(() => opened.length).toBe(1);
    expect(opened[0]).toMatch(/harbour-log\.md$/);
    await expect(readFile(opened[0]!, 'utf8')).resolves.toBe(
      '# Harbour log\nThe barometer fell before the squall.\n',
    );
    await expect.poll(() => fresh.lastReply().textContent()).toContain('64 × 32 pixels');
  });
});
