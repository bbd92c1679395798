/**
 * Asking with a knowledge base against the demo relay: a base built from the shipped samples is
 * linked to a conversation from its header; the reply cites its source as [1], which opens the
 * passage; in the X-ray, the top chunk is excluded and the question asked again, which makes a
 * second version of the reply whose X-ray shows the chunk excluded. Comparing two models then
 * asks both with the same sources, and each column cites them and has its own X-ray. Exported as a
 * zip and imported into a fresh app, the reply keeps its citations and X-ray, and its file, not on
 * this computer any more, is refused by name.
 */
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { KnowledgePage } from './pages/knowledge-page';

const suite = e2eSuite({ connectionName: 'Knowledge relay', scratch: true });

/**
 * A base built from a copy of the shipped samples in `folder`, linked to a new conversation from
 * its header, and the ferry question asked and answered there.
 */
async function askedWithSamples(folder: string, dialogs: ScriptedDialogs) {
  await cp(join(import.meta.dirname, '../../resources/knowledge-samples'), folder, {
    recursive: true,
  });
  dialogs.folders.push(folder);
  const knowledge = await suite.connected(KnowledgePage, { dialogs });
  const page = knowledge.page;
  await knowledge.create('Samples');
  await page.getByRole('button', { name: 'Add folder…' }).click();
  await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');

  const chat = new ChatPage(page);
  await chat.open();
  await chat.ready();
  await page.getByRole('button', { name: 'Knowledge bases', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Knowledge bases' })
    .getByRole('checkbox', { name: /^Samples/ })
    .check();
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.chat-knowledge-names').textContent()).toBe('Samples');

  await chat.send('When does the ferry leave the pier?');
  await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
  return { page, chat };
}

describe('asking with a knowledge base', () => {
  it('links a base, cites a source, and asks again without an excluded chunk', async () => {
    const { page, chat } = await askedWithSamples(
      join(suite.scratch, 'samples'),
      new ScriptedDialogs(),
    );
    const reply = chat.lastReply();
    const cite = reply.getByRole('button', { name: 'Source 1', exact: true }).first();
    await cite.click();
    const source = reply.getByRole('region', { name: 'Source 1' });
    await expect.poll(() => source.locator('h3').textContent()).toContain('harbour-office.md');
    expect(await source.locator('blockquote').textContent()).toContain(
      'The ferry to the island leaves the pier every hour',
    );

    await source.getByRole('button', { name: 'Retrieval X-ray' }).click();
    const xray = reply.getByRole('region', { name: 'Retrieval X-ray' });
    const rows = xray.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.first().locator('td').nth(3).textContent()).toBe('In the prompt');
    // The question among the chunks, on the playground's map and heatmap.
    expect(await xray.locator('canvas').count()).toBeGreaterThanOrEqual(2);
    const topFile = await rows.first().locator('summary').textContent();
    await xray.getByRole('button', { name: 'Exclude chunk 1' }).click();
    await expect
      .poll(() =>
        xray.getByRole('button', { name: 'Include chunk 1' }).getAttribute('aria-pressed'),
      )
      .toBe('true');
    await xray.getByRole('button', { name: 'Ask again' }).click();

    await expect.poll(() => page.getByLabel('Version 2 of 2').count()).toBe(1);
    await expect(chat.finishedReplyStatus()).resolves.toBe('complete');
    const again = chat.lastReply();
    await again.getByRole('button', { name: 'Sources', exact: true }).click();
    const second = again.getByRole('region', { name: 'Retrieval X-ray' });
    const excluded = second.locator('tbody tr[data-placement="excluded"]');
    await excluded.first().waitFor();
    expect(await excluded.first().locator('summary').textContent()).toBe(topFile);
    expect(await second.locator('tbody tr[data-placement="prompt"]').count()).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Compare models…' }).click();
    const form = page.getByRole('form', { name: 'Compare models' });
    await form.getByLabel('Model of column 1').selectOption('demo-chat-fast');
    await form.getByLabel('Model of column 2').selectOption('demo-chat-fast');
    await form.getByLabel('Temperature of column 2').fill('0.2');
    await form.getByLabel('Message to compare').fill('How often are tomatoes watered?');
    await form.getByRole('button', { name: 'Send to all' }).click();
    const columns = page.getByRole('region', { name: 'Replies side by side' });
    const first = columns.getByRole('article').nth(0);
    const other = columns.getByRole('article').nth(1);
    for (const column of [first, other])
      await expect
        .poll(() => column.getAttribute('data-status'), { timeout: 20_000 })
        .toBe('complete');
    await first.getByRole('button', { name: 'Source 1', exact: true }).first().click();
    const cited = first.getByRole('region', { name: 'Source 1' });
    await expect.poll(() => cited.locator('h3').textContent()).toContain('garden-club.md');
    expect(await cited.locator('blockquote').textContent()).toContain(
      'Tomatoes are watered at the roots',
    );
    await other.getByRole('button', { name: 'Sources', exact: true }).click();
    const columnXray = other.getByRole('region', { name: 'Retrieval X-ray' });
    await columnXray.locator('tbody tr').first().waitFor();
    expect(await columnXray.locator('tbody tr').first().locator('summary').textContent()).toContain(
      'garden-club.md',
    );
  });

  it('keeps the citations and the X-ray of an imported reply, and says its file is not here', async () => {
    const folder = join(suite.scratch, 'samples-moved');
    const dialogs = new ScriptedDialogs();
    const { chat } = await askedWithSamples(folder, dialogs);
    const zip = join(suite.scratch, 'ferry.zip');
    dialogs.savePaths.push(zip);
    await chat.conversationAction(
      'When does the ferry leave the pier?',
      'Export',
      'Zip, with its files (.zip)',
    );
    await chat.notice(/^Saved the conversation to .*ferry\.zip\.$/).waitFor({ timeout: 8000 });
    await suite.closeApp();
    // The files the base was built from are not on the computer the conversation goes to.
    await rm(folder, { recursive: true, force: true });

    const importing = new ScriptedDialogs();
    importing.openPaths.push([zip]);
    const fresh = await suite.connected(ChatPage, { dialogs: importing, ready: false });
    await fresh.sidebar.getByRole('button', { name: 'Import' }).click();
    await fresh.notice('Imported one conversation.').waitFor({ timeout: 8000 });
    const reply = fresh.lastReply();
    await reply.getByRole('button', { name: 'Source 1', exact: true }).first().click();
    const source = reply.getByRole('region', { name: 'Source 1' });
    await expect.poll(() => source.locator('h3').textContent()).toContain('harbour-office.md');
    expect(await source.locator('blockquote').textContent()).toContain(
      'The ferry to the island leaves the pier every hour',
    );
    await source.getByRole('button', { name: 'Show in folder' }).click();
    await expect
      .poll(() => source.getByRole('alert').textContent())
      .toMatch(
        /^harbour-office\.md is not on this computer at .*samples-moved\/harbour-office\.md: it was moved or deleted, or this conversation was imported from another computer\. The passage itself is kept with the reply\.$/,
      );

    await source.getByRole('button', { name: 'Retrieval X-ray' }).click();
    const xray = reply.getByRole('region', { name: 'Retrieval X-ray' });
    await xray.locator('tbody tr').first().waitFor();
    expect(await xray.locator('tbody tr').first().locator('td').nth(3).textContent()).toBe(
      'In the prompt',
    );
    expect(await xray.locator('canvas').count()).toBeGreaterThanOrEqual(2);
  });
});
