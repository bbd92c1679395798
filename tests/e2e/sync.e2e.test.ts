/**
 * Settings → Sync end to end, in Chromium over the real router: a wrong recovery phrase said
 * plainly with nothing written; a new sync through a folder chosen in main's dialog, its phrase
 * shown once, Sync now, the history and the rail's status; in both themes, by keyboard, and
 * free of serious accessibility violations.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newRecoveryPhrase } from '../../electron/main/services/sync/sync-crypto';
import { openStorage } from '../../electron/main/services/sync/sync-setup';
import { FolderTarget } from '../../electron/main/services/sync/targets/folder-target';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { callFromPage } from './harness/page-calls';
import { e2eSuite } from './harness/suite';
import { blocking, describeViolations, scanPage } from './pages/axe';
import { ConnectPage } from './pages/connect-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ relay: false, scratch: true });
const CHEAP = { N: 2 ** 12, r: 8, p: 1 };

async function openSettings(dialogs: ScriptedDialogs, colorScheme: 'light' | 'dark' = 'light') {
  const app = await suite.openApp({
    dialogs,
    colorScheme,
    syncSeams: { scryptCost: CHEAP, deviceLabel: 'e2e-laptop' },
  });
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await new ConnectPage(app.page).waitUntilConnected();
  await new ShellPage(app.page).open('Settings');
  const section = app.page.getByRole('region', { name: 'Sync', exact: true });
  await section.waitFor();
  return { page: app.page, section };
}

async function expectAccessible(state: string): Promise<void> {
  const failing = blocking(await scanPage(suite.app.page, '#sync'));
  expect(
    failing.map((v) => v.id),
    describeViolations(state, failing),
  ).toEqual([]);
}

describe('sync', () => {
  it('says a wrong recovery phrase plainly and writes nothing', async () => {
    // Another computer's synced data, under a phrase this one does not have.
    const folder = await mkdtemp(join(suite.scratch, 'relay-e2e-sync-'));
    await openStorage(new FolderTarget(folder), newRecoveryPhrase(), CHEAP);
    const before = await readdir(folder, { recursive: true });

    const dialogs = new ScriptedDialogs();
    const { page, section } = await openSettings(dialogs);
    dialogs.folders.push(folder);
    await section.getByRole('button', { name: 'Choose folder…' }).click();
    await expect.poll(() => section.locator('.sync-folder-path').textContent()).toBe(folder);

    // By keyboard: the phrase typed, then Tab to Join and Enter.
    const phrase = section.getByLabel('Recovery phrase');
    await phrase.focus();
    await page.keyboard.type(
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
    );
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Join');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => section.getByRole('alert').textContent())
      .toMatch(
        /Could not join.*That recovery phrase does not open the synced data.*nothing was written/,
      );
    expect(await readdir(folder, { recursive: true })).toEqual(before);
    expect((await callFromPage(page, 'getSyncStatus')).state).toBe('off');
    await expectAccessible('the sync set-up with a refused phrase');
  });

  it('sets up a new sync through a folder: the phrase once, Sync now, the history', async () => {
    const folder = await mkdtemp(join(suite.scratch, 'relay-e2e-sync-'));
    const dialogs = new ScriptedDialogs();
    const { page, section } = await openSettings(dialogs, 'dark');
    await callFromPage(page, 'createConversation', { title: 'Tide pools' });
    await expectAccessible('the sync set-up, dark');

    // Nothing chosen yet: set-up waits for a folder.
    const setUp = section.getByRole('button', { name: 'Set up new sync' });
    expect(await setUp.isDisabled()).toBe(true);
    dialogs.folders.push(folder);
    await section.getByRole('button', { name: 'Choose folder…' }).click();
    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect
      .poll(() => section.getByRole('status').first().textContent())
      .toMatch(/The storage works/);
    await setUp.click();

    // The phrase, this once.
    const shown = section.getByTestId('sync-phrase');
    await shown.waitFor();
    const words = await shown.getByRole('listitem').allTextContents();
    expect(words).toHaveLength(12);
    await expectAccessible('the recovery phrase, dark');
    await section.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => suite.app.clipboard.at(-1)).toBe(words.join(' '));
    await section.getByRole('button', { name: 'I have kept it' }).click();
    expect(await shown.count()).toBe(0);
    for (const name of await readdir(folder, { recursive: true }))
      expect(name).not.toContain(words[0]!);

    await section.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => section.getByTestId('sync-state').textContent()).toBe('Synced');
    await expect.poll(() => section.textContent()).toMatch(/Folder: /);
    const history = section.getByRole('list', { name: 'Recent syncs' });
    await expect.poll(() => history.getByRole('listitem').count()).toBeGreaterThan(0);
    await expect.poll(() => history.textContent()).toMatch(/sent \d+ changes?/);
    const rail = page.getByTestId('sync-badge');
    await expect.poll(() => rail.textContent()).toBe('Synced');
    await expectAccessible('sync running, dark');

    // Pause and resume; the rail follows.
    await section.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => rail.textContent()).toBe('Sync paused');
    await section.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => rail.textContent()).not.toBe('Sync paused');

    // Turned off: the set-up shows again, the rail's line goes, the storage stays.
    const inStorage = await readdir(folder, { recursive: true });
    // It asks first, saying what goes and what stays; Escape leaves sync on.
    const turnOff = section.getByRole('button', { name: 'Turn off sync' }).first();
    await turnOff.click();
    const dialog = page.getByRole('dialog', { name: 'Turn off sync on this computer?' });
    await dialog.waitFor();
    await expect.poll(() => dialog.textContent()).toMatch(/forgets the storage/);
    await expect.poll(() => dialog.textContent()).toMatch(/Nothing is deleted/);
    await expectAccessible('sync turn off asks, dark');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await rail.count()).toBe(1);
    // By keyboard: Enter on the button, Tab from Cancel to the dialog's own, Enter.
    await turnOff.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Turn off sync');
    await page.keyboard.press('Enter');
    await section.getByRole('button', { name: 'Set up new sync' }).waitFor();
    expect(await rail.count()).toBe(0);
    expect((await readdir(folder, { recursive: true })).sort()).toEqual(inStorage.sort());
  });
});
