/**
 * Backups end to end: choose the folder and see the status turn green, the sidebar follow it and
 * a warning when the folder goes; restore with a preview, the page reloading into the restored
 * data; a bad file refused with its reason; and a new computer restoring from the first-run screen
 * and giving its keys.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { openChatApp } from '../fakes/chat-app';
import type { AppUnderTest } from './harness/harness';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { BackupsPage } from './pages/backups-page';
import { ChatPage } from './pages/chat-page';
import { ConnectPage } from './pages/connect-page';
import { ShellPage } from './pages/shell-page';
import { callFromPage } from './harness/page-calls';

// The app's own demo relay (Try the demo) is all these specs need.
const suite = e2eSuite({ relay: false, scratch: true });

/** A new folder in the suite's scratch folder. */
function temp(prefix: string): Promise<string> {
  return mkdtemp(join(suite.scratch, prefix));
}

/** The app with the demo relay connected, on Settings. */
async function openSettings(dialogs: ScriptedDialogs): Promise<BackupsPage> {
  const app = await suite.openApp({ dialogs, backupSeams: { computerName: 'e2e-laptop' } });
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await new ConnectPage(app.page).waitUntilConnected();
  await new ShellPage(app.page).open('Settings');
  return new BackupsPage(app.page);
}

/** No serious or critical accessibility violation in the part of the page `include` selects. */
async function expectAccessible(state: string, include: string): Promise<void> {
  const failing = blocking(await scanPage(suite.app.page, include));
  expect(
    failing.map((v) => v.id),
    describeViolations(state, failing),
  ).toEqual([]);
}

async function conversationTitles(page: AppUnderTest['page']): Promise<string[]> {
  return (await callFromPage(page, 'listConversations')).map((c) => c.title).sort();
}

