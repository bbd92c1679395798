/**
 * Settings → Quick ask, Tray and start-up, Network and Updates in Chromium, through the contract
 * against stand-ins for what only Electron has: a scripted updater (electron-updater's events),
 * a recording desktop (globalShortcut, Tray, login items) and a recording proxy stack
 * (session.setProxy and resolveProxy).
 */
import { describe, expect, it } from 'vitest';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { RecordingDesktop, RecordingProxyStack } from '../fakes/recording-desktop';
import { said } from '../../electron/main/services/words';
import { ScriptedUpdater } from '../fakes/scripted-updater';
import type { OpenAppOptions } from './harness/harness';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { cutOff } from './pages/layout';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ relay: false });

async function openSettings(
  platform: NonNullable<OpenAppOptions['platform']>,
  dialogs?: OpenAppOptions['dialogs'],
) {
  const app = await suite.openApp({ platform, ...(dialogs ? { dialogs } : {}) });
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await new ConnectPage(app.page).waitUntilConnected();
  await new ShellPage(app.page).open('Settings');
  return app.page;
}

const release = {
  version: '0.2.0',
  releaseNotes:
    '<h3>Relay Desktop 0.2.0</h3><ul><li>Quick ask from anywhere</li><li>A tray icon</li></ul>',
};

describe('updates', () => {
  it('checks, downloads with progress, shows the notes and restarts to update', async () => {
    const updater = new ScriptedUpdater();
    const page = await openSettings({ updater });
    const updates = page.getByRole('region', { name: 'Updates' });
    await updates.getByText('Not checked yet.').waitFor();

    updater.next.push([{ type: 'available', release }]);
    await updates.getByRole('button', { name: 'Check now' }).click();
    await updates.getByText('Downloading version 0.2.0').waitFor();
    updater.emit({
      type: 'progress',
      progress: { percent: 45.2, transferred: 47_400_000, total: 104_857_600, bytesPerSecond: 2e6 },
    });
    await updates.getByText('45% (47.4 MB of 104.9 MB)').waitFor();
    await expect(updates.getByRole('progressbar').getAttribute('value')).resolves.toBe('45.2');

    updater.emit({ type: 'downloaded', release });
    await updates.getByText('Version 0.2.0 is downloaded and verified.').waitFor();
    await updates.getByText('Quick ask from anywhere').waitFor();
    // The sidebar says so on every screen.
    const banner = page.getByRole('navigation', { name: 'Screens' }).getByRole('status');
    await banner.getByText('Version 0.2.0 is ready').waitFor();
    await suite.app.screenshot('updates-ready');

    await updates.getByRole('button', { name: 'Restart to update' }).click();
    await expect.poll(() => updater.installs).toBe(1);

    // The channel: saved, and the updater reads the beta files from then on.
    await page.getByRole('radio', { name: /Betas too/ }).check();
    await expect
      .poll(async () => (await suite.app.services.settings.get()).updates.channel)
      .toBe('beta');
    await expect.poll(() => updater.channel).toBe('beta');
  });

  it('in a 900×650 window, the ready update is one icon in the rail, nothing cut off', async () => {
    const updater = new ScriptedUpdater();
    const page = await openSettings({ updater });
    await page.setViewportSize({ width: 900, height: 650 });
    updater.next.push([{ type: 'available', release }]);
    const updates = page.getByRole('region', { name: 'Updates' });
    await updates.getByRole('button', { name: 'Check now' }).click();
    updater.emit({ type: 'downloaded', release });
    const banner = page.getByRole('navigation', { name: 'Screens' }).getByRole('status');
    await banner.waitFor();
    await suite.app.screenshot('updates-ready-900');
    expect(await cutOff(page, 'nav.sidebar')).toEqual([]);
    // It says what it is, and leads to Settings → Updates, where the restart is.
    await new ShellPage(page).open('Models');
    await banner
      .getByRole('button', { name: 'Update 0.2.0 ready: restart or see what’s new' })
      .click();
    await updates.getByRole('button', { name: 'Restart to update' }).waitFor();
  });

  it('says when the server cannot be reached, and when a download fails its checksum', async () => {
    const updater = new ScriptedUpdater();
    const page = await openSettings({ updater });
    const updates = page.getByRole('region', { name: 'Updates' });

    updater.rejectNext = new Error('net::ERR_INTERNET_DISCONNECTED');
    await updates.getByRole('button', { name: 'Check now' }).click();
    await updates
      .getByRole('alert')
      .getByText('The update server could not be reached.', { exact: false })
      .waitFor();

    updater.next.push([{ type: 'available', release }]);
    await updates.getByRole('button', { name: 'Check now' }).click();
    await updates.getByText('Downloading version 0.2.0').waitFor();
    updater.emit({
      type: 'error',
      error: Object.assign(new Error('sha512 checksum mismatch, expected a, got b'), {
        code: 'ERR_CHECKSUM_MISMATCH',
      }),
    });
    const alert = updates.getByRole('alert');
    await alert.getByText('Version 0.2.0 was not installed').waitFor();
    await expect(alert.textContent()).resolves.toMatch(/did not match the checksum \(SHA-512\)/);
    expect(await page.getByText('Restart to update').count()).toBe(0);
  });
});

