/**
 * The chat's retrieval X-ray shows the embeddings playground's map and heatmap: their words
 * come with them in the language chosen, although the chat around them has its own namespace
 * (the map and the heatmap load the `embeddings` words themselves).
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { KnowledgePage } from './pages/knowledge-page';

const suite = e2eSuite({ connectionName: 'Knowledge relay', scratch: true });

describe('the retrieval X-ray in another language', () => {
  it('labels its map and heatmap in German, never from the Embeddings screen', async () => {
    const folder = join(suite.scratch, 'samples');
    await cp(join(import.meta.dirname, '../../resources/knowledge-samples'), folder, {
      recursive: true,
    });
    const dialogs = new ScriptedDialogs();
    dialogs.folders.push(folder);
    const knowledge = await suite.connected(KnowledgePage, { dialogs });
    const page = knowledge.page;
    await knowledge.create('Samples');
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');

    const screen = (index: number) => page.locator('nav.sidebar .nav-item').nth(index);
    await screen(0).click();
    const chat = new ChatPage(page);
    await chat.ready();
    await page.getByRole('button', { name: 'Knowledge bases', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Knowledge bases' })
      .getByRole('checkbox', { name: /^Samples/ })
      .check();
    await page.keyboard.press('Escape');
    await chat.send('When does the ferry leave the pier?');
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');

    // German from here on, without a reload; the Embeddings screen is never opened.
    await screen(9).click();
    await page.locator('section[aria-labelledby="appearance-title"] select').selectOption('de');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('de');
    await screen(0).click();
    const reply = chat.lastReply();
    await reply.getByRole('button', { name: 'Quellen', exact: true }).click();
    const xray = reply.getByRole('region', { name: 'Abruf im Detail' });
    await xray.getByRole('heading', { name: 'Kosinus-Ähnlichkeit' }).waitFor();
    await xray.getByRole('heading', { name: 'Karte (PCA)' }).waitFor();
    await xray.getByRole('img', { name: /^Ähnlichkeit von \d+ Eingaben untereinander/ }).waitFor();
    await xray.getByText('Nach Ähnlichkeit ordnen').waitFor();
    expect(await page.locator('.embeddings-page').count()).toBe(0);
  }, 60_000);
});
