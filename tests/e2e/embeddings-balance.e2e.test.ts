/**
 * A 402 in the middle of a run, in a file of its own: it draws a balance down to exact credits,
 * so it gets a relay and a browser session that no earlier spec has touched. (Run after the other
 * embeddings specs in one file, it timed out now and then; alone it never has.)
 */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { EmbeddingsPage } from './pages/embeddings-page';

// The suite fills the balance before each try: a first try that failed part way (after drawing
// the balance down) must not leave the relay refusing the retry's very first request.
const suite = e2eSuite({ relay: { ratePerMinute: 100_000 }, connectionName: 'Embeddings relay' });
const key = suite.key;

describe('embeddings playground', () => {
  it('a 402 mid-run says so with a console link, keeps what was done, and goes on after a top-up', async () => {
    const page = await suite.connected(EmbeddingsPage, {
      consoleUrl: 'https://console.example.com/billing',
    });
    suite.relay.setBalance(key, 0.02);
    await page.embedLines(Array.from({ length: 200 }, (_, i) => `line ${i}`));
    const notice = suite.app.page.getByRole('alert').filter({ hasText: 'Your balance is used up' });
    // It timed out here (or later) twice in full runs, never alone: say what the page showed.
    await notice.waitFor({ timeout: 20_000 }).catch(async (error: unknown) => {
      const alerts = await suite.app.page.getByRole('alert').allTextContents();
      const status = await suite.app.page.getByRole('status').allTextContents();
      throw new Error(
        `No 402 notice after 20 s. Alerts: ${JSON.stringify(alerts)}; status: ${JSON.stringify(status)}; balance left: ${suite.relay.balanceOf(key)}`,
        { cause: error },
      );
    });
    expect(await notice.textContent()).toContain(
      'The 128 of 200 inputs embedded before it stopped were kept.',
    );
    expect(
      await notice.getByRole('link', { name: 'Top up in the console' }).getAttribute('href'),
    ).toBe('https://console.example.com/billing');
    suite.relay.setBalance(key, 100);
    await notice.getByRole('button', { name: 'Retry the rest' }).click();
    await page.waitForPictures();
    await expect.poll(() => page.row(199).count()).toBeGreaterThanOrEqual(0);
    await expect.poll(() => page.results.textContent()).toContain('200 of 200 embedded');
  }, 60_000);
});