describe('network', () => {
  it('checks a proxy in main, applies it, and tests where an address goes', async () => {
    const stack = new RecordingProxyStack();
    // A proxy of the person's own is used once they say yes in main's dialog.
    const dialogs = new ScriptedDialogs();
    dialogs.confirmAnswers.push(true);
    const page = await openSettings(
      { proxyStack: stack, updatesUnsupported: said('updates.unsupported.development') },
      dialogs,
    );
    // A build without an updater says why, and offers no check.
    const updates = page.getByRole('region', { name: 'Updates' });
    await updates.getByText('This is a development build').waitFor();
    expect(await updates.getByRole('button', { name: 'Check now' }).count()).toBe(0);

    const network = page.getByRole('region', { name: 'Network' });
    // The system's proxy at start.
    expect(stack.applied).toEqual([{ mode: 'system' }]);

    await network.getByRole('radio', { name: /Use this proxy/ }).check();
    await network.getByLabel('Host').fill('proxy.example.com:3128');
    await network.getByLabel('Port').fill('3128');
    await network.getByLabel('Reach directly (bypass list)').fill('<local>\n.corp.example.com');
    await network.getByRole('button', { name: 'Save proxy' }).click();
    await network.getByText('Put the port in the Port field, not after the host.').waitFor();
    expect(stack.applied).toHaveLength(1);

    await network.getByLabel('Host').fill('proxy.example.com');
    await network
      .getByLabel('Reach directly (bypass list)')
      .fill('<local>\nftp://files.example.com');
    await network.getByRole('button', { name: 'Save proxy' }).click();
    await network
      .getByText('a bypass entry may name http, https, ws or wss', { exact: false })
      .waitFor();

    await network.getByLabel('Reach directly (bypass list)').fill('<local>\n.corp.example.com');
    // A proxy that asks who is there: its user name in the setting, its password in the keychain.
    await expect(network.getByText('No password kept.').count()).resolves.toBe(1);
    await network.getByLabel('User name (if the proxy asks)').fill('ada');
    await network.getByLabel('Password', { exact: true }).fill('correct horse');
    await network.getByRole('button', { name: 'Save proxy' }).click();
    await network.getByText('Saved and in use').waitFor();
    await network
      .getByText('A password is kept in the system keychain', { exact: false })
      .waitFor();
    await expect(network.getByLabel('Password', { exact: true }).inputValue()).resolves.toBe('');
    expect(JSON.stringify(await suite.app.services.settings.get())).not.toContain('correct horse');
    // The page sent it once; nothing main sent the page (answers, events) holds it.
    const toPage = suite.app.messages.map((m) =>
      m.direction === 'invoke' ? m.result : m.direction === 'event' ? m.payload : null,
    );
    expect(JSON.stringify(toPage)).not.toContain('correct horse');
    expect(dialogs.confirmRequests.map((q) => q.message)).toEqual([
      'Send the app’s requests through the proxy http://proxy.example.com:3128?',
    ]);
    expect(stack.applied.at(-1)).toEqual({
      mode: 'fixed_servers',
      proxyRules: 'http://proxy.example.com:3128',
      proxyBypassRules: '<local>,.corp.example.com,localhost,127.0.0.1,[::1]',
    });
    expect((await suite.app.services.settings.get()).proxy).toMatchObject({
      mode: 'manual',
      port: 3128,
      username: 'ada',
    });

    // The test starts with the connection in use: the demo relay, on this computer.
    const test = network.getByRole('button', { name: 'Test', exact: true });
    await test.click();
    await network.getByText('is reached directly, without a proxy.', { exact: false }).waitFor();
    await network.getByLabel('Test an address').fill('https://relay.example.com/v1');
    await test.click();
    await network
      .getByText(
        'https://relay.example.com/v1 goes through an HTTP proxy at proxy.example.com:3128.',
      )
      .waitFor();
    await suite.app.screenshot('network-proxy');

    await network.getByRole('radio', { name: /No proxy/ }).check();
    await network.getByRole('button', { name: 'Save proxy' }).click();
    await expect.poll(() => stack.applied.at(-1)).toEqual({ mode: 'direct' });
  });
});

