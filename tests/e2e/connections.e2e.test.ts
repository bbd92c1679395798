import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { ConnectionsPage } from './pages/connections-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite();
const key = suite.key;

describe('saved connections', () => {
  it('adds a second connection, switches, edits and deletes with a confirmation', async () => {
    const app = await suite.openApp();
    const { page } = app;
    const connect = new ConnectPage(page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'Work relay', baseUrl: suite.relay.url, apiKey: key });
    const models = new ModelsPage(page);
    await models.open();
    await models.waitForModels();

    const shell = new ShellPage(page);
    await shell.open('Connections');
    const connections = new ConnectionsPage(page);
    const add = await connections.add();
    await add.fill({
      name: 'Home relay',
      baseUrl: `${suite.relay.url}/v1`,
      apiKey: key,
      consoleUrl: 'https://console.home.example',
    });
    await add.save();
    const home = connections.card('Home relay');
    const work = connections.card('Work relay');
    await home.root.waitFor();
    await expect(work.badge('In use').isVisible()).resolves.toBe(true);
    await expect(home.badge('In use').count()).resolves.toBe(0);
    await expect(home.root.getByRole('link').getAttribute('href')).resolves.toBe(
      'https://console.home.example',
    );
    await app.screenshot('connections-two');

    await home.use();
    await expect.poll(() => home.badge('In use').count()).toBe(1);
    await expect(work.badge('In use').count()).resolves.toBe(0);
    await expect(shell.activeConnection.textContent()).resolves.toContain('Home relay');
    await shell.open('Models');
    await expect(page.locator('.page-lead').textContent()).resolves.toContain('Home relay');
    await models.waitForModels();

    // Edit: rename and drop the console address; the key is kept.
    await shell.open('Connections');
    const form = await home.edit();
    await expect(form.name.inputValue()).resolves.toBe('Home relay');
    await form.fill({ name: 'Cabin relay', consoleUrl: '' });
    await form.save();
    const cabin = connections.card('Cabin relay');
    await cabin.root.waitFor();
    await expect(cabin.root.getByRole('link').count()).resolves.toBe(0);
    await expect(cabin.keyStatus.textContent()).resolves.toBe(`Key saved (…${key.slice(-4)})`);

    // Delete asks first; Cancel and Escape keep the connection.
    let dialog = await cabin.askToDelete();
    await expect(dialog.textContent()).resolves.toContain('deleted from the keychain');
    await app.screenshot('connections-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.isVisible()).resolves.toBe(false);
    dialog = await cabin.askToDelete();
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(false);
    await expect(cabin.root.isVisible()).resolves.toBe(true);

    dialog = await cabin.askToDelete();
    await dialog.getByRole('button', { name: 'Delete connection' }).click();
    await expect.poll(() => cabin.root.count()).toBe(0);
    // The other connection is in use again.
    await expect.poll(() => work.badge('In use').count()).toBe(1);

    // Deleting the last one goes back to the first-run screen.
    dialog = await work.askToDelete();
    await dialog.getByRole('button', { name: 'Delete connection' }).click();
    await connect.waitUntilShown();
  });

  it('starts the demo relay from the Connections screen too, beside a saved connection', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'Work relay', baseUrl: suite.relay.url, apiKey: key });
    await connect.waitUntilConnected();
    const shell = new ShellPage(app.page);
    await shell.open('Connections');
    await app.page.getByRole('button', { name: 'Try the demo relay' }).click();
    const connections = new ConnectionsPage(app.page);
    const demo = connections.card('Demo relay');
    await demo.root.waitFor();
    await expect(demo.badge('In use').isVisible()).resolves.toBe(true);
    await expect(demo.badge('Demo').isVisible()).resolves.toBe(true);
    // Offered only while there is no demo connection.
    await expect(
      app.page.getByRole('button', { name: 'Try the demo relay' }).count(),
    ).resolves.toBe(0);
    await shell.open('Models');
    await expect(new ModelsPage(app.page).demoNotice.isVisible()).resolves.toBe(true);
  });

  it('says plainly when keys are not kept in a secure store', async () => {
    const secrets = new MemorySecretStore();
    const app = await suite.openApp({ secretStore: secrets });
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await expect(connect.keyStorageWarning.textContent()).resolves.toContain(secrets.status.reason);
    await expect(connect.page.locator('.welcome-lead').textContent()).resolves.toContain(
      'kept in memory until you quit',
    );
    await app.screenshot('first-run-insecure-store');
    await connect.tryDemo.click();
    await connect.waitUntilConnected();
    await new ShellPage(app.page).open('Connections');
    await expect(new ConnectionsPage(app.page).keyStorageWarning.textContent()).resolves.toContain(
      secrets.status.reason,
    );
  });

  it('sends a key over plain http only by a choice main confirms, and marks such a connection', async () => {
    const dialogs = new ScriptedDialogs();
    const app = await suite.openApp({ dialogs });
    const { page } = app;
    const connect = new ConnectPage(page);
    await connect.waitUntilShown();
    await connect.form.fill({ name: 'Lab', baseUrl: suite.relay.url, apiKey: key });
    await connect.form.save();
    await connect.waitUntilConnected();
    const shell = new ShellPage(page);
    await shell.open('Connections');
    const connections = new ConnectionsPage(page);
    const add = await connections.add();
    await add.fill({ name: 'Plain', baseUrl: 'http://relay.example.com', apiKey: key });
    const choice = add.root.getByRole('checkbox', { name: /Send my key unencrypted/ });
    // Saving without the choice is refused by main, with the reason, and nothing is lost.
    await add.save();
    await add.saveError.waitFor();
    await expect(add.saveError.textContent()).resolves.toMatch(/not encrypted \(http\)/);
    await expect(add.name.inputValue()).resolves.toBe('Plain');
    // With the choice, main asks in a dialog of its own (a page script cannot agree instead).
    dialogs.confirmAnswers.push(true);
    await choice.check();
    await add.save();
    const plain = connections.card('Plain');
    await plain.root.waitFor();
    await expect(plain.badge('Unencrypted').isVisible()).resolves.toBe(true);
    expect(dialogs.confirmRequests.map((r) => r.message)).toEqual([
      'Send your API key to http://relay.example.com without encryption?',
    ]);
    await expect(connections.card('Lab').badge('Unencrypted').count()).resolves.toBe(0);

    // Moving a connection to another origin says, before saving, that its key will go.
    const form = await connections.card('Lab').edit();
    await form.fill({ baseUrl: 'https://elsewhere.example.com' });
    await expect(form.root.getByRole('status').textContent()).resolves.toMatch(
      /saving with https:\/\/elsewhere\.example\.com removes it/,
    );
    await form.save();
    await expect.poll(() => connections.card('Lab').keyStatus.textContent()).toMatch(/No key/i);
  });

  it('shows a saving error from main in place and keeps what was typed', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'Odd', baseUrl: 'ftp://relay.example.com' });
    const alert = connect.form.root.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(/only http and https/);
    await expect(connect.form.name.inputValue()).resolves.toBe('Odd');
  });
});
