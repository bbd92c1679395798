/**
 * A knowledge base built from a folder against the demo relay: a Markdown file and a PDF go in,
 * a binary is refused by name and reason, and a question finds the right passage first, with its
 * score, file and page. Then it is copied with the demo's second embeddings model and both are
 * asked the same questions side by side, renamed, and moved to that model after the estimate of
 * what that sends. A changed file is read again by "Check for changes", and everything is there
 * after a restart.
 */
import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { NOTES_PAGES } from '../fixtures/documents/contents';
import { e2eSuite } from './harness/suite';
import { KnowledgePage } from './pages/knowledge-page';

const suite = e2eSuite({ connectionName: 'Knowledge relay', scratch: true });

describe('knowledge bases', () => {
  it('builds from a folder, ranks the right passage, compares two models, renames, moves model, reads a changed file and keeps all after a restart', async () => {
    const folder = join(suite.scratch, 'harbour');
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, 'guide.md'),
      '# Harbour guide\n\n## Ferry timetable\n\nThe ferry leaves the pier every hour.\n',
    );
    await copyFile(
      join(import.meta.dirname, '../fixtures/documents/notes.pdf'),
      join(folder, 'notes.pdf'),
    );
    await writeFile(join(folder, 'engine.bin'), Buffer.from([0, 159, 146, 150, 0, 1, 2, 3]));
    const dialogs = new ScriptedDialogs();
    dialogs.folders.push(folder);

    const userDataDir = await mkdtemp(join(suite.scratch, 'data-'));
    // The keychain outlives the app, as the OS's does.
    const secretStore = new MemorySecretStore({
      secure: true,
      persistent: true,
      backend: 'keychain',
      reason: undefined,
    });
    const knowledge = await suite.connected(KnowledgePage, { dialogs, userDataDir, secretStore });
    const page = knowledge.page;
    await expect
      .poll(() =>
        page.getByRole('status').filter({ hasText: 'Your files stay on this computer' }).count(),
      )
      .toBe(1);
    await knowledge.create('Harbour');
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');

    await expect
      .poll(() => knowledge.refused.allTextContents())
      .toEqual([expect.stringMatching(/^engine\.bin was not added: /)]);
    expect(await page.getByTestId('knowledge-counts').textContent()).toMatch(/^2 files · /);

    await knowledge.ask('When are storm warnings raised?');
    const first = knowledge.hits.first();
    expect(await first.locator('.knowledge-hit-file').textContent()).toBe('notes.pdf');
    expect(await first.locator('.knowledge-hit-meta').textContent()).toContain('page 2');
    expect(await first.locator('.knowledge-hit-text').textContent()).toContain(NOTES_PAGES[1]);
    expect(Number(await first.locator('.knowledge-hit-score').textContent())).toBeGreaterThan(0);

    // Compare: a copy with the other model, then both asked the same questions side by side.
    await page.getByRole('button', { name: 'Build a copy' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Knowledge bases' }).textContent(), {
        timeout: 20_000,
      })
      .toMatch(/Harbour · demo-embedding-small2 files · Ready/);
    expect(await page.getByLabel('Compare with').inputValue()).not.toBe('');
    await page
      .getByLabel(/^Your questions, one a line/)
      .fill('When are storm warnings raised?\n\nWhen does the ferry leave the pier?');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const storm = page.getByRole('region', { name: 'Question 1' });
    await storm.waitFor();
    expect(await page.getByRole('region', { name: /^Question \d$/ }).count()).toBe(2);
    for (const model of ['demo-embedding', 'demo-embedding-small']) {
      const first = storm.getByLabel(model, { exact: true }).getByRole('listitem').first();
      expect(await first.textContent()).toMatch(/notes\.pdf page 2 .*found by both$/);
    }

    // Rename: Enter saves; the list and the heading follow.
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    const rename = page.getByRole('textbox', { name: 'Name of the knowledge base' });
    await rename.fill('Port of Brest');
    await rename.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Port of Brest' }).waitFor();

    // Another model: what it sends is said first, then every chunk is embedded again.
    await page.getByRole('button', { name: 'Change model…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('New embeddings model').inputValue()).toBe(
      'demo-embedding-small',
    );
    await expect
      .poll(() => dialog.getByTestId('knowledge-estimate').textContent())
      .toMatch(
        /^Embeds \d+ chunks again with demo-embedding-small: about [\d,]+ tokens, cost unknown: demo-embedding-small has no price on the Models screen\.$/,
      );
    await dialog.getByRole('button', { name: 'Embed again' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');
    expect(await page.locator('.knowledge-detail-header').textContent()).toContain(
      'demo-embedding-small',
    );
    // The passages of the old model are gone; the new one finds the ferry in the guide.
    expect(await knowledge.hits.count()).toBe(0);
    await knowledge.ask('When does the ferry leave the pier?');
    expect(await knowledge.hits.first().locator('.knowledge-hit-file').textContent()).toBe(
      'guide.md',
    );

    // A file changes: "Check for changes" reads it again, and the new text is found.
    await writeFile(
      join(folder, 'guide.md'),
      '# Harbour guide\n\n## Ferry timetable\n\nThe ferry leaves the pier every half hour.\n',
    );
    await page.getByRole('button', { name: 'Check for changes' }).click();
    await expect.poll(() => knowledge.status.textContent(), { timeout: 20_000 }).toBe('Ready');
    await knowledge.ask('When does the ferry leave the pier?');
    await expect
      .poll(() => knowledge.hits.first().locator('.knowledge-hit-text').textContent())
      .toContain('every half hour');

    // After a restart: both bases, the new name and model, and the search.
    await suite.closeApp();
    const again = new KnowledgePage((await suite.openApp({ userDataDir, secretStore })).page);
    await again.open();
    await expect
      .poll(() => again.page.getByRole('list', { name: 'Knowledge bases' }).textContent())
      .toMatch(/^Harbour · demo-embedding-small.*Port of Brest2 files · Ready$/);
    await again.page.getByRole('button', { name: /^Port of Brest/ }).click();
    await again.ask('When does the ferry leave the pier?');
    expect(await again.hits.first().locator('.knowledge-hit-text').textContent()).toContain(
      'every half hour',
    );
  }, 90_000);
});