describe('quick ask and the desktop', () => {
  it('says why the saved shortcut does not work, in the language chosen', async () => {
    const desktop = new RecordingDesktop();
    desktop.taken.add('CommandOrControl+Alt+Space');
    const page = await openSettings({ desktopIntegration: desktop });
    const quick = page.getByRole('region', { name: 'Quick ask' });
    await quick
      .getByRole('status')
      .getByText('The system refused Ctrl+Alt+Space', { exact: false })
      .waitFor();
    await suite.app.services.settings.update({ language: 'de' });
    await page.reload();
    // Settings is the navigation's last screen, whatever its name.
    await page.locator('nav.sidebar .nav-item').nth(9).click();
    await page
      .getByRole('status')
      .getByText('Das System hat Ctrl+Alt+Space abgelehnt', { exact: false })
      .waitFor();
    await expect(
      page.getByText('The system refused Ctrl+Alt+Space', { exact: false }).count(),
    ).resolves.toBe(0);
  });

  it('records a new shortcut, says when the system refuses one, keeps the one that works, and opens at login', async () => {
    const desktop = new RecordingDesktop();
    desktop.taken.add('Control+Alt+K');
    const page = await openSettings({ desktopIntegration: desktop });
    const quick = page.getByRole('region', { name: 'Quick ask' });
    await quick.getByText('Ctrl+Alt+Space opens quick ask', { exact: false }).waitFor();

    await quick.getByRole('button', { name: 'Change…' }).click();
    await page.keyboard.press('Control+Alt+KeyK');
    await quick
      .getByRole('alert')
      .getByText('The system refused Ctrl+Alt+K', { exact: false })
      .waitFor();
    expect((await suite.app.services.settings.get()).quickAsk.shortcut).toBe(
      'CommandOrControl+Alt+Space',
    );

    await quick.getByRole('button', { name: 'Change…' }).click();
    await page.keyboard.press('Control+Shift+KeyJ');
    await quick.getByText('Ctrl+Shift+J opens quick ask', { exact: false }).waitFor();
    expect((await suite.app.services.settings.get()).quickAsk.shortcut).toBe('Control+Shift+J');
    expect(desktop.calls.at(-1)).toBe('shortcut:Control+Shift+J');

    await quick.getByRole('button', { name: 'Use the default' }).click();
    await quick.getByText('Ctrl+Alt+Space opens quick ask', { exact: false }).waitFor();

    // Opening at login: on, saying where it is kept; a refusal keeps it as it was.
    const section = page.getByRole('region', { name: 'Tray and start-up' });
    await section.getByRole('checkbox', { name: 'Open at login' }).check();
    await section
      .getByText('Kept in ~/.config/autostart/relay-desktop.desktop.', { exact: false })
      .waitFor();
    expect(desktop.calls).toContain('login:true');

    desktop.loginFails = true;
    // A click rather than uncheck(): the box goes back when main refuses, which is the point.
    await section.getByRole('checkbox', { name: 'Open at login' }).click();
    await section
      .getByText('Opening at login could not be turned off: EACCES: permission denied')
      .waitFor();
    await expect(
      section.getByRole('checkbox', { name: 'Open at login' }).isChecked(),
    ).resolves.toBe(true);
  });
});
