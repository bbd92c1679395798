/**
 * Files with a message, against the demo relay: text and a PDF attached by the button (main's
 * dialog, scripted here), a file dropped and one pasted, each bad kind refused by name with why,
 * the reply quoting the files, the files on the sent message (save as) and after a restart.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Dialogs } from '../../electron/main/app-context';
import { NOTES_PAGES } from '../fixtures/documents/contents';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';

const suite = e2eSuite({ connectionName: 'Chat relay', scratch: true });
const DOCUMENTS = join(import.meta.dirname, '../fixtures/documents');

/** Opens the given files, in turn, for each "Attach files"; saves to `saved`. */
function dialogs(opens: string[][], saved: string[]): Dialogs {
  return {
    chooseOpenPaths: async () => opens.shift() ?? [],
    chooseSavePath: async ({ defaultName }) => {
      const path = join(suite.scratch, `saved-${saved.length}-${defaultName}`);
      saved.push(path);
      return path;
    },
  };
}

/** A file handed to the composer as the page gets it: dropped on it, or pasted into the box. */
async function handOver(
  page: ChatPage,
  how: 'drop' | 'paste',
  name: string,
  content: string,
  type: string,
) {
  // A string, as the test code is compiled without the DOM library (it runs in Node).
  const args = JSON.stringify({ how, name, content, type });
  await page.page.evaluate(`(() => {
    const { how, name, content, type } = ${args};
    const data = new DataTransfer();
    data.items.add(new File([content], name, { type }));
    const box = document.querySelector('textarea[aria-label="Message"]');
    const init = { bubbles: true, cancelable: true };
    if (how === 'paste') {
      box.dispatchEvent(new ClipboardEvent('paste', { ...init, clipboardData: data }));
      return;
    }
    const composer = box.closest('.chat-composer');
    composer.dispatchEvent(new DragEvent('dragover', { ...init, dataTransfer: data }));
    composer.dispatchEvent(new DragEvent('drop', { ...init, dataTransfer: data }));
  })()`);
}

