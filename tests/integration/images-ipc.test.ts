/**
 * The images routes over the real router and bridge, against the demo relay: generate with
 * progress and cancel, the gallery's actions, and every refusal a page can meet.
 */
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import type { DesktopShell, Dialogs } from '../../electron/main/app-context';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { sha256Hex } from '../../electron/main/services/images/gallery-files';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { pageBridge } from '../fakes/page-bridge';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { checkedEvents } from '../fakes/contract-events';

const KEY = 'sk-demo-images-5e1d9c';
const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 7 };

let relay: DemoRelay;
let dataDir: string;
let services: AppServices;
const events: Array<{ channel: string; payload: unknown }> = [];
const calls: string[] = [];
let savePath: string | undefined;

const dialogs: Dialogs = {
  chooseSavePath: async () => savePath,
  chooseOpenPaths: async () => [],
  chooseFolder: async () => join(dataDir, 'Chosen'),
};
const desktop: DesktopShell = {
  showInFolder: (path) => void calls.push(`reveal ${path}`),
  moveToTrash: async (path) => {
    calls.push(`trash ${path}`);
    await copyFile(path, `${path}.trashed`);
    await rm(path);
  },
  copyImage: async (path) => void calls.push(`copy ${path}`),
  startDrag: (path, id) => void calls.push(`drag ${path} ${id}`),
};

async function open(withDesktop = true, fetchImpl?: FetchLike) {
  services = await createAppServices({
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    userDataDir: dataDir,
    picturesDir: join(dataDir, 'Pictures'),
    secretStore: new MemorySecretStore(),
    emit: checkedEvents((channel, payload) => events.push({ channel, payload })),
    ...(withDesktop ? { dialogs, desktop } : {}),
  });
  const router = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [7]),
  });
  const api = pageBridge(
    (channel, payload) => router.dispatch(channel, payload, sender),
    () => () => undefined,
    (channel, payload) => void router.receive(channel, payload, sender),
  );
  await api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
  return api;
}

