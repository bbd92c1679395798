import { describe, expect, it } from 'vitest';
import { expectKeyNeverSentToPage, expectKeyNotInPage } from './harness/checks';
import { newKey } from './harness/relay';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { ConnectionsPage } from './pages/connections-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ keys: 2 });
const [goodKey, drainedKey] = suite.keys as [string, string];
const CONSOLE = 'https://console.relay.example/billing';

describe('relay errors in place', () => {
  it('a wrong key shows the 401 message on the models screen and takes a corrected key there', async () => {
    const app = await suite.openApp();
    const wrongKey = newKey();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'Team relay', baseUrl: suite.relay.url, apiKey: wrongKey });

    const models = new ModelsPage(app.page);
    await models.open();
    await models.failure.waitFor();
    const alert = models.failure.getByRole('alert');
    await expect(alert.textContent()).resolves.toContain('Team relay refused the key');
    await expect(alert.textContent()).resolves.toContain('Incorrect API key provided');
    // The key field opens in place, focused.
    const keyField = app.page.getByLabel('API key for Team relay');
    await expect(
      keyField.evaluate(
        (el: { ownerDocument: { activeElement: unknown } }) =>
          el === el.ownerDocument.activeElement,
      ),
    ).resolves.toBe(true);
    await expect(keyField.getAttribute('type')).resolves.toBe('password');
    await app.screenshot('models-401');

    await models.enterCorrectedKey(goodKey);
    await models.waitForModels();
    await expect(models.modelIds('Chat')).resolves.toEqual([
      'demo-chat',
      'demo-chat-fast',
      'demo-chat-mini',
      'demo-tools',
      'demo-vision',
    ]);
    await expect(models.failure.count()).resolves.toBe(0);

    // The saved key is the corrected one: the card shows its last four characters.
    await new ShellPage(app.page).open('Connections');
    await expect(
      new ConnectionsPage(app.page).card('Team relay').keyStatus.textContent(),
    ).resolves.toBe(`Key saved (…${goodKey.slice(-4)})`);

    await expectKeyNotInPage(app, goodKey);
    await expectKeyNotInPage(app, wrongKey);
    expectKeyNeverSentToPage(app.messages, goodKey);
    expectKeyNeverSentToPage(app.messages, wrongKey);
  });

  it('a drained balance shows the 402 message with a link to the console', async () => {
    suite.relay.setBalance(drainedKey, 100);
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({
      name: 'Paid relay',
      baseUrl: suite.relay.url,
      apiKey: drainedKey,
      consoleUrl: CONSOLE,
    });
    const models = new ModelsPage(app.page);
    await models.open();
    await models.waitForModels();

    suite.relay.setBalance(drainedKey, 0);
    await models.refresh.click();
    await models.failure.waitFor();
    const alert = models.failure.getByRole('alert');
    await expect(alert.locator('.notice-title').textContent()).resolves.toBe(
      'Your balance is used up',
    );
    await expect(alert.locator('.failure-message').textContent()).resolves.toMatch(/balance/i);
    const link = alert.getByRole('link', { name: 'Top up in the console' });
    await expect(link.getAttribute('href')).resolves.toBe(CONSOLE);
    await expect(link.getAttribute('target')).resolves.toBe('_blank');
    await expect(link.getAttribute('rel')).resolves.toBe('noreferrer');
    await app.screenshot('models-402');

    // Topped up: "Try again" brings the models back.
    suite.relay.setBalance(drainedKey, 5);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await models.waitForModels();
    await expect(models.failure.count()).resolves.toBe(0);
  });

  it('without a console address, the 402 message says where the link would come from', async () => {
    suite.relay.setBalance(drainedKey, 0);
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'No console', baseUrl: suite.relay.url, apiKey: drainedKey });
    const models = new ModelsPage(app.page);
    await models.open();
    await models.failure.waitFor();
    await expect(models.failure.getByRole('link').count()).resolves.toBe(0);
    await expect(models.failure.textContent()).resolves.toContain('console address');
  });

  it('shows the retry countdown main reports while it waits to ask a busy relay again', async () => {
    let failures = 0;
    const app = await suite.openApp({
      fetch: async (url, init) => {
        if (url.endsWith('/v1/models') && failures > 0) {
          failures -= 1;
          return Response.json(
            { error: { message: 'The relay is overloaded.', type: 'server_error' } },
            { status: 503, headers: { 'retry-after': '2' } },
          );
        }
        return fetch(url, init);
      },
    });
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'Busy relay', baseUrl: suite.relay.url, apiKey: goodKey });
    await connect.waitUntilConnected();
    const models = new ModelsPage(app.page);
    await models.open();
    await models.waitForModels();
    // Then the relay is busy: the next list (a refresh) is answered 503 with Retry-After, once.
    failures = 1;
    await models.refresh.click();

    const notice = app.page.locator('.retry-notice');
    await notice.waitFor();
    await expect(notice.textContent()).resolves.toMatch(/Trying again in [12] s \(attempt 2\)/);
    await expect(notice.textContent()).resolves.toContain('overloaded');
    await app.screenshot('models-retrying');

    // The list stays shown meanwhile; the notice goes once the second try has answered.
    await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(0);
    await models.waitForModels();
    // The countdown came from main as an event of the contract.
    const event = app.messages.find((m) => m.channel === 'relay:retry-scheduled');
    expect(event).toMatchObject({
      direction: 'event',
      payload: { attempt: 1, delayMs: 2000, kind: 'server_error' },
    });
  });

  it('the connection dot shows how the last request went, with the reason to hover and to hear', async () => {
    let offline = false;
    const app = await suite.openApp({
      fetch: (url, init) =>
        offline ? Promise.reject(new TypeError('fetch failed')) : fetch(url, init),
    });
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.connect({ name: 'Flaky relay', baseUrl: suite.relay.url, apiKey: goodKey });
    const models = new ModelsPage(app.page);
    await models.open();
    await models.waitForModels();
    const shell = new ShellPage(app.page);
    await expect.poll(() => shell.connectionState()).toBe('ok');

    // Every request fails: the dot turns red and says why.
    offline = true;
    await models.refresh.click();
    await expect.poll(() => shell.connectionState()).toBe('error');
    await expect(shell.activeConnection.getAttribute('aria-label')).resolves.toContain(
      'could not be reached',
    );
    await expect(shell.activeConnection.getAttribute('title')).resolves.toContain(
      'could not be reached',
    );

    // A used-up balance is a warning: the relay answers, it wants something done.
    offline = false;
    suite.relay.setBalance(goodKey, 0);
    await models.refresh.click();
    await expect.poll(() => shell.connectionState()).toBe('warning');
    await expect(shell.activeConnection.getAttribute('aria-label')).resolves.toContain(
      'balance is used up',
    );

    suite.relay.setBalance(goodKey, 100);
    await models.refresh.click();
    await expect.poll(() => shell.connectionState()).toBe('ok');
  });
});
