import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newKey, startRelay } from './harness/relay';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { ConnectionsPage } from './pages/connections-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite();

/** The chat screen's welcome after connecting: its three suggestions shown. */
async function landedInChat(page: Page): Promise<Locator> {
  await page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor();
  const welcome = page.getByRole('region', { name: 'Start a conversation' });
  const suggestions = welcome.getByRole('list', { name: 'Suggestions' }).getByRole('button');
  await expect.poll(() => suggestions.count()).toBe(3);
  return welcome;
}
const key = suite.key;

describe('first run', () => {
  it('shows the connect screen, and "Try the demo relay" lands in a new chat with suggestions, then lists the demo models', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await expect(connect.tryDemo.isEnabled()).resolves.toBe(true);
    await app.screenshot('first-run');

    await connect.tryDemo.click();
    // A new chat: the model that will answer and three suggested messages, not a list of models.
    const welcome = await landedInChat(app.page);
    await expect
      .poll(() => welcome.textContent())
      .toMatch(/Replies come from demo-chat on Demo relay/);
    await app.screenshot('first-run-demo-chat');

    const shell = new ShellPage(app.page);
    await shell.open('Models');
    const models = new ModelsPage(app.page);
    await models.waitForModels();
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);
    await expect(models.modelIds('Embeddings')).resolves.toEqual([
      'demo-embedding',
      'demo-embedding-small',
    ]);
    await expect(models.modelIds('Images')).resolves.toEqual(['demo-image']);
    // Labelled as a demo with synthetic replies, on the screen and in the sidebar.
    await expect(models.demoNotice.textContent()).resolves.toMatch(/synthetic replies/);
    await expect(shell.activeConnection.textContent()).resolves.toMatch(/Demo relay.*Demo/);
    await app.screenshot('first-run-demo-models');

    await shell.open('Connections');
    const card = new ConnectionsPage(app.page).card('Demo relay');
    await expect(card.badge('Demo').isVisible()).resolves.toBe(true);
    await expect(card.root.textContent()).resolves.toMatch(/Synthetic/);
    await expect(card.keyStatus.textContent()).resolves.toMatch(/^Key saved \(…[0-9a-f]{4}\)$/);
  });

  it('tests an address and key, shows the URL it requested, then saves and opens a new chat', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.form.fill({
      name: 'Local relay',
      baseUrl: `${suite.relay.url}/v1/`,
      apiKey: key,
    });

    const result = await connect.form.test();
    await expect(result.getAttribute('role')).resolves.toBe('status');
    await expect(result.textContent()).resolves.toContain('It lists 8 models.');
    await expect(result.locator('code').textContent()).resolves.toBe(
      `GET ${suite.relay.url}/v1/models`,
    );

    await connect.form.save();
    const welcome = await landedInChat(app.page);
    await expect
      .poll(() => welcome.textContent())
      .toMatch(/Replies come from demo-chat on Local relay/);
    await new ShellPage(app.page).open('Models');
    const models = new ModelsPage(app.page);
    await models.waitForModels();
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);
    await expect(models.demoNotice.count()).resolves.toBe(0);
  });

  it('gives the precise reason when a test fails: bad address, refused key, nothing listening', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();

    await connect.form.fill({ baseUrl: 'relay.example.com' });
    let result = await connect.form.test();
    await expect(result.getAttribute('role')).resolves.toBe('alert');
    await expect(result.locator('.notice-title').textContent()).resolves.toBe(
      'The address is not valid',
    );
    await expect(result.textContent()).resolves.toMatch(/not a valid web address/);

    await connect.form.fill({ baseUrl: suite.relay.url, apiKey: 'sk-wrong-key-0000' });
    result = await connect.form.test();
    await expect(result.locator('.notice-title').textContent()).resolves.toBe(
      'The key was refused (HTTP 401)',
    );
    await expect(result.locator('code').textContent()).resolves.toBe(
      `GET ${suite.relay.url}/v1/models`,
    );

    const closed = await startRelay([newKey()]);
    const deadUrl = closed.url;
    await closed.close();
    await connect.form.fill({ baseUrl: deadUrl, apiKey: key });
    result = await connect.form.test();
    await expect(result.locator('.notice-title').textContent()).resolves.toBe(
      'The relay could not be reached',
    );
    await expect(result.locator('code').textContent()).resolves.toBe(`GET ${deadUrl}/v1/models`);
    await app.screenshot('first-run-test-failed');

    // Nothing was saved by testing.
    await expect(connect.heading.isVisible()).resolves.toBe(true);
  });

  it('asks for a name and an address before saving', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.form.save();
    await expect(connect.form.root.locator('.field-error').allTextContents()).resolves.toEqual([
      'Give the connection a name.',
      'Give the address of the relay, such as https://relay.example.com',
    ]);
    await expect(connect.form.name.getAttribute('aria-invalid')).resolves.toBe('true');
  });
});