const ask = (requestId: string, count = 1) => ({
  requestId,
  model: 'demo-image',
  prompt: 'a red kite over the sea',
  size: '256x256',
  count,
});

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 10_000 });
});
afterAll(() => relay.close());
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-images-ipc-'));
  events.length = 0;
  calls.length = 0;
  savePath = undefined;
  relay.setFaults(undefined);
  relay.setBalance(KEY, 100);
});
afterEach(async () => {
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('generating images', () => {
  it('saves each image into <Pictures>/Relay Desktop and reports progress', async () => {
    const api = await open();
    const { images, identical } = await api.generateImages(ask('r1', 2));
    expect(images).toHaveLength(2);
    const folder = join(dataDir, 'Pictures', 'Relay Desktop');
    expect(await api.getGalleryFolder()).toEqual({ path: folder, isDefault: true });
    for (const image of images) {
      const bytes = await readFile(join(folder, image.fileName));
      expect(sha256Hex(bytes)).toBe(image.id);
      expect(image).toMatchObject({ model: 'demo-image', size: '256x256', mimeType: 'image/png' });
    }
    const progress = events
      .filter((e) => e.channel === 'images:progress')
      .map((e) => e.payload as { requestId: string; done: number; total: number });
    expect(progress[0]).toMatchObject({ requestId: 'r1', done: 0, total: 2 });
    expect(progress.at(-1)).toMatchObject({ done: 2, total: 2 });
    expect(events.some((e) => e.channel === 'images:gallery-changed')).toBe(true);

    // Each request draws its own picture: two files, each named by its hash, none identical.
    const listed = await api.listImages();
    const distinct = [...new Set(images.map((i) => i.id))].sort();
    expect(distinct).toHaveLength(2);
    expect(identical).toBe(0);
    expect(listed.total).toBe(2);
    expect(listed.images.map((i) => i.id).sort()).toEqual(distinct);
  });

  it('counts an image the gallery already holds as identical, and keeps one file', async () => {
    let first: string | undefined;
    // A relay that answers every request with the picture of its first answer.
    const api = await open(true, async (url, init) => {
      if (!url.endsWith('/v1/images/generations')) return fetch(url, init);
      first ??= await (await fetch(url, init)).text();
      return new Response(first, { headers: { 'content-type': 'application/json' } });
    });
    const once = await api.generateImages(ask('same-1', 1));
    expect(once.identical).toBe(0);
    const twice = await api.generateImages(ask('same-2', 2));
    expect(twice.identical).toBe(2);
    expect(new Set(twice.images.map((i) => i.id))).toEqual(new Set([once.images[0]!.id]));
    expect((await api.listImages()).total).toBe(1);
  });

  it('cancels a generation in flight, keeping what was saved', async () => {
    const api = await open();
    relay.setFaults({ stallAfterHeaders: true });
    const running = api.generateImages(ask('slow'));
    await new Promise((r) => setTimeout(r, 200));
    await api.cancelImages({ requestId: 'slow' });
    await expect(running).rejects.toMatchObject({ kind: 'aborted' });
    expect((await api.listImages()).total).toBe(0);
  });

  it.each([
    [{ size: '1024X1024' }, 'size'],
    [{ size: '0x10' }, 'size'],
    [{ count: 0 }, 'count'],
    [{ count: 11 }, 'count'],
    [{ prompt: '   ' }, 'prompt'],
    [{ model: '' }, 'model'],
  ])('refuses %j before anything is sent', async (change, param) => {
    const api = await open();
    await expect(api.generateImages({ ...ask('bad'), ...change })).rejects.toMatchObject({
      kind: 'invalid_request',
      param,
    });
  });

  it('passes the relay errors on with their kind', async () => {
    const api = await open();
    relay.setBalance(KEY, 0);
    await expect(api.generateImages(ask('poor'))).rejects.toMatchObject({
      kind: 'insufficient_balance',
      status: 402,
    });
    relay.setBalance(KEY, 100);
    relay.setFaults({ status: 400 });
    await expect(api.generateImages(ask('bad-req'))).rejects.toMatchObject({
      kind: 'bad_request',
    });
  });
});

describe('the gallery actions', () => {
  it('gets, reveals, saves as, copies, drags and deletes an image', async () => {
    const api = await open();
    const [image] = (await api.generateImages(ask('one'))).images;
    if (!image) throw new Error('no image');
    const detail = await api.getImage({ id: image.id });
    expect(detail.path.endsWith(image.fileName)).toBe(true);
    expect(detail.prompt).toBe('a red kite over the sea');

    await api.revealImage({ id: image.id });
    await api.copyImage({ id: image.id });
    await api.startImageDrag({ id: image.id });
    expect(calls).toEqual([
      `reveal ${detail.path}`,
      `copy ${detail.path}`,
      `drag ${detail.path} 7`,
    ]);

    expect(await api.saveImageAs({ id: image.id })).toEqual({ saved: false });
    savePath = join(dataDir, 'kite.png');
    expect(await api.saveImageAs({ id: image.id })).toEqual({
      saved: true,
      path: savePath,
      savedId: expect.any(String),
    });
    expect(sha256Hex(await readFile(savePath))).toBe(image.id);
    // Written whole through a temp file beside it, which does not stay.
    expect((await readdir(dataDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    await api.deleteImage({ id: image.id });
    expect(calls.filter((c) => c.startsWith('trash'))).toHaveLength(2);
    expect((await api.listImages()).total).toBe(0);
    await expect(api.getImage({ id: image.id })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('refuses ids that are not image hashes', async () => {
    const api = await open();
    for (const id of ['../../etc/passwd', 'A'.repeat(64), `${'a'.repeat(64)}.png`]) {
      await expect(api.getImage({ id })).rejects.toMatchObject({ kind: 'invalid_request' });
    }
  });

  it('says plainly when copy, drag or trash are not available', async () => {
    const api = await open(false);
    const [image] = (await api.generateImages(ask('x'))).images;
    if (!image) throw new Error('no image');
    await expect(api.copyImage({ id: image.id })).rejects.toMatchObject({ kind: 'internal' });
    await expect(api.startImageDrag({ id: image.id })).rejects.toMatchObject({
      kind: 'internal',
    });
    await expect(api.deleteImage({ id: image.id })).rejects.toMatchObject({
      message: expect.stringMatching(/trash is not available/),
    });
    expect((await api.listImages()).total).toBe(1);
  });

  it('switches to a chosen folder', async () => {
    const api = await open();
    await api.generateImages(ask('before'));
    const chosen = await api.chooseGalleryFolder();
    expect(chosen).toEqual({ path: join(dataDir, 'Chosen'), isDefault: false });
    expect((await api.listImages()).total).toBe(0);
    const { images } = await api.generateImages(ask('after'));
    expect(await readdir(join(dataDir, 'Chosen'))).toContain(images[0]?.fileName);
  });
});
