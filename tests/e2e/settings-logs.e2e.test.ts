import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectHealthyPage } from './harness/checks';
import { startE2e, type AppUnderTest, type E2eSession } from './harness/harness';
import { ConnectPage } from './pages/connect-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';

let e2e: E2eSession;
let app: AppUnderTest | undefined;

beforeAll(async () => {
  e2e = await startE2e();
});
afterEach(async () => {
  await app?.close();
  app = undefined;
});
afterAll(() => e2e?.close());

describe('settings: logs for support', () => {
  it('offers "Include prompts in logs", off by default, says what it means, and saves it', async () => {
    app = await e2e.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    await new ModelsPage(app.page).heading.waitFor();
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
      .poll(async () => (await app!.services.settings.get()).includePromptsInLogs)
      .toBe(true);
    await choice.uncheck();
    await expect
      .poll(async () => (await app!.services.settings.get()).includePromptsInLogs)
      .toBe(false);
    expectHealthyPage(app);
  });
});
