/**
 * The update feed, end to end as far as it runs without Electron: electron-builder's own code
 * writes `latest-linux.yml` (and the beta and alpha files) and `app-update.yml` from our
 * `electron-builder.yml`; a local server serves them; electron-updater's own `AppImageUpdater`
 * reads that configuration, checks the feed, downloads the release and verifies its SHA-512,
 * driven by the app's update service through the same adapter the app uses.
 *
 * What Electron adds in the app: its `net` module (here builder-util's Node executor), the
 * app's real version and paths (here an adapter object), and on macOS Squirrel.Mac.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeHttpExecutor } from 'builder-util/out/nodeHttpExecutor';
import {
  configureRequestOptions,
  configureRequestUrl,
  type DownloadOptions,
} from 'builder-util-runtime';
import { AppImageUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { UpdateStatus } from '../../electron/shared/ipc/routes/updates';
import { adaptAutoUpdater } from '../../electron/main/services/updates/auto-updater';
import { UpdateService } from '../../electron/main/services/updates/update-service';
import { publishLinuxRelease, serveFeed, type FeedServer } from '../fakes/update-feed';

let work: string;
let feedDir: string;
let feed: FeedServer;
const artifactBytes = randomBytes(256 * 1024);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'relay-update-feed-'));
  feedDir = join(work, 'feed');
  feed = await serveFeed(() => feedDir);
});
afterAll(async () => {
  await feed?.close();
  await rm(work, { recursive: true, force: true });
});

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(work, 'home-'));
  feed.requests.length = 0;
  // electron-updater updates an AppImage only when it runs as one: this is the running one.
  const running = join(home, 'Relay-Desktop-0.1.0.AppImage');
  await writeFile(running, 'the running version');
  vi.stubEnv('APPIMAGE', running);
  vi.stubEnv('XDG_CACHE_HOME', join(home, 'cache'));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** An installed 0.1.0 with the `app-update.yml` our configuration produced. */
async function installedApp(appUpdateYml: string): Promise<AppAdapter> {
  const config = join(home, 'app-update.yml');
  await writeFile(config, appUpdateYml);
  return {
    version: '0.1.0',
    name: 'Relay Desktop',
    isPackaged: true,
    appUpdateConfigPath: config,
    userDataPath: join(home, 'userData'),
    baseCachePath: join(home, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => undefined,
    onQuit: () => undefined,
  };
}

/**
 * builder-util's Node executor with the `download` electron-updater's Electron executor has
 * (`electronHttpExecutor.ts`): the same request options and the same `doDownload`, which checks
 * the SHA-512 as the file arrives.
 */
class NodeDownloadExecutor extends NodeHttpExecutor {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers || undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error == null ? resolve(destination) : reject(error)),
          responseHandler: null,
        },
        0,
      );
    });
  }
}

