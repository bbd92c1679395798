/**
 * The Tools screen with a real MCP server (`@modelcontextprotocol/server-everything`, started by
 * the app over stdio once main's own question is answered): added with a secret environment value
 * that never comes back to the page, tested, its tools listed with their cost, one turned off,
 * rules per server and per tool listed as standing permissions and revoked, and removed after a
 * confirmation. Then bad input (a name taken, an address that is none) said at its field with
 * nothing typed lost, a missing command diagnosed with where it was looked for, and an
 * `mcpServers` file that is not JSON refused by its line and column. Scanned by axe in both
 * themes; its title in every language.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../electron/shared/locales';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ToolsPage } from './pages/tools-page';
import type { Page } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SECRET = 'tools-secret-canary-7f31';

const suite = e2eSuite({ connectionName: 'Tools relay', scratch: true });

async function expectAxeClean(page: Page, where: string): Promise<void> {
  const failing = blocking(await scanPage(page));
  expect(
    failing.map((v) => v.id),
    describeViolations(where, failing),
  ).toEqual([]);
}

describe('the Tools screen', { timeout: 120_000 }, () => {
  it('adds server-everything, tests it, turns a tool off, keeps and revokes rules, removes it', async () => {
    const dialogs = new ScriptedDialogs();
    const tools = await suite.connected(ToolsPage, { dialogs });
    const page = tools.page;
    await page.locator('.tools-page .empty-state').waitFor();
    await expectAxeClean(page, 'light: no server');

    await tools.fillLocal({ name: 'Everything', command: 'node', args: [EVERYTHING, 'stdio'] });
    // A local server runs with the person's rights: the form says so before it is saved.
    await expect(tools.form.locator('.tools-rights').textContent()).resolves.toContain(
      'runs on this computer with your rights',
    );
    await tools.form.getByRole('button', { name: 'Add variable' }).click();
    await tools.form.getByRole('textbox', { name: 'Name of variable 1' }).fill('API_TOKEN');
    await tools.form.getByLabel('Value of variable 1').fill(SECRET);
    await tools.form.getByRole('checkbox', { name: /Keep variable 1 secret/ }).check();
    await tools.save();
    const card = tools.card('Everything');
    await card.waitFor();
    await tools.form.waitFor({ state: 'detached' });
    await expect(card.locator('.tools-state').textContent()).resolves.toBe('Stopped');
    await expect(card.locator('.tools-list').textContent()).resolves.toContain('press Test');

    // Test: main asks before the command line first runs; the tools are then listed.
    dialogs.confirmAnswers.push(true);
    await card.getByRole('button', { name: 'Test Everything' }).click();
    const outcome = card.locator('.tools-test .notice-title');
    await expect
      .poll(() => outcome.textContent(), { timeout: 60_000 })
      .toMatch(/^Started and listed \d+ tools in [\d.]+ s\.$/);
    expect(dialogs.confirmRequests).toHaveLength(1);
    const echo = card.getByRole('checkbox', { name: 'Offer echo' });
    await echo.waitFor();
    const summary = card.locator('.tools-cost');
    const [, on, count, tokens] = /^(\d+) of (\d+) tools offered · about ([\d,]+) tokens/.exec(
      (await summary.textContent()) ?? '',
    )!;
    expect(on).toBe(count);

    // One tool turned off: it costs nothing, and main offers it no more.
    await echo.uncheck();
    await expect
      .poll(() => summary.textContent())
      .toMatch(new RegExp(`^${Number(on) - 1} of ${count} tools offered`));
    const cost = async () =>
      Number(/about ([\d,]+)/.exec((await summary.textContent()) ?? '')?.[1]?.replace(/,/g, ''));
    await expect.poll(cost).toBeLessThan(Number(tokens!.replace(/,/g, '')));
    await expect
      .poll(async () => (await suite.app.services.mcp.offeredTools()).map((tool) => tool.tool))
      .not.toContain('echo');

    // The secret went to the key store: never back to the page, in an answer or an event.
    const crossed = JSON.stringify(
      suite.app.messages.map((m) => (m.direction === 'invoke' ? m.result : m.payload)),
    );
    expect(crossed).not.toContain(SECRET);
    await card.getByRole('button', { name: 'Edit Everything' }).click();
    const value = tools.form.getByLabel('Value of variable 1');
    await expect(value.inputValue()).resolves.toBe('');
    await expect(value.getAttribute('placeholder')).resolves.toContain('Saved in the key store');
    await tools.form.getByRole('button', { name: 'Cancel' }).click();

    // A default for the server and a rule for one tool: both standing permissions, revocable.
    await expect(tools.permissions.textContent()).resolves.toContain('None: every call asks');
    await card.getByLabel('When a model calls a tool of Everything').selectOption('allow');
    await card.getByRole('combobox', { name: 'Rule for get-sum' }).selectOption('deny');
    const rows = tools.permissions.locator('li.tools-permission > span');
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([
        'Every tool of Everything: always allowed',
        'get-sum of Everything: always denied',
      ]);
    const id = (await suite.app.services.mcp.list())[0]!.id;
    await expect(suite.app.services.mcp.permissions()).resolves.toEqual({
      servers: { [id]: 'allow' },
      tools: { [id]: { 'get-sum': 'deny' } },
    });
    await expectAxeClean(page, 'light: a server with its tools and rules');
    await tools.permissions
      .getByRole('button', { name: 'Revoke: Every tool of Everything: always allowed' })
      .click();
    await expect
      .poll(() => rows.allTextContents())
      .toEqual(['get-sum of Everything: always denied']);
    await expect
      .poll(() => card.getByLabel('When a model calls a tool of Everything').inputValue())
      .toBe('ask');
    await tools.permissions.getByRole('button', { name: /^Revoke: get-sum of Everything/ }).click();
    await expect.poll(() => rows.count()).toBe(0);
    await expect(suite.app.services.mcp.permissions()).resolves.toEqual({
      servers: {},
      tools: {},
    });

    // Remove asks first; Cancel keeps it, Remove takes it away with its process.
    await card.getByRole('button', { name: 'Remove Everything' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await card.getByRole('button', { name: 'Remove Everything' }).click();
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await card.waitFor({ state: 'detached' });
    await page.locator('.tools-page .empty-state').waitFor();
    await expect(suite.app.services.mcp.list()).resolves.toEqual([]);
  });

  it('says what is wrong at its field and keeps what was typed; diagnoses a missing command; refuses a bad file by line', async () => {
    const dialogs = new ScriptedDialogs();
    const tools = await suite.connected(ToolsPage, { dialogs, colorScheme: 'dark' });
    const page = tools.page;
    await tools.fillLocal({ name: 'Files', command: 'node', args: [EVERYTHING, 'stdio'] });
    await tools.save();
    await tools.card('Files').waitFor();

    // A name already taken, in other letters: said at the name, the command kept.
    await tools.fillLocal({ name: 'files', command: 'node', args: ['server.js'] });
    await tools.save();
    const name = tools.form.getByRole('textbox', { name: 'Name', exact: true });
    await expect
      .poll(() => tools.form.locator('.field-error').first().textContent())
      .toBe('A server named “files” is already there: choose another name.');
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(tools.form.getByRole('textbox', { name: 'Command' }).inputValue()).resolves.toBe(
      'node',
    );
    await expect(tools.form.getByRole('textbox', { name: 'Arguments' }).inputValue()).resolves.toBe(
      'server.js',
    );

    // A remote one whose address is none: said at the address, the name kept.
    await name.fill('Search');
    await tools.form.getByRole('radio', { name: /^Remote/ }).check();
    const address = tools.form.getByRole('textbox', { name: 'Address' });
    await address.fill('not an address');
    await tools.save();
    await expect.poll(() => address.getAttribute('aria-invalid')).toBe('true');
    await expect(name.inputValue()).resolves.toBe('Search');
    await expect(address.inputValue()).resolves.toBe('not an address');
    await expectAxeClean(page, 'dark: a form with a mistake');
    await tools.form.getByRole('button', { name: 'Cancel' }).click();
    expect((await suite.app.services.mcp.list()).map((s) => s.name)).toEqual(['Files']);

    // A command that is not there: Test says so, where it looked, and the fix.
    await tools.fillLocal({ name: 'Missing', command: 'npx-not-installed-here' });
    await tools.save();
    const missing = tools.card('Missing');
    await missing.waitFor();
    dialogs.confirmAnswers.push(true);
    await missing.getByRole('button', { name: 'Test Missing' }).click();
    await expect
      .poll(() => missing.locator('.tools-test .notice-title').textContent(), { timeout: 30_000 })
      .toBe('The test failed');
    const why = await missing.locator('.tools-test .failure-message').textContent();
    expect(why).toContain('“npx-not-installed-here” was not found');
    expect(why).toContain('it looked in');
    expect(why).toContain('write its full path as the command');
    await expectAxeClean(page, 'dark: a failed test');

    // An mcpServers file with a trailing comma: refused by line and column, nothing added.
    const broken = join(suite.scratch, 'broken-servers.json');
    await writeFile(broken, '{\n  "mcpServers": {\n    "a": { "command": "node" },\n  }\n}\n');
    dialogs.openPaths.push([broken]);
    await page.getByRole('button', { name: 'Import…' }).click();
    const failed = page.locator('.notice', { hasText: 'Nothing was imported' });
    await expect
      .poll(() => failed.locator('.failure-message').textContent())
      .toBe(
        '“broken-servers.json” cannot be imported: it is not valid JSON: the mistake is at line 4, column 3.',
      );
    await failed.getByRole('button', { name: 'Close' }).click();

    // A good file: its good entry added, its bad one refused by name.
    const good = join(suite.scratch, 'servers.json');
    await writeFile(
      good,
      JSON.stringify({
        mcpServers: {
          notes: { command: 'uvx', args: ['notes-server'], env: { NOTES_TOKEN: 'abc' } },
          old: { type: 'sse', url: 'https://example.com/sse' },
        },
      }),
    );
    dialogs.openPaths.push([good]);
    await page.getByRole('button', { name: 'Import…' }).click();
    const done = page.locator('.notice', { hasText: 'Imported:' });
    await expect
      .poll(() => done.locator('.notice-title').textContent())
      .toBe('Imported: 1 server added');
    await expect(done.textContent()).resolves.toContain('1 secret value went to the key store.');
    await expect(done.locator('.tools-refused li').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^“old”: it uses the older SSE transport/),
    ]);
    await tools.card('notes').waitFor();
  });

  it('is named in every language, reached from the rail and with Ctrl+7', async () => {
    const tools = await suite.connected(ToolsPage);
    const page = tools.page;
    const titles: Record<string, string> = {};
    for (const language of LOCALES) {
      await suite.app.services.settings.update({ language });
      await page.reload();
      await page.locator(`html[lang="${language}"]`).waitFor();
      await page.locator('.tools-page .empty-state').waitFor();
      titles[language] = (await page.locator('h1.page-title').textContent()) ?? '';
    }
    expect(titles).toEqual({
      en: 'Tools',
      de: 'Werkzeuge',
      es: 'Herramientas',
      fr: 'Outils',
      ja: 'ツール',
      'zh-CN': '工具',
    });
    await suite.app.services.settings.update({ language: 'en' });
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Chat', exact: true })
      .click();
    await page.locator('h1.page-title', { hasText: 'Tools' }).waitFor({ state: 'detached' });
    await page.locator('body').press('Control+7');
    await tools.heading.waitFor();
  });
});
