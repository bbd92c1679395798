import { describe, expect, it } from 'vitest';
import { MemorySecretStore, type SecretStore } from '../../electron/main/services/secret-store';
import type { AppUnderTest } from './harness/harness';
import type { PageWindow } from './harness/page-types';
import { e2eSuite } from './harness/suite';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { ConnectPage } from './pages/connect-page';
import { SettingsPage } from './pages/settings-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ relay: false });

async function openSettings(
  colorScheme: 'light' | 'dark' = 'light',
  secretStore?: SecretStore,
  dialogs?: ScriptedDialogs,
): Promise<SettingsPage> {
  const app = await suite.openApp({
    colorScheme,
    ...(secretStore ? { secretStore } : {}),
    ...(dialogs ? { dialogs } : {}),
  });
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.tryDemo.click();
  await new ConnectPage(app.page).waitUntilConnected();
  await new ShellPage(app.page).open('Settings');
  return new SettingsPage(app.page);
}

function pageColours(page: AppUnderTest['page']) {
  return page.evaluate(() => {
    const window = globalThis as unknown as PageWindow;
    const { documentElement } = window.document;
    const body = window.document.querySelectorAll('body')[0]!;
    return {
      theme: documentElement.getAttribute('data-theme'),
      background: window.getComputedStyle(body).backgroundColor,
      text: window.getComputedStyle(body).color,
    };
  });
}

