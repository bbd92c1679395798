import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ relay: false });

describe('settings: logs for support', () => {
  it('offers "Include prompts in logs", off by default, says what it means, and saves it', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    await new ConnectPage(app.page).waitUntilConnected();
    await new ShellPage(app.page).open('Settings');

    const section = app.page.getByRole('region', { name: 'Logs for support' });
    await section.waitFor();
    await expect(section.textContent()).resolves.toContain('API keys are never written to it');
    const choice = section.getByRole('checkbox', { name: 'Include prompts in logs' });
    await expect(choice.isChecked()).resolves.toBe(false);
    await expect(choice.getAttribute('aria-describedby')).resolves.toBe('support-log-prompts-hint');
    await expect(app.page.locator('#support-log-prompts-hint').textContent()).resolves.toContain(
      'Anyone you give the log file to can read them',
    );

    await choice.check();
    await expect
      .poll(async () => (await suite.app.services.settings.get()).includePromptsInLogs)
      .toBe(true);
    await choice.uncheck();
    await expect
      .poll(async () => (await suite.app.services.settings.get()).includePromptsInLogs)
      .toBe(false);
  });
});
