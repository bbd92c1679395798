/**
 * The installed app's boundary: a failure main sends reaches the page whole. The harness runs the
 * built preload as Electron runs it, behind Electron's contextBridge copy rules (an Error crossing
 * arrives with its message alone, every other field lost), so each remedy here, which the page
 * can only offer from a field of main's error, shows only if that field crossed:
 *
 * - 401: `kind` opens the field for the right key, in place;
 * - 402: `kind` links to the relay's console;
 * - 429: `kind` and `status` name a busy relay, after the waits main asked for (`retryAfterMs`);
 * - an invalid request: `param` marks the field main refused;
 * - several files refused at once: `parts`, each with its `messageId` and `values`, say each
 *   file in the person's language.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingProxyStack } from '../fakes/recording-desktop';
import { dropFilesFromDisk } from './harness/harness';
import { newKey } from './harness/relay';
import { e2eSuite } from './harness/suite';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ keys: 2, scratch: true });
const [goodKey, drainedKey] = suite.keys as [string, string];
const CONSOLE = 'https://console.relay.example/billing';

/** The failure on the models screen of an app connected with `apiKey`. */
async function modelsFailure(apiKey: string, fields: { consoleUrl?: string } = {}) {
  const app = await suite.openApp();
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.connect({ name: 'Edge relay', baseUrl: suite.relay.url, apiKey, ...fields });
  const models = new ModelsPage(app.page);
  await models.open();
  return { app, models };
}

/** Main's answer to the page's last call on `channel`, as it left the router. */
function lastAnswer(channel: string): unknown {
  const call = suite.app.messages.findLast(
    (message) => message.direction === 'invoke' && message.channel === channel,
  );
  return call?.direction === 'invoke' ? call.result : undefined;
}

describe('failures main sends reach the page whole', () => {
  it('401: the page knows the key was refused and opens the field for the right one', async () => {
    const { app, models } = await modelsFailure(newKey());
    await models.failure.waitFor();
    await expect(models.failure.getAttribute('data-kind')).resolves.toBe('unauthorized');
    await app.page.getByLabel('API key for Edge relay').waitFor();
    expect(lastAnswer('models:list')).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized', status: 401 },
    });
  });

  it('402: the page knows the balance is used up and links to the console', async () => {
    suite.relay.setBalance(drainedKey, 0);
    const { models } = await modelsFailure(drainedKey, { consoleUrl: CONSOLE });
    await models.failure.waitFor();
    await expect(models.failure.getAttribute('data-kind')).resolves.toBe('insufficient_balance');
    const link = models.failure.getByRole('link', { name: 'Top up in the console' });
    await expect(link.getAttribute('href')).resolves.toBe(CONSOLE);
  });

  it('429: the page names a busy relay with its status, after the waits main asked for', async () => {
    const { models } = await modelsFailure(goodKey);
    await models.waitForModels();
    suite.relay.setFaults({ status: 429 });
    await models.refresh.click();
    await models.failure.waitFor({ timeout: 15_000 });
    await expect(models.failure.getAttribute('data-kind')).resolves.toBe('rate_limited');
    await expect(models.failure.locator('.notice-title').textContent()).resolves.toMatch(
      /\(HTTP 429\)/,
    );
    expect(lastAnswer('models:list')).toMatchObject({
      ok: false,
      error: { kind: 'rate_limited', status: 429, retryAfterMs: 1000 },
    });
  });

  it('an invalid request: the page marks the very field main refused', async () => {
    const stack = new RecordingProxyStack();
    const app = await suite.openApp({ platform: { proxyStack: stack } });
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    await connect.waitUntilConnected();
    await new ShellPage(app.page).open('Settings');
    const network = app.page.getByRole('region', { name: 'Network' });
    await network.getByRole('radio', { name: /Use this proxy/ }).check();
    await network.getByLabel('Host').fill('proxy.example.com:3128');
    await network.getByLabel('Port').fill('3128');
    await network.getByRole('button', { name: 'Save proxy' }).click();
    const host = network.getByLabel('Host');
    await expect.poll(() => host.getAttribute('aria-invalid')).toBe('true');
    await expect(
      network.locator('.field-error').filter({ hasText: 'Put the port in the Port field' }).count(),
    ).resolves.toBe(1);
    await expect(network.getByLabel('Port').getAttribute('aria-invalid')).resolves.toBeNull();
    expect(lastAnswer('network:set-proxy')).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request', param: 'proxy.host' },
    });
  });

  it('several files refused at once: each is named, in the person’s language', async () => {
    const dir = await mkdtemp(join(suite.scratch, 'refused-'));
    const paths = [join(dir, 'tides.md'), join(dir, 'ferries.txt')];
    await writeFile(paths[0]!, '# Tides\nHigh water at six.');
    await writeFile(paths[1]!, 'Ferries leave every hour.');
    const chat = await suite.connected(ChatPage);
    const page = chat.page;
    // German, chosen in Settings; then back to the chat (the composer's first screen).
    await new ShellPage(page).open('Settings');
    await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'Deutsch' });
    await page.locator('html[lang="de"]').waitFor();
    await page
      .getByRole('navigation', { name: 'Bereiche' })
      .getByRole('button', { name: 'Chat', exact: true })
      .click();
    const box = page.getByLabel('Nachricht', { exact: true });
    await box.waitFor();

    // Dropped from the file manager: the preload hands main their paths for grants, and the
    // page names only the grants.
    await dropFilesFromDisk(
      page,
      '.chat-composer',
      paths.map((path) => ({ path, type: 'text/plain' })),
    );
    const chips = page.locator('.chat-attachment-chips .chat-attachment-chip');
    await expect.poll(() => chips.count(), { timeout: 10_000 }).toBe(2);
    const granted = suite.app.messages.find(
      (message) => message.direction === 'invoke' && message.channel === 'files:grant-dropped',
    );
    expect(granted?.payload).toEqual({ purpose: 'attach', paths });
    const dropped = suite.app.messages.find(
      (message) => message.direction === 'invoke' && message.channel === 'chat:attach-dropped',
    );
    expect(dropped?.payload).toEqual({ grants: [expect.any(String), expect.any(String)] });
    expect(JSON.stringify(dropped?.payload)).not.toContain(dir);

    // Both go before the message is sent, which is then refused naming each.
    await Promise.all(paths.map((path) => rm(path)));
    await box.fill('Lies das');
    await box.press('Enter');
    for (const name of ['tides.md', 'ferries.txt']) {
      await page
        .getByText(
          `${name} wurde nicht gesendet: Sie ist nicht mehr vorhanden (seit der Auswahl verschoben oder gelöscht).`,
          { exact: false },
        )
        .waitFor({ timeout: 8000 });
    }
    expect(lastAnswer('chat:send')).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid_request',
        parts: [
          { messageId: 'documents.notSent', values: { name: 'tides.md' } },
          { messageId: 'documents.notSent', values: { name: 'ferries.txt' } },
        ],
      },
    });
  }, 60_000);
});
