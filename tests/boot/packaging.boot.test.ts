/**
 * What `npm run dist` packs, checked offline: electron-builder's `--dir` target, with the app's
 * own `electron-builder.yml`, run against a stand-in Electron (a folder shaped like an unpacked
 * Electron distribution: electron-builder only copies it, renames the executable and flips the
 * fuses in it), then the packed app started from its own files with the Electron double.
 *
 * What it proves: `app.asar` holds the built `out/` and production dependencies only; libsql's
 * and the keyring's native modules are outside the archive (`app.asar.unpacked`), where Electron
 * loads them from; the fuses of `electron-builder.yml` are flipped in the executable; and the main
 * bundle starts from the packed files alone (no package it needs was left out).
 *
 * What it cannot: the real Electron binary (not downloadable here), so nothing of Electron's own
 * loading (the asar reader, `onlyLoadAppFromAsar`, asar integrity) runs; installers (AppImage,
 * deb, dmg, NSIS) and signing are not built; only this machine's platform and architecture.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import asar from '@electron/asar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { PRELOAD_ROUTES } from '../../electron/shared/ipc/file-grants';
import { bootApp } from './boot-app';
import { mainProcessExports, otherProcessExports } from './electron-api';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const UPDATE_URL = 'https://downloads.example.com/relay-desktop/';

/** Where @electron/fuses looks for the fuse wire in an Electron executable. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** The V1 wire, in order, as @electron/fuses 1.8 writes it. */
const FUSES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
] as const;
/** Electron's own defaults for those fuses: what an unpacked distribution ships with. */
const DEFAULT_WIRE = '10110001';

interface PackageJson {
  name: string;
  version: string;
  productName: string;
  main: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** A package's own manifest: `node_modules/<name>/package.json` or `…/@scope/name/…`, any depth. */
const PACKAGE_MANIFEST = /(?:^|\/)node_modules\/(?:@[^/]+\/)?[^/@][^/]*\/package\.json$/;

interface LockEntry {
  name?: string;
  version?: string;
  dev?: boolean;
}

/**
 * A folder shaped like Electron's linux zip: the `electron` executable (here a shell script that
 * carries a fuse wire, so electron-builder can flip it), its license files, a locale and
 * `resources/`, where electron-builder puts `app.asar`.
 */
async function standInElectron(dir: string): Promise<void> {
  await mkdir(join(dir, 'locales'), { recursive: true });
  await mkdir(join(dir, 'resources'), { recursive: true });
  const executable = Buffer.concat([
    Buffer.from(
      '#!/bin/sh\necho "a stand-in for Electron: it cannot start the app" >&2\nexit 1\n#',
    ),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, FUSES.length]),
    Buffer.from(DEFAULT_WIRE),
    Buffer.from('\n'),
  ]);
  await writeFile(join(dir, 'electron'), executable);
  await chmod(join(dir, 'electron'), 0o755);
  await writeFile(join(dir, 'chrome-sandbox'), '');
  await writeFile(join(dir, 'LICENSE'), 'Electron license (stand-in)\n');
  await writeFile(join(dir, 'LICENSES.chromium.html'), '<p>Chromium licenses (stand-in)</p>\n');
  await writeFile(join(dir, 'locales', 'en-US.pak'), '');
  await writeFile(join(dir, 'version'), 'stand-in\n');
}

/** The fuse wire of an executable, as '0'/'1' per fuse, read the way @electron/fuses reads it. */
async function fuseWire(executable: string): Promise<Record<string, boolean>> {
  const bytes = await readFile(executable);
  const at = bytes.indexOf(FUSE_SENTINEL);
  if (at < 0) throw new Error(`${executable} has no fuse wire`);
  const start = at + FUSE_SENTINEL.length;
  expect(bytes[start]).toBe(1);
  const length = bytes[start + 1] ?? 0;
  const states = bytes.subarray(start + 2, start + 2 + length).toString('latin1');
  return Object.fromEntries(FUSES.map((name, index) => [name, states[index] === '1']));
}