/** electron-updater's AppImage updater on Node's HTTP instead of Electron's `net`. */
function nodeUpdater(app: AppAdapter): AppImageUpdater {
  const updater = new AppImageUpdater(undefined, app);
  (updater as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor =
    new NodeDownloadExecutor();
  updater.logger = null;
  return updater;
}

function service(
  updater: AppImageUpdater,
  statuses: UpdateStatus[],
  channel: 'stable' | 'beta' = 'stable',
) {
  const adapted = adaptAutoUpdater(updater);
  const updates = new UpdateService({
    currentVersion: '0.1.0',
    updater: adapted,
    settings: async () => ({ channel, autoCheck: false }),
    emit: (status) => statuses.push(status),
  });
  return updates;
}

describe('a release published with our configuration', () => {
  it('is the feed files electron-builder writes, at the address given at build time', async () => {
    feedDir = join(work, 'release-0.2.0');
    const release = await publishLinuxRelease({
      dir: feedDir,
      url: feed.url,
      version: '0.2.0',
      artifactBytes,
      releaseNotes: 'Quick ask from anywhere.\n\nA tray icon.',
    });
    expect(parse(release.appUpdateYml)).toEqual({
      provider: 'generic',
      url: feed.url,
      updaterCacheDirName: 'relay-desktop-updater',
    });
    const latest = parse(await readFile(join(feedDir, 'latest-linux.yml'), 'utf8')) as {
      version: string;
      files: { url: string; sha512: string; size?: number }[];
      releaseNotes: string;
    };
    expect(latest.version).toBe('0.2.0');
    expect(latest.files[0]?.url).toBe('Relay-Desktop-0.2.0.AppImage');
    expect(latest.files[0]?.sha512).toBe(
      (await import('node:crypto')).createHash('sha512').update(artifactBytes).digest('base64'),
    );
    expect(latest.releaseNotes).toContain('Quick ask from anywhere.');
    // A stable release is offered on the beta channel too.
    expect(parse(await readFile(join(feedDir, 'beta-linux.yml'), 'utf8'))).toEqual(latest);
  });

  it('is found, downloaded and verified by electron-updater, through the update service', async () => {
    feedDir = join(work, 'release-0.2.0');
    const { appUpdateYml } = await publishLinuxRelease({
      dir: feedDir,
      url: feed.url,
      version: '0.2.0',
      artifactBytes,
      releaseNotes: 'Quick ask from anywhere.',
    });
    const statuses: UpdateStatus[] = [];
    const updater = nodeUpdater(await installedApp(appUpdateYml));
    const updates = service(updater, statuses);
    await updates.start();
    await updates.check();
    await vi.waitFor(() => expect(updates.status.state).toBe('ready'), { timeout: 15_000 });
    expect(updates.status).toMatchObject({
      state: 'ready',
      release: { version: '0.2.0', notes: 'Quick ask from anywhere.' },
    });
    expect(statuses.map((s) => s.state)).toEqual(
      expect.arrayContaining(['checking', 'downloading', 'ready']),
    );
    // The stable channel's file, then the artifact (after a try at a differential download).
    expect(feed.requests[0]).toBe('/relay-desktop/latest-linux.yml');
    expect(feed.requests).toContain('/relay-desktop/Relay-Desktop-0.2.0.AppImage');
    updates.close();
  });

  it('reads the beta channel file on the beta channel', async () => {
    feedDir = join(work, 'release-0.3.0-beta.1');
    const { appUpdateYml } = await publishLinuxRelease({
      dir: feedDir,
      url: feed.url,
      version: '0.3.0-beta.1',
      artifactBytes,
    });
    // A beta release is not offered on the stable channel.
    await expect(readFile(join(feedDir, 'latest-linux.yml'))).rejects.toThrow();
    const statuses: UpdateStatus[] = [];
    const updates = service(nodeUpdater(await installedApp(appUpdateYml)), statuses, 'beta');
    await updates.start();
    await updates.check();
    expect(feed.requests[0]).toBe('/relay-desktop/beta-linux.yml');
    await vi.waitFor(() => expect(updates.status.state).toBe('ready'), { timeout: 15_000 });
    expect(updates.status).toMatchObject({ release: { version: '0.3.0-beta.1' } });
    updates.close();
  });

  it('is refused, and deleted, when the download does not match its checksum', async () => {
    feedDir = join(work, 'release-0.2.0');
    const { appUpdateYml } = await publishLinuxRelease({
      dir: feedDir,
      url: feed.url,
      version: '0.2.0',
      artifactBytes,
    });
    const tampered = Buffer.from(artifactBytes);
    tampered[1000] = (tampered[1000] ?? 0) ^ 0xff;
    feed.override('Relay-Desktop-0.2.0.AppImage', tampered);
    try {
      const statuses: UpdateStatus[] = [];
      const updates = service(nodeUpdater(await installedApp(appUpdateYml)), statuses);
      await updates.start();
      await updates.check();
      await vi.waitFor(() => expect(updates.status.state).toBe('failed'), { timeout: 15_000 });
      expect(updates.status).toMatchObject({
        state: 'failed',
        failure: 'checksum',
        release: { version: '0.2.0' },
      });
      expect(statuses.some((s) => s.state === 'ready')).toBe(false);
      updates.close();
    } finally {
      feed.override('Relay-Desktop-0.2.0.AppImage', artifactBytes);
    }
  });

  it('says the app is up to date when the feed has its own version', async () => {
    feedDir = join(work, 'release-0.1.0');
    const { appUpdateYml } = await publishLinuxRelease({
      dir: feedDir,
      url: feed.url,
      version: '0.1.0',
      artifactBytes,
    });
    const updates = service(nodeUpdater(await installedApp(appUpdateYml)), []);
    await updates.start();
    expect(await updates.check()).toMatchObject({ state: 'up-to-date' });
    updates.close();
  });
});