describe('backups', () => {
  it('are configured in Settings, show their status, and restore with a preview', async () => {
    const folder = await temp('relay-e2e-backups-');
    const dialogs = new ScriptedDialogs();
    const backups = await openSettings(dialogs);
    await expect.poll(() => backups.headline.textContent()).toBe('Backups are off');
    await expect.poll(() => backups.sidebarLine.textContent()).toBe('Backups off');

    // Two conversations, then a folder: the first backup is taken and verified at once.
    await callFromPage(suite.app.page, 'createConversation', { title: 'Tide pools' });
    await callFromPage(suite.app.page, 'createConversation', { title: 'Invoice reminder' });
    dialogs.folders.push(folder);
    await backups.chooseFolder.click();
    await expect.poll(() => backups.headline.textContent()).toBe('Last verified backup: just now');
    await expect.poll(() => backups.sidebarLine.textContent()).toBe('Backed up just now');
    await expect.poll(() => backups.rows().count()).toBe(1);
    const row = backups.rows().first();
    await expect
      .poll(() => row.textContent())
      .toMatch(/Verified.*2 conversations · 0 messages · 0 embeddings runs · 0 images/);
    await expectAccessible('the backups section with a backup', '#backups');
    await expect(backups.schedule.inputValue()).resolves.toBe('daily');
    await backups.schedule.selectOption('hourly');
    await expect
      .poll(() => suite.app.services.backups.status().then((s) => s.schedule))
      .toBe('hourly');

    // The person carries on: a conversation goes, the theme turns dark.
    const gone = (await callFromPage(suite.app.page, 'listConversations')).find(
      (c) => c.title === 'Tide pools',
    );
    if (gone) await callFromPage(suite.app.page, 'deleteConversation', { id: gone.id });
    await suite.app.page.getByRole('radio', { name: /^Dark\b/ }).check();
    expect(await conversationTitles(suite.app.page)).toEqual(['Invoice reminder']);
    const chat = new ChatPage(suite.app.page);
    await chat.open();
    await expect.poll(() => chat.sidebar.textContent()).not.toMatch(/Tide pools/);
    await new ShellPage(suite.app.page).open('Settings');
    // A mark in this page: gone once the page has reloaded.
    await suite.app.page.evaluate('window.__beforeRestore = true');

    // Restore: the preview first, checked through by main.
    const dialog = await backups.askToRestore(0);
    await expect.poll(() => dialog.textContent()).toMatch(/Checksum matches/);
    const text = (await dialog.textContent()) ?? '';
    expect(text).toMatch(/Holds2 conversations · 0 messages · 0 embeddings runs · 0 images/);
    expect(text).toMatch(/on e2e-laptop \(this computer\)/);
    expect(text).toMatch(/Demo relay/);
    expect(text).toMatch(/Your current data is backed up first/);
    await expectAccessible('the restore preview', '.restore-dialog');
    await dialog.getByRole('button', { name: 'Restore this backup' }).click();

    // Main reopens its services and reloads the page into the restored data.
    await backups.restoredDialog.waitFor();
    await expect.poll(() => backups.restoredDialog.textContent()).toMatch(/before-restore\.db/);
    await backups.restoredDialog.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(() => conversationTitles(suite.app.page))
      .toEqual(['Invoice reminder', 'Tide pools']);
    await expect
      .poll(() => suite.app.page.evaluate('document.documentElement.dataset.theme'))
      .toBe('system');
    await new ShellPage(suite.app.page).open('Settings');
    await expect.poll(() => backups.rows().count()).toBe(2);
    await expect.poll(() => backups.rows().first().textContent()).toMatch(/Before a restore/);

    // The folder goes (a drive unplugged): the status says so, and so does the sidebar.
    await rm(folder, { recursive: true });
    await new ShellPage(suite.app.page).open('Models');
    await new ShellPage(suite.app.page).open('Settings');
    await expect
      .poll(() => backups.warning.textContent())
      .toMatch(/The backup folder is missing.*is not there: is its drive plugged in/);
    await expect.poll(() => backups.sidebarLine.textContent()).toBe('Backup needs attention');
  });

  it('refuse a file that is not a Relay Desktop backup, saying why, and change nothing', async () => {
    const folder = await temp('relay-e2e-foreign-');
    const foreign = join(folder, 'notes.db');
    const db = new Database(foreign);
    db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')");
    db.close();
    const dialogs = new ScriptedDialogs();
    dialogs.openPaths.push([foreign]);
    const backups = await openSettings(dialogs);
    await backups.restoreFromFile.click();
    await backups.restoreDialog.waitFor();
    await expect
      .poll(() => backups.restoreDialog.textContent())
      .toMatch(/This backup cannot be restorednotes\.db is a SQLite database of another program/);
    await expect(
      backups.restoreDialog.getByRole('button', { name: 'Restore this backup' }).isDisabled(),
    ).resolves.toBe(true);
    await backups.restoreDialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('restore on a new computer from the first-run screen, then ask for each key', async () => {
    // The old computer: a connection with a key, backed up into the synced folder.
    const folder = await temp('relay-e2e-synced-');
    const old = await openChatApp(await temp('relay-e2e-old-'));
    await old.api.createConnection({
      name: 'Work relay',
      baseUrl: 'https://relay.example.com',
      apiKey: 'sk-work-relay-0123456789abcdef',
    });
    old.dialogs.folders.push(folder);
    await old.api.chooseBackupFolder();
    await old.services.backups.settled();
    const [made] = (await old.api.listBackups()).backups;
    await old.services.close();

    const dialogs = new ScriptedDialogs();
    dialogs.openPaths.push([join(folder, made?.name ?? '')]);
    const app = await suite.openApp({ dialogs });
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    const backups = new BackupsPage(app.page);
    await backups.restoreFromFile.click();
    await expect
      .poll(() => backups.restoreDialog.textContent())
      .toMatch(/Work relay.*asks for the key after the restore/);
    await backups.restoreDialog.getByRole('button', { name: 'Restore this backup' }).click();

    await backups.restoredDialog.waitFor();
    await expectAccessible('the restored dialog asking for a key', '.restored-dialog');
    const key = backups.restoredDialog.getByLabel(
      'API key for Work relay (https://relay.example.com)',
    );
    await key.fill('sk-new-computer-key-9876543210');
    await backups.restoredDialog.getByRole('button', { name: 'Save key' }).click();
    await expect.poll(() => backups.restoredDialog.textContent()).not.toMatch(/needs its API key/);
    // Backups here go on into the folder the backup came from, when the person says so.
    await backups.restoredDialog.getByRole('button', { name: 'Back up into that folder' }).click();
    await backups.restoredDialog.getByRole('button', { name: 'Done' }).click();
    const connection = (await app.services.connections.list())[0];
    expect(connection).toMatchObject({ name: 'Work relay', hasKey: true });
    await expect.poll(() => suite.app.services.backups.status().then((s) => s.folder)).toBe(folder);
  });
});
