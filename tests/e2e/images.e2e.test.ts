/**
 * The image studio against the demo relay: generate, see it in the gallery with its metadata,
 * restart and still see it; url results; and each error with its remedy in place.
 */
import { mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { e2eSuite, type ConnectedOptions } from './harness/suite';
import { ImagesPage } from './pages/images-page';

const suite = e2eSuite({ connectionName: 'Image relay', scratch: true });
const key = suite.key;
const studio = (options: ConnectedOptions = {}) => suite.connected(ImagesPage, options);

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
    const userDataDir = await mkdtemp(join(suite.scratch, 'restart-'));
    const images = await studio({ userDataDir });
    await images.generate('a lighthouse in a storm', { size: '256x256' });
    await images.waitForThumbnails(1);
    await expect.poll(() => images.generateButton.isVisible()).toBe(true);

    const folder = join(userDataDir, 'Relay Desktop');
    const files = await readdir(folder);
    // Named from the prompt and the date, the hash of its bytes kept in the sidecar.
    const day = new Date().toISOString().slice(0, 10);
    expect(files.sort()).toEqual([
      `a-lighthouse-in-a-storm-${day}-1.json`,
      `a-lighthouse-in-a-storm-${day}-1.png`,
    ]);

    await images.thumbnails.first().click();
    await images.lightbox.waitFor();
    expect(await images.meta('Prompt').textContent()).toBe('a lighthouse in a storm');
    expect(await images.meta('Model').textContent()).toBe('demo-image');
    expect(await images.meta('Size').textContent()).toBe('256x256');
    expect(await images.meta('File').textContent()).toContain(folder);
    await suite.app.screenshot('images-lightbox');
    await suite.closeApp();

    // Restart: the same user data, a new app.
    const again = new ImagesPage((await suite.openApp({ userDataDir })).page);
    await again.open();
    await again.waitForThumbnails(1);
    await again.thumbnails.first().click();
    expect(await again.meta('Prompt').textContent()).toBe('a lighthouse in a storm');
  });

  for (const size of [
    { width: 900, height: 650 },
    { width: 1280, height: 800 },
  ]) {
    it(`browses the gallery with ← and → in the open image (${size.width}×${size.height})`, async () => {
      const images = await studio();
      await suite.app.page.setViewportSize(size);
      for (const prompt of ['a red kite', 'a green kite', 'a blue kite']) {
        await images.generate(prompt, { size: '256x256' });
        await expect.poll(() => images.generateButton.isEnabled()).toBe(true);
      }
      await images.waitForThumbnails(3);
      // Newest first, as the gallery shows them.
      await images.thumbnails.first().click();
      await images.lightbox.waitFor();
      const prompt = () => images.meta('Prompt').textContent();
      await expect.poll(prompt).toBe('a blue kite');
      const keyboard = suite.app.page.keyboard;
      await keyboard.press('ArrowRight');
      await expect.poll(prompt).toBe('a green kite');
      await keyboard.press('ArrowRight');
      await expect.poll(prompt).toBe('a red kite');
      expect(await images.meta('File').textContent()).toContain('a-red-kite-');
      // The last stays the last; ← goes back.
      await keyboard.press('ArrowRight');
      await expect.poll(prompt).toBe('a red kite');
      await keyboard.press('ArrowLeft');
      await expect.poll(prompt).toBe('a green kite');
      expect(await images.lightbox.evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(
        true,
      );
    });
  }

  it('makes several images with repeated requests and shows progress', async () => {
    const images = await studio();
    await images.generate('three kites', { size: '256x256', count: 3 });
    await expect.poll(() => images.generateButton.isVisible()).toBe(true);
    const progress = suite.app.messages.filter(
      (m) => m.direction === 'event' && m.channel === 'images:progress',
    );
    expect(progress.at(-1)?.payload).toMatchObject({ done: 3, total: 3 });
    // Each request draws its own picture: three files, and the count says so.
    await images.waitForThumbnails(3);
    await expect(images.outcome.textContent()).resolves.toBe('3 new images.');
    await expect(images.galleryTitle.textContent()).resolves.toBe('Gallery (3)');
  });

  it('counts an image identical to one already in the gallery as such, not as saved again', async () => {
    // A relay that answers every request with the bytes of its first answer.
    let first: { body: string; headers: Headers } | undefined;
    const sameEveryTime: FetchLike = async (url, init) => {
      if (!url.endsWith('/v1/images/generations')) return fetch(url, init);
      if (!first) {
        const response = await fetch(url, init);
        first = { body: await response.text(), headers: response.headers };
      }
      return new Response(first.body, { status: 200, headers: first.headers });
    };
    const images = await studio({ fetch: sameEveryTime });
    await images.generate('the same picture twice', { size: '256x256', count: 2 });
    await images.waitForThumbnails(1);
    await expect
      .poll(() => images.outcome.textContent())
      .toBe('1 new image; 1 was identical to one you already have.');
    await expect(images.galleryTitle.textContent()).resolves.toBe('Gallery (1)');
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
    await suite.app.page.getByRole('textbox', { name: 'Width' }).fill('1024');
    await suite.app.page.getByRole('textbox', { name: 'Height' }).fill('0');
    expect(await suite.app.page.locator('.field-error').textContent()).toMatch(
      /height must be at least 1/,
    );
    expect(await images.generateButton.isDisabled()).toBe(true);
    await suite.app.page.getByRole('textbox', { name: 'Height' }).fill('300');
    await images.generateButton.click();
    await images.waitForThumbnails(1);
    await images.thumbnails.first().click();
    expect(await images.meta('Size').textContent()).toBe('1024x300');
  });

  it('cancels a generation that takes too long', async () => {
    const images = await studio();
    suite.relay.setFaults({ stallAfterHeaders: true });
    await images.generate('never comes', { size: '256x256' });
    await images.cancelButton.waitFor();
    expect(await images.progress.textContent()).toMatch(/Generating 1 of 1/);
    await images.cancelButton.click();
    await suite.app.page.getByText('Generation cancelled').waitFor();
    suite.relay.setFaults(undefined);
  });
});