describe('attaching files to a message', () => {
  it('attaches text, a PDF, a drop and a paste; refuses bad files by name; the reply quotes them; kept after a restart', async () => {
    const dir = await mkdtemp(join(suite.scratch, 'files-'));
    const notes = join(dir, 'tides.md');
    await writeFile(notes, '# Tide table\nHigh water at 06:12 on Monday.\n');
    const pdf = join(dir, 'notes.pdf');
    await copyFile(join(DOCUMENTS, 'notes.pdf'), pdf);
    const binary = join(dir, 'blob.txt');
    await writeFile(binary, new Uint8Array([0, 159, 146, 150, 0, 1]));
    const locked = join(dir, 'locked.pdf');
    await copyFile(join(DOCUMENTS, 'locked.pdf'), locked);
    const scanned = join(dir, 'scanned.pdf');
    await copyFile(join(DOCUMENTS, 'scanned.pdf'), scanned);
    const big = join(dir, 'big.log');
    await writeFile(big, 'x'.repeat(1024 * 1024 + 10));

    const saved: string[] = [];
    const userDataDir = await mkdtemp(join(suite.scratch, 'data-'));
    const page = await suite.connected(ChatPage, {
      userDataDir,
      dialogs: dialogs(
        [
          [binary, locked, scanned, big],
          [notes, pdf],
        ],
        saved,
      ),
      seed: async (app) => {
        await app.services.settings.update({
          attachments: { maxFileMb: 1, contextTokens: 128_000, imageMaxSide: 1536 },
        });
      },
    });
    const attach = page.page.getByRole('button', { name: 'Attach files' });
    const chips = page.page.getByRole('list', { name: 'Attached files' });

    // Each bad kind, refused by name with why; nothing attached.
    await attach.click();
    const refused = page.page.getByRole('list', { name: 'Files not added' });
    // The first PDF read starts pdf.js in the reader's worker: seconds on a cold, busy machine.
    await expect
      .poll(() => refused.getByRole('listitem').allTextContents(), { timeout: 20_000 })
      .toEqual([
        expect.stringMatching(/^blob\.txt was not added: it holds binary data/),
        expect.stringMatching(/^locked\.pdf was not added: the PDF is protected by a password/),
        expect.stringMatching(/^scanned\.pdf was not added: the PDF has no text layer/),
        expect.stringMatching(/^big\.log was not added: it is larger than the 1 MB allowed/),
      ]);
    await expect(chips.count()).resolves.toBe(0);

    // Text and a PDF through the dialog, a dropped file and a pasted one.
    await attach.click();
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(2);
    await expect(refused.count()).resolves.toBe(0);
    await handOver(page, 'drop', 'dropped.csv', 'harbour,ferries\nBrest,12\n', 'text/csv');
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(3);
    await handOver(page, 'paste', 'pasted.txt', 'Pasted words about lighthouses.', 'text/plain');
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(4);
    const chipTexts = await chips.getByRole('listitem').allTextContents();
    expect(chipTexts[0]).toMatch(/^tides\.md\d+ bytes · ~\d+ tokens$/);
    expect(chipTexts[1]).toMatch(/^notes\.pdf[\d.]+ kB · 3 pages · ~\d+ tokens$/);
    expect(chipTexts.slice(2).map((t) => t.split(/\d/)[0])).toEqual(['dropped.csv', 'pasted.txt']);
    await expect(
      page.page
        .getByText(/^About [\d,]+ tokens with the files \(the model takes 128,000\)\.$/)
        .count(),
    ).resolves.toBe(1);

    // Removing one forgets it.
    await page.page.getByRole('button', { name: 'Remove pasted.txt' }).click();
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(3);

    await page.send('What do these files say?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const reply = await page.lastReply().textContent();
    expect(reply).toContain('From your files');
    expect(reply).toContain('tides.md (text/markdown, 9 words) begins: “# Tide table High water');
    expect(reply).toMatch(
      new RegExp(`notes\\.pdf \\(application/pdf, 3 pages.*page 1 begins: “[^”]*${NOTES_PAGES[0]}`),
    );
    expect(reply).toContain('dropped.csv (text/csv');
    expect(reply).not.toContain('pasted.txt');
    // The composer is empty again; the files are on the message sent.
    await expect(chips.count()).resolves.toBe(0);
    const sent = page.page
      .locator('article.chat-message[data-role="user"]')
      .getByRole('list', { name: 'Files sent' });
    await expect(sent.getByRole('listitem').count()).resolves.toBe(3);

    await sent.getByRole('button', { name: 'Save tides.md as' }).click();
    await expect.poll(() => saved.length).toBe(1);
    await expect.poll(() => readFile(saved[0]!, 'utf8').catch(() => '')).toContain('# Tide table');
    await suite.closeApp();

    // After a restart the message still carries its files.
    const again = new ChatPage((await suite.openApp({ userDataDir })).page);
    await again.open();
    await again.openConversation('What do these files say?');
    const kept = again.page
      .locator('article.chat-message[data-role="user"]')
      .getByRole('list', { name: 'Files sent' });
    // The conversation opens first (on a busy machine, longer than a poll's second).
    await kept.waitFor();
    await expect
      .poll(() => kept.locator('.chat-attachment-name').allTextContents())
      .toEqual(['tides.md', 'notes.pdf', 'dropped.csv']);
  });

  it('sends an image to the vision model, warns before sending it to a text model, refuses a corrupt one', async () => {
    const dir = await mkdtemp(join(suite.scratch, 'images-'));
    const photo = join(dir, 'harbour.png');
    await writeFile(
      photo,
      await sharp({ create: { width: 640, height: 480, channels: 3, background: '#dc1e1e' } })
        .png()
        .toBuffer(),
    );
    const corrupt = join(dir, 'broken.png');
    await writeFile(corrupt, Buffer.from('\x89PNG\r\n\x1a\n this is not the rest of a PNG'));
    const page = await suite.connected(ChatPage, { dialogs: dialogs([[corrupt, photo]], []) });
    await page.chooseModel('demo-chat');
    await page.page.getByRole('button', { name: 'Attach files' }).click();
    const chips = page.page.getByRole('list', { name: 'Attached files' });
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
    await expect(
      page.page.getByRole('list', { name: 'Files not added' }).textContent(),
    ).resolves.toMatch(/^broken\.png was not added: it is not a readable image/);
    await expect(chips.getByRole('listitem').textContent()).resolves.toMatch(
      /^harbour\.png[\d.]+ kB · 640×480 px · ~800 tokens$/,
    );
    await expect(chips.locator('img.chat-attachment-thumbnail').count()).resolves.toBe(1);

    // demo-chat reads no images: said before sending, the text and the image kept.
    await page.send('What colour is this?');
    await page.page
      .getByText(
        'demo-chat does not accept images, so harbour.png was not sent: choose a model that accepts images, remove the image, or mark demo-chat as accepting images on the Models screen.',
      )
      .waitFor({ timeout: 8000 });
    await expect(page.message.inputValue()).resolves.toBe('What colour is this?');
    await expect(chips.getByRole('listitem').count()).resolves.toBe(1);
    await expect(page.page.locator('article.chat-message').count()).resolves.toBe(0);

    // The vision model measures it.
    await page.chooseModel('demo-vision');
    await page.send('What colour is this?');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    const reply = await page.lastReply().textContent();
    expect(reply).toContain('Image 1: 640 × 480 pixels; mostly red (#dc1e1e, 100%)');
    const sent = page.page
      .locator('article.chat-message[data-role="user"]')
      .getByRole('list', { name: 'Files sent' });
    await expect
      .poll(() => sent.locator('img.chat-attachment-thumbnail').count(), { timeout: 8000 })
      .toBe(1);
  });

  it('keeps the typed text and the files when a file was deleted before sending', async () => {
    const dir = await mkdtemp(join(suite.scratch, 'gone-'));
    const gone = join(dir, 'gone.txt');
    await writeFile(gone, 'About to vanish.');
    const page = await suite.connected(ChatPage, { dialogs: dialogs([[gone]], []) });
    await page.page.getByRole('button', { name: 'Attach files' }).click();
    const chips = page.page.getByRole('list', { name: 'Attached files' });
    await expect.poll(() => chips.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1);
    await rm(gone);
    await page.send('Read this');
    await page.page
      .getByText(
        'gone.txt was not sent: it is no longer there (moved or deleted since it was chosen).',
      )
      .waitFor({ timeout: 8000 });
    await expect(page.message.inputValue()).resolves.toBe('Read this');
    await expect(chips.getByRole('listitem').count()).resolves.toBe(1);
    await expect(page.page.locator('article.chat-message').count()).resolves.toBe(0);
  });
});
