/**
 * Languages on the prompt library, the knowledge bases and the quick ask window: in German their
 * words change (a built-in prompt the person has not edited included, started in German), the
 * quick ask window starts in the language shown and follows a change made while it is open, and
 * the pseudo-language over them shows no control cut off and no word outside the catalogues.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pseudoText } from '../../renderer/src/i18n/pseudo';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { e2eSuite } from './harness/suite';
import { plainWords } from './pages/untranslated';
import { cutOff } from './pages/layout';

const CONNECTION = 'Language relay';
const suite = e2eSuite({ connectionName: CONNECTION, scratch: true });

/** The screens in the sidebar's order (`app/screens.ts`), whatever their names. */
const NAV = { prompts: 1, knowledge: 2 };

async function openScreen(page: Page, index: number, title: RegExp): Promise<void> {
  await page.locator('nav.sidebar .nav-item').nth(index).click();
  await expect.poll(() => page.locator('h1.page-title').textContent()).toMatch(title);
}

/** A folder of one Markdown file, offered by the "Add folder…" dialog. */
async function harbourFolder(): Promise<ScriptedDialogs> {
  const folder = join(suite.scratch, 'harbour');
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'guide.md'),
    '# Harbour guide\n\n## Ferry timetable\n\nThe ferry leaves the pier every hour.\n',
  );
  const dialogs = new ScriptedDialogs();
  dialogs.folders.push(folder);
  return dialogs;
}

describe('languages on the library, knowledge and quick ask', () => {
  it('shows them in German, built-in prompts included, and the quick window follows a change', async () => {
    const app = await suite.connect();
    const page = app.page;
    await suite.app.services.settings.update({ language: 'de' });
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Bereiche' });

    // The library: its words, and a built-in prompt in German, started in German.
    await nav.getByRole('button', { name: 'Prompts', exact: true }).click();
    await page.getByRole('button', { name: 'Neuer Assistent' }).waitFor();
    const assistants = page.getByRole('region', { name: 'Assistenten' });
    await assistants.locator('.prompt-card-name', { hasText: /^LektorMitgeliefert$/ }).waitFor();
    await page
      .getByRole('region', { name: 'Textbausteine' })
      .getByRole('button', { name: 'Zusammenfassen bearbeiten' })
      .waitFor();
    await page.getByRole('button', { name: 'Chat mit Lektor beginnen' }).click();
    const start = page.getByRole('dialog', { name: 'Chat mit Lektor beginnen' });
    await expect(start.getByLabel(/^Sprache/).inputValue()).resolves.toBe('Deutsch');
    await expect(start.locator('pre').textContent()).resolves.toMatch(/Schreibe auf Deutsch\.$/);
    await start.getByRole('button', { name: 'Chat beginnen' }).click();

    // The chat starts with the German system prompt, and its knowledge chip speaks German.
    const chip = page.getByRole('button', { name: 'Wissensbasen', exact: true });
    await chip.click();
    const panel = page.getByRole('dialog', { name: 'Wissensbasen' });
    await panel.getByText('Fragen mit', { exact: true }).waitFor();
    await panel.getByText(/^Noch keine Wissensbasis: /).waitFor();
    await page.keyboard.press('Escape');
    const created = suite.app.messages.find((m) => m.channel === 'chat:create');
    expect(created?.payload).toMatchObject({
      title: 'Lektor',
      systemPrompt: expect.stringMatching(
        /^Du bist ein sorgfältiger Lektor\..*Schreibe auf Deutsch\.$/s,
      ),
    });

    // The knowledge bases: the empty screen's words.
    await nav.getByRole('button', { name: 'Wissen', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Wissen' }).waitFor();
    await page.getByRole('button', { name: 'Demo-Wissensbasis ausprobieren' }).waitFor();
    await page.getByRole('heading', { name: 'Wissensbasis anlegen' }).waitFor();

    // The quick ask window starts in the language shown, and follows a change while it is open.
    const quick = await app.openQuickWindow();
    await quick.getByLabel('Ihre Frage').waitFor();
    await expect(quick.locator('html').getAttribute('lang')).resolves.toBe('de');
    await suite.app.services.settings.update({ language: 'fr' });
    await quick.getByLabel('Votre question').waitFor();
    await expect(quick.locator('html').getAttribute('lang')).resolves.toBe('fr');
    await expect(quick.locator('kbd.quick-hint').textContent()).resolves.toBe('Échap');
  }, 90_000);

  it('shows the pseudo-language on them with nothing cut off or left out', async () => {
    const app = await suite.connect({ dialogs: await harbourFolder() });
    const page = app.page;
    await suite.app.services.settings.update({ language: 'en-XA' });
    await page.reload();

    // The library, and the editor of a new assistant (the template's syntax is shown as written).
    await openScreen(page, NAV.prompts, /^Þŕöɱþţš·+$/);
    await page.locator('.prompt-card').first().waitFor();
    const tags = ['#writing', '#code', '#learning', '#language'];
    await expect(plainWords(page, ['.prompts-page'], [CONNECTION, ...tags])).resolves.toEqual([]);
    await page.locator('.page-header-actions .button-primary').click();
    await page.locator('section.prompt-editor').waitFor();
    await expect(
      plainWords(page, ['section.prompt-editor'], ['{{name=default}}', '{{name?}}', '{{name}}']),
    ).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);

    // The knowledge bases: empty, then one built from a folder and asked a question.
    await openScreen(page, NAV.knowledge, /^Ķñöŵļéđĝé·+$/);
    await expect
      .poll(() => page.locator('.knowledge-create select').inputValue())
      .toBe('demo-embedding');
    const models = ['demo-embedding-small', 'demo-embedding'];
    await expect(plainWords(page, ['.knowledge-page'], [CONNECTION, ...models])).resolves.toEqual(
      [],
    );
    expect(await cutOff(page, 'main.screen')).toEqual([]);
    await page.locator('.knowledge-create input').fill('Harbour');
    await page.locator('.knowledge-create button[type="submit"]').click();
    await page.locator('.knowledge-actions .button').nth(1).click();
    await expect
      .poll(() => page.getByTestId('knowledge-status').textContent(), { timeout: 20_000 })
      .toBe(pseudoText('Ready'));
    await page.locator('.knowledge-ask-form input').fill('When does the ferry leave?');
    await page.locator('.knowledge-ask-form button').click();
    await page.locator('.knowledge-hit').first().waitFor();
    const own = [CONNECTION, ...models, 'Harbour guide', 'Ferry timetable', 'Harbour', 'guide.md'];
    await expect(
      plainWords(
        page,
        [
          '.knowledge-detail-header',
          '.knowledge-ask-form',
          '.knowledge-hit-meta',
          '.knowledge-sources > h3',
          '.knowledge-files summary',
          '.knowledge-compare',
        ],
        own,
      ),
    ).resolves.toEqual([]);
    expect(await cutOff(page, 'main.screen')).toEqual([]);

    // The quick ask window.
    const quick = await app.openQuickWindow();
    await expect.poll(() => quick.locator('.quick-model-name').textContent()).toBe('demo-chat');
    await expect(plainWords(quick, ['main.quick'], [CONNECTION, 'demo-chat'])).resolves.toEqual([]);
    expect(await cutOff(quick, 'main.quick')).toEqual([]);
  }, 120_000);
});
