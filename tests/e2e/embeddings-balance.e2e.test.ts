/**
 * A 402 in the middle of a run, in a file of its own: it draws a balance down to exact credits,
 * so it gets a relay that no other spec has touched.
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { e2eSuite } from './harness/suite';
import { EmbeddingsPage } from './pages/embeddings-page';

/**
 * Main's fetch, sending embedding requests one at a time in the order the app makes them, each
 * read whole before the next goes. A run sends its batches together, so which of them the relay
 * charges first, and whether the 402 reaches the app (which then stops the batches still out)
 * before a batch charged earlier has been read, was a race: the spec failed now and then. One at a
 * time, a balance of two requests lets exactly the first two batches (128 inputs) through.
 */
function oneEmbeddingAtATime(): FetchLike {
  let queue: Promise<unknown> = Promise.resolve();
  return (url, init) => {
    if (!url.endsWith('/embeddings')) return fetch(url, init);
    const turn = queue.then(async () => {
      init.signal?.throwIfAborted();
      const response = await fetch(url, init);
      const body = await response.arrayBuffer();
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    });
    queue = turn.catch(() => undefined);
    return turn;
  };
}

const suite = e2eSuite({ relay: { ratePerMinute: 100_000 }, connectionName: 'Embeddings relay' });
const key = suite.key;

describe('embeddings playground', () => {
  it('a 402 mid-run says so with a console link, keeps what was done, and goes on after a top-up', async () => {
    const page = await suite.connected(EmbeddingsPage, {
      consoleUrl: 'https://console.example.com/billing',
      fetch: oneEmbeddingAtATime(),
    });
    suite.relay.setBalance(key, 0.02);
    await page.embedLines(Array.from({ length: 200 }, (_, i) => `line ${i}`));
    const notice = suite.app.page.getByRole('alert').filter({ hasText: 'Your balance is used up' });
    // Should it not come, say what the page showed.
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