/** Every file under `dir`, relative, with `/` separators. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

describe.skipIf(process.platform !== 'linux')('the packed app (electron-builder --dir)', () => {
  const { appRoot, runtime } = inject('boot');
  const arch = process.arch;
  let work: string;
  let project: string;
  let unpacked: string;
  let archive: string;
  let entries: Set<string>;
  let builderOutput = '';
  const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'relay-pack-'));
    // The project as electron-builder sees it in the repository: package.json and its lock, the
    // configuration, the icons, the built out/, and node_modules. node_modules is a copy made of
    // hard links (so it sits beside the repository's own, on the same file system): a symbolic
    // link will not do, because `npm list`, which electron-builder reads the production tree
    // from, then reports the packages hoisted beside libsql as missing and they are left out.
    await mkdir(join(ROOT, 'test-results'), { recursive: true });
    project = await mkdtemp(join(ROOT, 'test-results', 'pack-project-'));
    for (const file of ['package.json', 'package-lock.json', 'electron-builder.yml']) {
      await cp(join(ROOT, file), join(project, file));
    }
    await cp(join(ROOT, 'resources'), join(project, 'resources'), { recursive: true });
    // electron-builder.yml's beforePack hook (the update feed's https check).
    await cp(join(ROOT, 'scripts'), join(project, 'scripts'), { recursive: true });
    await cp(join(appRoot, 'out'), join(project, 'out'), { recursive: true });
    await run('cp', ['-al', join(ROOT, 'node_modules'), join(project, 'node_modules')]);
    const electronDist = join(work, 'electron-dist');
    await standInElectron(electronDist);
    const output = join(work, 'dist');
    try {
      const result = await run(
        process.execPath,
        [
          join(ROOT, 'node_modules/electron-builder/cli.js'),
          '--dir',
          '--linux',
          `--${arch}`,
          '--projectDir',
          project,
          '--publish',
          'never',
          `-c.electronDist=${electronDist}`,
          `-c.directories.output=${output}`,
        ],
        {
          cwd: project,
          maxBuffer: 16 * 1024 * 1024,
          // The update feed's address, given at build time as `npm run dist` takes it.
          env: { ...process.env, CI: 'true', RELAY_UPDATE_URL: UPDATE_URL },
        },
      );
      builderOutput = result.stdout + result.stderr;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      throw new Error(`electron-builder failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
    }
    unpacked = join(output, arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`);
    archive = join(unpacked, 'resources', 'app.asar');
    entries = new Set(asar.listPackage(archive, { isPack: false }).map((e) => e.slice(1)));
  }, 180_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('packs the built out/ whole (less source maps) with the package.json Electron reads', async () => {
    expect(existsSync(archive), builderOutput).toBe(true);
    const built = (await filesUnder(join(appRoot, 'out')))
      .filter((file) => !file.endsWith('.map'))
      .map((file) => `out/${file}`);
    expect(built).toContain('out/main/index.js');
    expect(built).toContain('out/preload/index.cjs');
    expect(built).toContain('out/renderer/index.html');
    const packedOut = [...entries].filter((e) => e.startsWith('out/') && !isFolder(e));
    expect(packedOut.sort()).toEqual(built.sort());
    // Nothing else of the repository: no sources, tests, configuration or lock file.
    const top = new Set([...entries].map((e) => e.split('/')[0]));
    expect([...top].sort()).toEqual(['node_modules', 'out', 'package.json']);
    const packed = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as PackageJson;
    expect(packed.main).toBe('out/main/index.js');
    expect(packed.name).toBe(packageJson.name);
    expect(packed.version).toBe(packageJson.version);
  });

  function isFolder(entry: string): boolean {
    const header = asar.statFile(archive, entry) as { files?: unknown };
    return header.files !== undefined;
  }

  it('packs production dependencies only', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const lockEntries = new Map<string, LockEntry[]>();
    for (const [path, entry] of Object.entries(lock.packages)) {
      const at = path.lastIndexOf('node_modules/');
      if (at < 0) continue;
      const name = entry.name ?? path.slice(at + 'node_modules/'.length);
      lockEntries.set(name, [...(lockEntries.get(name) ?? []), entry]);
    }
    // Every package in the archive, at any depth (electron-builder may hoist a nested one), by
    // the name and version it declares: the lock must know it outside the dev tree.
    const manifests = [...entries].filter((e) => PACKAGE_MANIFEST.test(e));
    expect(manifests.length).toBeGreaterThan(10);
    const devOnly: string[] = [];
    for (const manifest of manifests) {
      const { name, version } = JSON.parse(asar.extractFile(archive, manifest).toString()) as {
        name: string;
        version: string;
      };
      const known = (lockEntries.get(name) ?? []).filter((entry) => entry.version === version);
      if (known.length === 0 || known.every((entry) => entry.dev === true)) {
        devOnly.push(`${name}@${version} (${manifest})`);
      }
    }
    expect(devOnly).toEqual([]);
    for (const name of Object.keys(packageJson.devDependencies)) {
      expect(entries.has(`node_modules/${name}`), name).toBe(false);
    }
    for (const name of Object.keys(packageJson.dependencies)) {
      expect(entries.has(`node_modules/${name}/package.json`), name).toBe(true);
    }
  });

  it("keeps libsql's, the keyring's and sharp's native modules outside the archive, where Electron loads them", async () => {
    const native = [...entries].filter((e) => e.endsWith('.node'));
    const sharpVersion = (
      JSON.parse(readFileSync(join(ROOT, 'node_modules/sharp/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const expected = [
      `node_modules/@libsql/linux-${arch}-gnu/index.node`,
      `node_modules/@napi-rs/keyring-linux-${arch}-gnu/keyring.linux-${arch}-gnu.node`,
      `node_modules/@img/sharp-linux-${arch}/lib/sharp-linux-${arch}-${sharpVersion}.node`,
    ];
    expect(native).toEqual(expect.arrayContaining(expected));
    // sharp's addon links libvips, a shared library that must sit outside the archive as well.
    const libvips = [...entries].filter((e) =>
      e.startsWith(`node_modules/@img/sharp-libvips-linux-${arch}/lib/libvips`),
    );
    expect(libvips.length).toBeGreaterThan(0);
    for (const file of [...native, ...libvips]) {
      // Marked unpacked in the archive's header, so Electron's fs reads it from the folder beside.
      expect((asar.statFile(archive, file) as { unpacked?: boolean }).unpacked, file).toBe(true);
      expect(existsSync(join(`${archive}.unpacked`, file)), file).toBe(true);
    }
  });

  it('flips the fuses of electron-builder.yml in the executable', async () => {
    const config = parse(await readFile(join(ROOT, 'electron-builder.yml'), 'utf8')) as {
      electronFuses: Record<string, boolean>;
    };
    const wire = await fuseWire(join(unpacked, packageJson.name));
    for (const name of FUSES) expect(wire[name], name).toBe(config.electronFuses[name]);
    // Every one differs from Electron's default but the V8 snapshot's, so flipping happened.
    expect(
      Object.values(wire)
        .map((on) => (on ? '1' : '0'))
        .join(''),
    ).not.toBe(DEFAULT_WIRE);
  });

  it('carries the update address and the tray images beside the archive', async () => {
    const resources = join(unpacked, 'resources');
    expect(parse(await readFile(join(resources, 'app-update.yml'), 'utf8'))).toEqual({
      provider: 'generic',
      url: UPDATE_URL,
      updaterCacheDirName: `${packageJson.name}-updater`,
    });
    expect((await readdir(join(resources, 'tray'))).sort()).toEqual([
      'tray-dark.png',
      'tray-dark@2x.png',
      'tray-light.png',
      'tray-light@2x.png',
      'trayTemplate.png',
      'trayTemplate@2x.png',
    ]);
  });

  // pdf.js needs its optional @napi-rs/canvas in Node even to read text (DOMMatrix at load).
  it('reads a PDF for its text with the packed document worker and pdf.js', async () => {
    const extracted = join(work, 'app-documents');
    asar.extractAll(archive, extracted);
    const script = `
      const { Worker } = require('node:worker_threads');
      const worker = new Worker(process.argv[1], { workerData: { paths: [process.argv[2]], limits: { maxBytes: 1e7, maxChars: 1e6, maxPages: 10 } } });
      worker.on('message', (m) => { console.log(JSON.stringify(m)); process.exit(0); });
      worker.on('error', (e) => { console.error(e); process.exit(1); });`;
    const { stdout } = await run(process.execPath, [
      '-e',
      script,
      join(extracted, 'out/main/document-worker.js'),
      join(ROOT, 'tests/fixtures/documents/notes.pdf'),
    ]);
    const message = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      result?: { ok: boolean; document?: { pages?: unknown[] } };
    };
    expect(message.result?.ok, stdout).toBe(true);
    expect(message.result?.document?.pages).toHaveLength(3);
  });

  it('starts from the packed files alone', async () => {
    const extracted = join(work, 'app');
    asar.extractAll(archive, extracted);
    // Nothing above it could lend a package the archive lacks.
    for (let dir = dirname(extracted); dir !== dirname(dir); dir = dirname(dir)) {
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
    }
    const home = join(work, 'home');
    await mkdir(home);
    const app = await bootApp({
      runtime,
      main: join(extracted, 'out/main/index.js'),
      exportNames: mainProcessExports(),
      otherProcessNames: otherProcessExports(),
      home,
      appName: packageJson.productName,
      appVersion: packageJson.version,
      resourcesPath: join(unpacked, 'resources'),
    });
    try {
      await app.ready();
      await app.waitForCall('BrowserWindow#1.show');
      const state = await app.state();
      // Every route that answers has a handler, and so does the preload's own channel (a drop's
      // grants); the one-way routes are listened to instead.
      const answering = [...Object.values(ROUTES), ...Object.values(PRELOAD_ROUTES)].filter(
        (route: { oneWay?: true }) => !route.oneWay,
      );
      expect(state.ipcHandlers).toHaveLength(answering.length);
      // The tray finds its image in the package.
      expect(state.tray?.image).toEqual({
        path: join(unpacked, 'resources', 'tray', 'tray-light.png'),
        empty: false,
      });
      // It has an update address, but an unpacked folder is not an AppImage: it says so.
      expect(await app.invoke('updates:status', undefined)).toMatchObject({
        ok: true,
        value: {
          ok: true,
          value: { state: 'unsupported', reason: expect.stringMatching(/not an AppImage/) },
        },
      });
      expect((await app.request('app://relay/index.html')).status).toBe(200);
      expect(await app.invoke('settings:get', undefined)).toMatchObject({
        ok: true,
        value: { ok: true, value: { theme: 'system' } },
      });
      await app.closeWindow();
      expect(await app.exited).toEqual({ code: 0, signal: null });
      expect(app.missing).toEqual([]);
      expect(app.uncaught).toEqual([]);
    } finally {
      await app.kill();
    }
  });
});
