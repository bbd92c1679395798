/**
 * MCP prompts and resources in the composer, end to end with a real server (server-everything
 * over stdio, started by main when first needed): the conversation's server (the header's chip)
 * lists its prompts in the `/` list under its name; a prompt with a required argument asks for it
 * (refusing it blank) and its text goes into the message box; "Attach from a tool server" lists
 * its resources, and the one chosen is attached like a file. Both themes, each with the
 * accessibility scan of the list, the form and the resource panel.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Dialogs } from '../../electron/main/app-context';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ChatPage } from './pages/chat-page';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const suite = e2eSuite({ connectionName: 'Prompts relay' });

/** The file dialogs cancelled; main's question before it starts a local server answered yes. */
const dialogs: Dialogs = {
  chooseSavePath: async () => undefined,
  chooseOpenPaths: async () => [],
  confirm: async () => true,
};

describe.each(['light', 'dark'] as const)(
  'MCP prompts and resources (%s)',
  { timeout: 120_000 },
  (colorScheme) => {
    it('inserts a prompt from the / list and attaches a resource', async () => {
      const page = await suite.connected(ChatPage, { colorScheme, dialogs });
      const app = page.page;
      await suite.app.services.mcp.add({
        name: 'Everything',
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
      });
      await page.send('Hello there');
      await expect(page.finishedReplyStatus()).resolves.toBe('complete');
      await page.chooseToolServer('Everything');

      // `/` lists the server's prompts in a group of its own, filtered as typed.
      await page.message.fill('/');
      const group = app.getByRole('group', { name: 'Prompts of Everything' });
      await group.getByRole('option', { name: /Simple Prompt/ }).waitFor({ timeout: 60_000 });
      const menu = blocking(await scanPage(app, '.snippet-menu'));
      expect(menu, describeViolations('the / list with prompts', menu)).toEqual([]);
      await page.message.fill('/args-prompt');
      const option = group.getByRole('option', { name: /Arguments Prompt/ });
      await option.waitFor();
      await expect.poll(() => app.getByRole('option').count()).toBe(1);
      await page.message.press('Enter');

      // Its required argument is marked and asked for; blank, it is refused.
      const form = app.locator('.snippet-fill');
      await form
        .getByRole('heading', { name: 'Insert “Arguments Prompt” from Everything' })
        .waitFor();
      await form.getByRole('button', { name: 'Insert' }).click();
      await expect.poll(() => form.locator('.field-error').textContent()).toBe('Fill in city.');
      await expect(form.textContent()).resolves.toContain('Name of the city');
      const filled = blocking(await scanPage(app, '.snippet-fill'));
      expect(filled, describeViolations('the prompt arguments form', filled)).toEqual([]);
      await form.getByLabel(/^city/).fill('Lyon');
      await form.getByLabel(/^city/).press('Enter');
      await expect.poll(() => page.message.inputValue()).toBe("What's weather in Lyon?");

      // A resource of the server, attached like a file.
      await page.message.fill('');
      await app.getByRole('button', { name: 'Attach from a tool server' }).click();
      const panel = app.getByRole('dialog', { name: 'Attach from a tool server' });
      const resource = panel.getByRole('button', { name: /architecture\.md/ });
      await resource.waitFor({ timeout: 60_000 });
      const listed = blocking(await scanPage(app, '.chat-resources'));
      expect(listed, describeViolations('the resource panel', listed)).toEqual([]);
      await resource.click();
      const chip = app.locator('.chat-composer .chat-attachment-chip');
      await chip.waitFor();
      await expect(chip.locator('.chat-attachment-name').textContent()).resolves.toBe(
        'architecture.md',
      );
      await expect(panel.count()).resolves.toBe(0);
    });
  },
);