describe('image errors', () => {
  it('400: shows the relay message and no retry', async () => {
    const images = await studio();
    suite.relay.setFaults({ status: 400 });
    await images.generate('bad', { size: '256x256' });
    await images.alert.filter({ hasText: 'The relay refused the request' }).waitFor();
    expect(await images.alert.getByRole('button', { name: 'Try again' }).count()).toBe(0);
  });

  it('401: asks for the key again in place', async () => {
    const images = await studio();
    // The key is replaced behind the page's back (revoked, say) after the models were listed.
    const [connection] = await suite.app.services.connections.list();
    await suite.app.services.connections.update(connection!.id, { apiKey: `${key}-revoked` });
    await images.generate('locked', { size: '256x256' });
    await suite.app.page.getByText('Image relay refused the key').waitFor();
    await suite.app.page.getByLabel('API key for Image relay').fill(key);
    await suite.app.page.getByRole('button', { name: 'Save key and retry' }).click();
    await images.waitForThumbnails(1);
  });

  it('402: says the balance is used up', async () => {
    const images = await studio();
    suite.relay.setBalance(key, 0);
    await images.generate('poor', { size: '256x256' });
    await images.alert.filter({ hasText: 'Your balance is used up' }).waitFor();
  });

  it('429: shows the countdown while main waits, then succeeds', async () => {
    const images = await studio();
    suite.relay.setFaults({ status: 429, failOnce: true });
    await images.generate('busy', { size: '256x256' });
    await images.waitForThumbnails(1);
    expect(
      suite.app.messages.some(
        (m) => m.direction === 'event' && m.channel === 'relay:retry-scheduled',
      ),
    ).toBe(true);
  });

  it('500: offers to try again, which works once the relay is well', async () => {
    const images = await studio();
    suite.relay.setFaults({ status: 500 });
    await images.generate('broken', { size: '256x256' });
    const alert = images.alert.filter({ hasText: 'The relay had a problem' });
    await alert.waitFor({ timeout: 20_000 });
    suite.relay.setFaults(undefined);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await images.waitForThumbnails(1);
  });
});