describe('settings', () => {
  it('switches the theme at once, keeps it, and follows the system when asked', async () => {
    const settings = await openSettings('light');
    const light = await pageColours(suite.app.page);
    expect(light.theme).toBe('system');
    await expect(settings.theme('System').isChecked()).resolves.toBe(true);

    await settings.chooseTheme('Dark');
    await expect.poll(async () => (await pageColours(suite.app.page)).theme).toBe('dark');
    const dark = await pageColours(suite.app.page);
    expect(dark.background).not.toBe(light.background);
    expect(dark.text).not.toBe(light.text);
    await suite.app.screenshot('settings-dark');

    // Saved in main: a reload starts dark.
    await suite.app.page.reload();
    await expect
      .poll(async () => (await pageColours(suite.app.page)).background)
      .toBe(dark.background);

    await new ShellPage(suite.app.page).open('Settings');
    await settings.chooseTheme('Light');
    await expect
      .poll(async () => (await pageColours(suite.app.page)).background)
      .toBe(light.background);
    await suite.app.screenshot('settings-light');

    // "System" follows the desktop's preference, both ways.
    await settings.chooseTheme('System');
    await suite.app.page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(async () => (await pageColours(suite.app.page)).background)
      .toBe(dark.background);
    await suite.app.page.emulateMedia({ colorScheme: 'light' });
    await expect
      .poll(async () => (await pageColours(suite.app.page)).background)
      .toBe(light.background);

    const themeCalls = suite.app.messages
      .filter((m) => m.channel === 'settings:update')
      .map((m) => m.payload);
    expect(themeCalls).toEqual([{ theme: 'dark' }, { theme: 'light' }, { theme: 'system' }]);
  });

  it('can be reached and changed from the keyboard alone', async () => {
    await openSettings('light');
    const { page } = suite.app;
    await new ShellPage(page).open('Models');
    const focused = () =>
      page.evaluate(() => {
        const doc = (
          globalThis as unknown as {
            document: {
              activeElement: { tagName: string; getAttribute(n: string): string | null };
            };
          }
        ).document;
        const { activeElement } = doc;
        return `${activeElement.tagName.toLowerCase()} ${activeElement.getAttribute('aria-label') ?? activeElement.getAttribute('value') ?? ''}`;
      });
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).focus();
    await page.keyboard.press('Enter');
    // Focus moves to the screen that opened, so the next Tab is inside it.
    await expect.poll(focused).toBe('main Settings');
    // The section index comes first: Enter on an entry moves the focus to its section.
    await page.keyboard.press('Tab');
    const index = page.getByRole('navigation', { name: 'On this page' });
    await expect
      .poll(() =>
        index
          .getByRole('button', { name: 'Appearance' })
          .evaluate(
            (b) =>
              b ===
              (globalThis as unknown as { document: { activeElement: unknown } }).document
                .activeElement,
          ),
      )
      .toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('h2 ');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('input system');
    await page.keyboard.press('ArrowRight');
    await expect(focused()).resolves.toBe('input light');
    await expect.poll(async () => (await pageColours(page)).theme).toBe('light');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await pageColours(page)).theme).toBe('dark');
  });

  it('saves chat defaults and timeouts as they are typed; an invalid value shows its error, keeps the typing and saves nothing', async () => {
    const settings = await openSettings();
    const { page } = suite.app;
    const updates = () => suite.app.messages.filter((m) => m.channel === 'settings:update');
    await expect(settings.temperature.inputValue()).resolves.toBe('1');
    await expect(settings.maxTokens.inputValue()).resolves.toBe('');
    // No Save to find below the fold: a change is saved like the theme.
    await expect(page.getByRole('button', { name: 'Save', exact: true }).count()).resolves.toBe(0);

    await settings.temperature.fill('3');
    await settings.maxTokens.fill('0');
    await settings.requestTimeout.fill('2');
    await settings.idleTimeout.fill('ten');
    await page.keyboard.press('Tab');
    await expect(settings.fieldError(settings.temperature).textContent()).resolves.toBe(
      'Temperature must be a number from 0 to 2, such as 0.7.',
    );
    await expect(settings.fieldError(settings.maxTokens).textContent()).resolves.toBe(
      'Max tokens must be empty (no limit) or a whole number of at least 1.',
    );
    await expect(settings.fieldError(settings.requestTimeout).textContent()).resolves.toBe(
      'The request timeout must be a whole number of seconds from 5 to 3600.',
    );
    await expect(settings.fieldError(settings.idleTimeout).textContent()).resolves.toBe(
      'The idle timeout must be a whole number of seconds from 5 to 3600.',
    );
    await expect(settings.temperature.getAttribute('aria-invalid')).resolves.toBe('true');
    await suite.app.screenshot('settings-invalid');
    // Nothing invalid reached main.
    expect(updates()).toEqual([]);

    // Leaving and coming back keeps what was typed, with its errors, still unsaved.
    const shell = new ShellPage(page);
    await shell.open('Models');
    await shell.open('Settings');
    await expect(settings.temperature.inputValue()).resolves.toBe('3');
    await expect(settings.idleTimeout.inputValue()).resolves.toBe('ten');
    await expect(settings.fieldError(settings.idleTimeout).count()).resolves.toBe(1);
    expect(updates()).toEqual([]);

    // Put right, one field after another: saved once the last is valid, no button pressed.
    await settings.temperature.fill('0.7');
    await settings.maxTokens.fill('512');
    await settings.requestTimeout.fill('90');
    expect(updates()).toEqual([]);
    await settings.idleTimeout.fill('30');
    await settings.saved.waitFor();
    await expect(page.locator('.field-error').count()).resolves.toBe(0);
    await expect
      .poll(async () => (await suite.app.services.settings.get()).timeouts)
      .toEqual({ requestSeconds: 90, idleSeconds: 30 });

    await page.reload();
    await new ShellPage(page).open('Settings');
    await expect(settings.temperature.inputValue()).resolves.toBe('0.7');
    await expect(settings.maxTokens.inputValue()).resolves.toBe('512');
    await expect(settings.requestTimeout.inputValue()).resolves.toBe('90');
    await expect(settings.idleTimeout.inputValue()).resolves.toBe('30');

    // Emptying max tokens means no limit, saved at once; typing goes on undisturbed by the save.
    await settings.maxTokens.fill('');
    await expect
      .poll(() => updates().at(-1)?.payload)
      .toMatchObject({ chatDefaults: { temperature: 0.7, maxTokens: null } });
    await settings.temperature.press('End');
    await settings.temperature.pressSequentially('5');
    await expect.poll(() => settings.temperature.inputValue()).toBe('0.75');
    await expect
      .poll(async () => (await suite.app.services.settings.get()).chatDefaults.temperature)
      .toBe(0.75);
  });

  for (const size of [
    { width: 900, height: 650 },
    { width: 1280, height: 800 },
  ]) {
    it(`lists its sections, jumps to one and marks the one in view (${size.width}×${size.height})`, async () => {
      await openSettings();
      const { page } = suite.app;
      await page.setViewportSize(size);
      const index = page.getByRole('navigation', { name: 'On this page' });
      const entries = index.getByRole('button');
      await expect
        .poll(() => entries.allTextContents())
        .toEqual(
          expect.arrayContaining([
            'Appearance',
            'Chat defaults',
            'Requests',
            'Network',
            'Updates',
            'Logs for support',
          ]),
        );
      const current = () => index.locator('[aria-current="location"]').allTextContents();
      await expect.poll(current).toEqual(['Appearance']);

      // Beside the sections on a wide window, above them on a narrow one; in view either way.
      const nav = (await index.boundingBox())!;
      const first = (await page.getByRole('region', { name: 'Appearance' }).boundingBox())!;
      if (size.width >= 1280) expect(nav.x + nav.width).toBeLessThanOrEqual(first.x);
      else expect(nav.y + nav.height).toBeLessThanOrEqual(first.y);
      expect(nav.y + nav.height).toBeLessThanOrEqual(size.height);

      // Jump to a section: it comes into view below the index, the focus goes to it, it is marked.
      await index.getByRole('button', { name: 'Network' }).click();
      const heading = page.getByRole('heading', { level: 2, name: 'Network' });
      await expect.poll(current).toEqual(['Network']);
      await expect
        .poll(() =>
          heading.evaluate(
            (h) =>
              h ===
              (globalThis as unknown as { document: { activeElement: unknown } }).document
                .activeElement,
          ),
        )
        .toBe(true);
      const shown = (await heading.boundingBox())!;
      const navNow = (await index.boundingBox())!;
      expect(shown.y).toBeGreaterThanOrEqual(size.width >= 1280 ? 0 : navNow.y + navNow.height - 1);
      expect(shown.y + shown.height).toBeLessThanOrEqual(size.height);

      // The last section, which cannot scroll to the top, is marked when jumped to.
      await index.getByRole('button', { name: 'Logs for support' }).click();
      await expect.poll(current).toEqual(['Logs for support']);

      // Scrolling by hand marks the section at the top of the view.
      await page
        .getByRole('heading', { level: 2, name: 'Requests' })
        .evaluate((h) =>
          (h as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }),
        );
      await expect.poll(current).toEqual(['Requests']);
      await suite.app.screenshot(`settings-index-${size.width}`);
    });
  }

  it('offers the explicit choice of a key file only where no keychain works, and saves it', async () => {
    await openSettings();
    await suite.app.page.getByRole('heading', { name: 'Appearance' }).waitFor();
    // The default store of the harness reports itself as the OS keychain: no choice to make.
    await expect(
      suite.app.page.getByRole('heading', { name: 'Where keys are kept' }).count(),
    ).resolves.toBe(0);
    await suite.closeApp();

    const dialogs = new ScriptedDialogs();
    await openSettings('light', new MemorySecretStore(), dialogs);
    const app = suite.app;
    const section = app.page.getByRole('region', { name: 'Where keys are kept' });
    await section.waitFor();
    await expect(section.textContent()).resolves.toContain('kept in memory until you quit');
    const choice = section.getByRole('checkbox');
    await expect(choice.isChecked()).resolves.toBe(false);
    // Main asks first, in a dialog of its own; cancelled, the choice stays off.
    dialogs.confirmAnswers.push(false);
    await choice.click();
    await expect.poll(() => dialogs.confirmRequests.length).toBe(1);
    await expect.poll(() => choice.isChecked()).toBe(false);
    expect((await app.services.settings.get()).allowPlaintextKeys).toBe(false);
    dialogs.confirmAnswers.push(true);
    await choice.click();
    await expect
      .poll(async () => (await suite.app.services.settings.get()).allowPlaintextKeys)
      .toBe(true);
    await expect.poll(() => choice.isChecked()).toBe(true);
    await app.screenshot('settings-key-file-choice');
  });
});
