/**
 * Two ways a relay's own needs reach the connection form, in Chromium through the real router:
 * a `relay-desktop://connect` link (prefilled as if typed, never a key), and extra request
 * headers for gateways (a secret value saved, sent, and never shown or sent back to the page).
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { pageText } from './harness/checks';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { ConnectionsPage } from './pages/connections-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite();
const SECRET = 'pk-live-5fd0c1b2a3e4f5a6b7c8';

/** As index.ts does when a link arrives: main reads it and tells the page. */
function openLink(link: string): void {
  suite.app.services.desktop.openLink(link);
}

describe('a relay-desktop://connect link', () => {
  it('opens the first-run form prefilled, without a key, and saves once the key is pasted', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    openLink(
      `relay-desktop://connect?name=Team%20relay&baseUrl=${encodeURIComponent(suite.relay.url)}&key=sk-live-not-taken-123456`,
    );
    await app.page.getByText('Opened from a link').waitFor();
    await app.page
      .getByText('The link held an API key, which was not used', { exact: false })
      .waitFor();
    await expect(connect.form.name.inputValue()).resolves.toBe('Team relay');
    await expect(connect.form.baseUrl.inputValue()).resolves.toBe(suite.relay.url);
    await expect(connect.form.apiKey.inputValue()).resolves.toBe('');
    expect(await pageText(app)).not.toContain('sk-live-not-taken');
    expect(JSON.stringify(app.messages)).not.toContain('sk-live-not-taken');

    await connect.form.apiKey.fill(suite.key);
    await connect.form.save();
    await new ConnectPage(app.page).waitUntilConnected();
    expect((await app.services.connections.list()).map((c) => c.name)).toEqual(['Team relay']);
  });

  it('says why a malformed link cannot be used, on the Connections screen', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    await new ConnectPage(app.page).waitUntilConnected();
    openLink('relay-desktop://connect?name=Broken&baseUrl=ftp%3A%2F%2Frelay.example.com');
    const alert = app.page.getByRole('alert').filter({ hasText: 'This link could not be used' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain(
      'only http and https addresses are supported',
    );
    await app.page.getByRole('heading', { level: 1, name: 'Connections' }).waitFor();
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    expect(await alert.count()).toBe(0);
    // Nothing was saved from it.
    expect((await app.services.connections.list()).map((c) => c.name)).toEqual(['Demo relay']);
  });
});

describe('extra headers', () => {
  it('saves a secret header, sends it, and never shows it or sends it back to the page', async () => {
    const sent: { url: string; headers: Record<string, string> }[] = [];
    const recording: FetchLike = (url, init) => {
      sent.push({ url, headers: { ...(init.headers as Record<string, string>) } });
      return fetch(url, init);
    };
    const app = await suite.openApp({ fetch: recording });
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    await new ConnectPage(app.page).waitUntilConnected();
    await new ShellPage(app.page).open('Connections');
    const form = await new ConnectionsPage(app.page).add();
    await form.fill({ name: 'Gateway', baseUrl: suite.relay.url, apiKey: suite.key });
    await form.root.getByRole('button', { name: 'Add header' }).click();
    await form.root.getByLabel('Header 1 name').fill('Authorization');
    await form.root.getByLabel('Header 1 value').fill('Bearer x');
    await form.save();
    await form.saveError
      .getByText('the API key is sent as Authorization', { exact: false })
      .waitFor();

    await form.root.getByLabel('Header 1 name').fill('X-Title');
    await form.root.getByLabel('Header 1 value').fill('Relay Desktop');
    await form.root.getByRole('button', { name: 'Add header' }).click();
    await form.root.getByLabel('Header 2 name').fill('x-portkey-api-key');
    await form.root.getByRole('checkbox', { name: 'Secret' }).nth(1).check();
    await form.root.getByLabel('Header 2 value').fill(SECRET);
    await expect(form.root.getByLabel('Header 2 value').getAttribute('type')).resolves.toBe(
      'password',
    );
    await app.screenshot('connection-headers');
    await form.save();
    const connections = new ConnectionsPage(app.page);
    await connections.card('Gateway').root.waitFor();

    // Editing shows that a value is saved, never the value.
    const edit = await connections.card('Gateway').edit();
    await expect(edit.root.getByLabel('Header 2 value').inputValue()).resolves.toBe('');
    await expect(edit.root.getByLabel('Header 2 value').getAttribute('placeholder')).resolves.toBe(
      'Saved: leave empty to keep it',
    );
    await expect(edit.root.getByLabel('Header 1 value').inputValue()).resolves.toBe(
      'Relay Desktop',
    );
    // "Test connection" sends the saved secret with the typed headers, to the same relay.
    sent.length = 0;
    await expect((await edit.test()).textContent()).resolves.toContain('The relay answered');
    expect(sent.map((request) => request.url)).toEqual([`${suite.relay.url}/v1/models`]);
    expect(sent[0]?.headers).toMatchObject({
      'X-Title': 'Relay Desktop',
      'x-portkey-api-key': SECRET,
    });
    await edit.save();
    await expect
      .poll(
        async () =>
          (await suite.app.services.connections.list()).find((c) => c.name === 'Gateway')?.headers,
      )
      .toEqual([
        { name: 'X-Title', secret: false, value: 'Relay Desktop', hasValue: true },
        { name: 'x-portkey-api-key', secret: true, hasValue: true },
      ]);

    // Nowhere in the page, and in nothing main sent it: answers and events alike.
    expect(await pageText(app)).not.toContain(SECRET);
    const fromMain = app.messages.map((m) =>
      JSON.stringify(m.direction === 'invoke' ? m.result : m.payload),
    );
    expect(fromMain.join('\n')).not.toContain(SECRET);
  });
});
