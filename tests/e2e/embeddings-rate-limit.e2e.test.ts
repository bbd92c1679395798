/**
 * A rate limit in the middle of an embeddings run, with a relay of its own for this file: the
 * demo relay's token bucket (10 requests a minute per key, one every 6 s once the burst is spent)
 * answers 429 with Retry-After; the screen counts down to main's automatic retry, with Cancel.
 * Each spec uses a key of its own, so one spec's requests do not spend the other's budget.
 */
import { describe, expect, it } from 'vitest';
import { e2eSuite } from './harness/suite';
import { EmbeddingsPage } from './pages/embeddings-page';

const RATE_PER_MINUTE = 10;
const suite = e2eSuite({
  relay: { ratePerMinute: RATE_PER_MINUTE },
  keys: 2,
  connectionName: 'Rate-limited relay',
});
const [completes, cancel] = suite.keys as [string, string];
const keys = { completes, cancel };

const connected = (apiKey: string) => suite.connected(EmbeddingsPage, { apiKey });

/**
 * Spends the key's requests (on the model list, from outside the app) until the relay says only
 * `left` remain: the app's next requests beyond those are answered 429.
 */
async function spendRequests(key: string, left: number): Promise<void> {
  for (let i = 0; i < 2 * RATE_PER_MINUTE; i++) {
    const response = await fetch(`${suite.relay.url}/v1/models`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    await response.arrayBuffer();
    if (Number(response.headers.get('x-ratelimit-remaining-requests')) <= left) return;
  }
  throw new Error('The relay never ran short of requests');
}

describe('embeddings playground, rate-limited', () => {
  it('counts down to the automatic retry after a 429, then finishes the run', async () => {
    const page = await connected(keys.completes);
    await spendRequests(keys.completes, 0);
    await page.embedLines(Array.from({ length: 64 }, (_, i) => `waiting text ${i}`));

    await page.retryNotice.waitFor();
    expect(await page.retryNotice.textContent()).toContain('The relay asked us to wait');
    expect(await page.retryNotice.textContent()).toContain('Rate limit reached');
    await expect
      .poll(() => page.retryNotice.textContent())
      .toMatch(/Trying again (in [1-6] s|now) \(attempt 2\)/);
    await expect(page.progress.getByRole('button', { name: 'Cancel' }).isVisible()).resolves.toBe(
      true,
    );
    await suite.app.screenshot('embeddings-rate-limit-countdown');

    // Main waits as long as the relay said, asks again, and the run completes.
    await page.waitForPictures(30_000);
    await expect.poll(() => page.results.textContent()).toContain('64 of 64 embedded');
    await expect(page.progress.count()).resolves.toBe(0);
    await expect(page.retryNotice.count()).resolves.toBe(0);
  });

  it('Cancel during the countdown stops the run and keeps the finished batches', async () => {
    const page = await connected(keys.cancel);
    await spendRequests(keys.cancel, 0);
    await page.embedLines(Array.from({ length: 256 }, (_, i) => `kept text ${i}`));
    // One request every 6 s: each batch waits its turn, so once one is done the next is counted
    // down to, and Cancel is pressed then.
    const status = page.progress.getByText(/ of 256 embedded$/);
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^(64|128|192) of/);
    await page.retryNotice.waitFor();
    const done = Number(/^(\d+) of 256/.exec((await status.textContent()) ?? '')?.[1]);
    await page.progress.getByRole('button', { name: 'Cancel' }).click();

    const notice = suite.app.page.getByText(
      /inputs were embedded before it stopped, and were kept/,
    );
    await notice.waitFor();
    const kept = Number(/^(\d+) of 256/.exec((await notice.textContent()) ?? '')?.[1]);
    expect(kept).toBe(done);
    expect(kept % 64).toBe(0);
    expect(kept).toBeLessThan(256);
    await expect(page.retryNotice.count()).resolves.toBe(0);
    // What was kept is shown: vectors and pictures of the finished batches.
    await page.waitForPictures();
    await expect.poll(() => page.results.textContent()).toContain(`${kept} of 256 embedded`);
  });
});
