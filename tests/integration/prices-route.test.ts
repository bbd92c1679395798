/**
 * The price routes as the renderer reaches them: through the router, each payload checked by its
 * schema before the price book sees it. A bad price is refused with what is wrong and changes
 * nothing; a good one is kept on disk and costs the usage report at once.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const ours = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };
let dataDir: string;
let app: ChatApp;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-prices-'));
  app = await openChatApp(dataDir);
});
afterEach(async () => {
  await app.services.close();
  await rm(dataDir, { recursive: true, force: true });
});

const setPrice = (payload: unknown, sender = ours) =>
  app.router.dispatch('models:set-price', payload, sender);

describe('the price routes', () => {
  it('keeps a valid price on disk, and removes it with null', async () => {
    const set = await setPrice({
      modelId: 'gpt-x',
      price: { inputPerMillion: 0.15, outputPerMillion: 0.6 },
    });
    expect(set).toEqual({
      ok: true,
      value: {
        currency: 'USD',
        prices: { 'gpt-x': { inputPerMillion: 0.15, outputPerMillion: 0.6 } },
      },
    });
    const saved = JSON.parse(await readFile(join(dataDir, 'model-prices.json'), 'utf8')) as unknown;
    expect(saved).toMatchObject({ prices: { 'gpt-x': { inputPerMillion: 0.15 } } });

    await expect(setPrice({ modelId: 'gpt-x', price: null })).resolves.toEqual({
      ok: true,
      value: { currency: 'USD', prices: {} },
    });
  });

  it('refuses a negative, missing, non-number or too large price with what is wrong', async () => {
    await setPrice({ modelId: 'kept', price: { inputPerMillion: 1, outputPerMillion: 2 } });
    const cases: Array<[unknown, RegExp]> = [
      [{ inputPerMillion: -1, outputPerMillion: 2 }, /cannot be negative/],
      [{ inputPerMillion: '2.5', outputPerMillion: 2 }, /input price must be a number/],
      [{ inputPerMillion: 1 }, /output price must be a number/],
      [{ inputPerMillion: 1, outputPerMillion: 1e9 }, /above 100000 is refused/],
      [{ inputPerMillion: 1, outputPerMillion: 2, extra: true }, /extra|unrecognized/i],
    ];
    for (const [price, message] of cases) {
      const result = await setPrice({ modelId: 'kept', price });
      expect(result, JSON.stringify(price)).toMatchObject({
        ok: false,
        error: { kind: 'invalid_request', message: expect.stringMatching(message) as string },
      });
    }
    await expect(setPrice({ modelId: '', price: null })).resolves.toMatchObject({ ok: false });
    await expect(app.api.listPrices()).resolves.toEqual({
      currency: 'USD',
      prices: { kept: { inputPerMillion: 1, outputPerMillion: 2 } },
    });
  });

  it('refuses a page that is not the app’s', async () => {
    const result = await setPrice(
      { modelId: 'gpt-x', price: { inputPerMillion: 1, outputPerMillion: 1 } },
      { url: 'https://example.com/', isMainFrame: true, webContentsId: 1 },
    );
    expect(result).toMatchObject({ ok: false });
    await expect(app.api.listPrices()).resolves.toEqual({ currency: 'USD', prices: {} });
  });

  it('checks the usage request: a window of 1 to 366 days', async () => {
    for (const days of [0, 367, 2.5, '30'])
      await expect(app.router.dispatch('chat:usage', { days }, ours)).resolves.toMatchObject({
        ok: false,
        error: { kind: 'invalid_request' },
      });
    const report = await app.api.getUsage({ days: 30 });
    expect(report.days).toHaveLength(30);
    expect(report.byModel).toEqual([]);
  });
});
