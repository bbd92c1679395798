/**
 * An update feed as `npm run dist` publishes it, made by electron-builder's own code
 * (app-builder-lib's `PublishManager` and `updateInfoBuilder`, which the AppImage target calls
 * when it has built an artifact), from the app's own `electron-builder.yml`; and a local HTTP
 * server that serves it, as the generic provider's address would.
 *
 * Only the artifact is a stand-in (an AppImage cannot be built offline): any bytes do, since the
 * feed carries their SHA-512 and size, which is what electron-updater checks.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join, normalize, sep } from 'node:path';
import {
  getAppUpdatePublishConfiguration,
  getPublishConfigs,
} from 'app-builder-lib/out/publish/PublishManager';
import {
  createUpdateInfoTasks,
  writeUpdateInfoFiles,
} from 'app-builder-lib/out/publish/updateInfoBuilder';
import { Platform } from 'app-builder-lib/out/core';
import { expandMacro } from 'app-builder-lib/out/util/macroExpander';
import { Arch, serializeToYaml } from 'builder-util';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '../..');

export const UPDATE_URL_ENV = 'RELAY_UPDATE_URL';

/** `electron-builder.yml`, as electron-builder reads it. */
export async function builderConfig(): Promise<Record<string, unknown>> {
  return parse(await readFile(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * The part of a Linux `PlatformPackager` the publishing code reads: the configuration, the app's
 * name and version, where release notes are, and where it reports the files it writes.
 */
function linuxPackager(config: Record<string, unknown>, version: string, outDir: string) {
  // The app's own package.json: its name, and electron-updater's version among its dependencies.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    productName: string;
    dependencies: Record<string, string>;
  };
  const appInfo = {
    version,
    name: pkg.name,
    productName: pkg.productName,
    sanitizedName: pkg.name,
    sanitizedProductName: pkg.productName,
    productFilename: pkg.productName,
    // As AppInfo computes it: a prerelease identifier (0.3.0-beta.1) is the channel.
    channel: /-([a-z]+)/i.exec(version)?.[1] ?? null,
    updaterCacheDirName: `${pkg.name}-updater`,
  };
  const info = {
    config,
    appInfo,
    metadata: { dependencies: pkg.dependencies },
    repositoryInfo: Promise.resolve(null),
  };
  const packager = {
    platform: Platform.LINUX,
    config,
    info,
    appInfo,
    platformSpecificBuildOptions: (config['linux'] ?? {}) as Record<string, unknown>,
    projectDir: outDir,
    buildResourcesDir: join(ROOT, 'resources'),
    expandMacro: (pattern: string, arch: string | null) =>
      expandMacro(pattern, arch, appInfo as never),
    getResource: async (custom: string | null | undefined, ...names: string[]) => {
      for (const name of [custom, ...names]) {
        if (!name) continue;
        try {
          await readFile(join(outDir, name));
          return join(outDir, name);
        } catch {
          // not there
        }
      }
      return null;
    },
    emitArtifactCreated: async () => undefined,
  };
  return packager;
}

export interface PublishedRelease {
  /** The folder the feed is in: `latest-linux.yml` (and the channels it implies), the artifact. */
  dir: string;
  artifact: string;
  /** `resources/app-update.yml` of a build made with this configuration. */
  appUpdateYml: string;
}

/**
 * Writes what electron-builder publishes for one Linux AppImage release: the artifact, the
 * update files for its channels, and the `app-update.yml` a build carries. The feed's address
 * comes from `RELAY_UPDATE_URL`, as in `npm run dist`.
 */
export async function publishLinuxRelease(options: {
  dir: string;
  url: string;
  version: string;
  artifactBytes: Uint8Array;
  releaseNotes?: string;
}): Promise<PublishedRelease> {
  const previous = process.env[UPDATE_URL_ENV];
  process.env[UPDATE_URL_ENV] = options.url;
  try {
    await mkdir(options.dir, { recursive: true });
    const config = await builderConfig();
    const packager = linuxPackager(config, options.version, options.dir);
    if (options.releaseNotes !== undefined) {
      await writeFile(join(options.dir, 'release-notes.md'), options.releaseNotes);
    }
    const artifact = join(options.dir, `Relay-Desktop-${options.version}.AppImage`);
    await writeFile(artifact, options.artifactBytes);
    // As AppImageTarget reports its artifact (isWriteUpdateInfo: true), then PublishManager.
    const publishConfigs = await getPublishConfigs(packager as never, null, Arch.x64, false);
    const tasks = await createUpdateInfoTasks(
      {
        file: artifact,
        packager,
        arch: Arch.x64,
        target: { outDir: options.dir, name: 'appImage' },
        safeArtifactName: basename(artifact),
        updateInfo: null,
        isWriteUpdateInfo: true,
      } as never,
      publishConfigs as never,
    );
    await writeUpdateInfoFiles(tasks, packager as never);
    const appUpdate = await getAppUpdatePublishConfiguration(
      packager as never,
      null,
      Arch.x64,
      false,
    );
    return {
      dir: options.dir,
      artifact,
      appUpdateYml: serializeToYaml(appUpdate as object),
    };
  } finally {
    if (previous === undefined) delete process.env[UPDATE_URL_ENV];
    else process.env[UPDATE_URL_ENV] = previous;
  }
}

export interface FeedServer {
  /** `http://127.0.0.1:<port>/relay-desktop/`: the feed's address. */
  url: string;
  /** Paths asked for, in order. */
  requests: string[];
  /** Replaces a file's bytes as served (a tampered download). */
  override(name: string, bytes: Uint8Array): void;
  close(): Promise<void>;
}

/** Serves a folder under `/relay-desktop/`, recording what is asked for. */
export async function serveFeed(dir: () => string): Promise<FeedServer> {
  const requests: string[] = [];
  const overrides = new Map<string, Uint8Array>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const name = path.replace(/^\/relay-desktop\//, '');
    const file = normalize(join(dir(), name));
    if (!path.startsWith('/relay-desktop/') || !file.startsWith(dir() + sep)) {
      res.writeHead(404).end();
      return;
    }
    const served = overrides.get(name);
    const read = served ? Promise.resolve(Buffer.from(served)) : readFile(file);
    read.then(
      (body) => res.writeHead(200, { 'content-length': body.length }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/relay-desktop/`,
    requests,
    override: (name, bytes) => overrides.set(name, bytes),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
