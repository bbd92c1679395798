/**
 * The image studio against the demo relay: generate, see it in the gallery with its metadata,
 * restart and still see it; url results; and each error with its remedy in place.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoRelay } from '../../electron/demo-relay/index';
import type { FetchLike } from '../../electron/main/services/relay-client';
import { expectHealthyPage } from './harness/checks';
import {
  startE2e,
  type AppUnderTest,
  type E2eSession,
  type OpenAppOptions,
} from './harness/harness';
import { newKey, startRelay } from './harness/relay';
import { ConnectPage } from './pages/connect-page';
import { ImagesPage } from './pages/images-page';

let e2e: E2eSession;
let relay: DemoRelay;
let app: AppUnderTest | undefined;
const key = newKey();

beforeAll(async () => {
  [e2e, relay] = await Promise.all([startE2e(), startRelay([key])]);
});
beforeEach(() => {
  relay.setFaults(undefined);
  relay.setBalance(key, 100);
});
afterEach(async () => {
  if (app) expectHealthyPage(app);
  await app?.close();
  app = undefined;
});
afterAll(async () => {
  await Promise.all([e2e?.close(), relay?.close()]);
});

async function studio(options: OpenAppOptions = {}): Promise<ImagesPage> {
  app = await e2e.openApp(options);
  const connect = new ConnectPage(app.page);
  await connect.waitUntilShown();
  await connect.connect({ name: 'Image relay', baseUrl: relay.url, apiKey: key });
  const images = new ImagesPage(app.page);
  await images.open();
  await expect.poll(() => images.model.inputValue()).toBe('demo-image');
  return images;
}

/** Node's fetch, asking the relay for links instead of inline images (as some relays answer). */
const askForLinks: FetchLike = (url, init) => {
  if (!url.endsWith('/v1/images/generations') || typeof init.body !== 'string') {
    return fetch(url, init);
  }
  const body = { ...JSON.parse(init.body), response_format: 'url' };
  return fetch(url, { ...init, body: JSON.stringify(body) });
};

describe('image studio', () => {
  it('generates an image, shows it with its metadata, and keeps it across a restart', async () => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'relay-e2e-images-'));
    try {
      const images = await studio({ userDataDir });
      await images.generate('a lighthouse in a storm', { size: '256x256' });
      await images.waitForThumbnails(1);
      await expect.poll(() => images.generateButton.isVisible()).toBe(true);

      const folder = join(userDataDir, 'Relay Desktop');
      const files = await readdir(folder);
      expect(files.filter((f) => /^[0-9a-f]{64}\.png$/.test(f))).toHaveLength(1);
      expect(files.filter((f) => /^[0-9a-f]{64}\.json$/.test(f))).toHaveLength(1);

      await images.thumbnails.first().click();
      await images.lightbox.waitFor();
      expect(await images.meta('Prompt').textContent()).toBe('a lighthouse in a storm');
      expect(await images.meta('Model').textContent()).toBe('demo-image');
      expect(await images.meta('Size').textContent()).toBe('256x256');
      expect(await images.meta('File').textContent()).toContain(folder);
      await app!.screenshot('images-lightbox');
      expectHealthyPage(app!);
      await app!.close();

      // Restart: the same user data, a new app.
      app = await e2e.openApp({ userDataDir });
      const again = new ImagesPage(app.page);
      await again.open();
      await again.waitForThumbnails(1);
      await again.thumbnails.first().click();
      expect(await again.meta('Prompt').textContent()).toBe('a lighthouse in a storm');
    } finally {
      await rm(userDataDir, { recursive: true, force: true });
    }
  });

  it('makes several images with repeated requests and shows progress', async () => {
    const images = await studio();
    await images.generate('three kites', { size: '256x256', count: 3 });
    await expect.poll(() => images.generateButton.isVisible()).toBe(true);
    const progress = app!.messages.filter(
      (m) => m.direction === 'event' && m.channel === 'images:progress',
    );
    expect(progress.at(-1)?.payload).toMatchObject({ done: 3, total: 3 });
    // The demo relay draws the same prompt the same way: one file, named by its hash.
    await images.waitForThumbnails(1);
  });

  it('downloads images the relay answers with links', async () => {
    const images = await studio({ fetch: askForLinks });
    await images.generate('a linked image', { size: '256x256' });
    await images.waitForThumbnails(1);
    await images.thumbnails.first().click();
    expect(await images.meta('Prompt').textContent()).toBe('a linked image');
  });

  it('checks a custom size before sending it', async () => {
    const images = await studio();
    await images.prompt.fill('custom');
    await images.size.selectOption('custom');
    await app!.page.getByRole('textbox', { name: 'Width' }).fill('1024');
    await app!.page.getByRole('textbox', { name: 'Height' }).fill('0');
    expect(await app!.page.locator('.field-error').textContent()).toMatch(
      /height must be at least 1/,
    );
    expect(await images.generateButton.isDisabled()).toBe(true);
    await app!.page.getByRole('textbox', { name: 'Height' }).fill('300');
    await images.generateButton.click();
    await images.waitForThumbnails(1);
    await images.thumbnails.first().click();
    expect(await images.meta('Size').textContent()).toBe('1024x300');
  });

  it('cancels a generation that takes too long', async () => {
    const images = await studio();
    relay.setFaults({ stallAfterHeaders: true });
    await images.generate('never comes', { size: '256x256' });
    await images.cancelButton.waitFor();
    expect(await images.progress.textContent()).toMatch(/Generating 1 of 1/);
    await images.cancelButton.click();
    await app!.page.getByText('Generation cancelled').waitFor();
    relay.setFaults(undefined);
  });
});

describe('image errors', () => {
  it('400: shows the relay message and no retry', async () => {
    const images = await studio();
    relay.setFaults({ status: 400 });
    await images.generate('bad', { size: '256x256' });
    await images.alert.filter({ hasText: 'The relay refused the request' }).waitFor();
    expect(await images.alert.getByRole('button', { name: 'Try again' }).count()).toBe(0);
  });

  it('401: asks for the key again in place', async () => {
    const images = await studio();
    // The key is replaced behind the page's back (revoked, say) after the models were listed.
    const [connection] = await app!.services.connections.list();
    await app!.services.connections.update(connection!.id, { apiKey: `${key}-revoked` });
    await images.generate('locked', { size: '256x256' });
    await app!.page.getByText('Image relay refused the key').waitFor();
    await app!.page.getByLabel('API key for Image relay').fill(key);
    await app!.page.getByRole('button', { name: 'Save key and retry' }).click();
    await images.waitForThumbnails(1);
  });

  it('402: says the balance is used up', async () => {
    const images = await studio();
    relay.setBalance(key, 0);
    await images.generate('poor', { size: '256x256' });
    await images.alert.filter({ hasText: 'Your balance is used up' }).waitFor();
  });

  it('429: shows the countdown while main waits, then succeeds', async () => {
    const images = await studio();
    relay.setFaults({ status: 429, failOnce: true });
    await images.generate('busy', { size: '256x256' });
    await images.waitForThumbnails(1);
    expect(
      app!.messages.some((m) => m.direction === 'event' && m.channel === 'relay:retry-scheduled'),
    ).toBe(true);
  });

  it('500: offers to try again, which works once the relay is well', async () => {
    const images = await studio();
    relay.setFaults({ status: 500 });
    await images.generate('broken', { size: '256x256' });
    const alert = images.alert.filter({ hasText: 'The relay had a problem' });
    await alert.waitFor({ timeout: 20_000 });
    relay.setFaults(undefined);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await images.waitForThumbnails(1);
  });
});
