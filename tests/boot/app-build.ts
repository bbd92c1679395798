/**
 * The app as `npm run build` writes it, built once per test run and shared by every project that
 * needs it: the boot tests load all of it, the e2e and reliability suites serve its renderer.
 *
 * It is `electron-vite build` with the app's own `electron.vite.config.ts`; only the output folder
 * differs: `test-results/app-build-<random>/out/{main,preload,renderer}` instead of `out/`, so a
 * build or `npm run dev` running beside the tests cannot swap files under them. That folder is
 * inside the repository, so the main bundle's external packages resolve from `node_modules` as
 * they do from `out/`, and its layout relative to `out/` is the same, so `out/main/index.js` finds
 * `../preload/index.cjs` and `../renderer/` as it does in the app.
 *
 * Vitest runs each project's global setup on its own, in one process: the build is kept on
 * `globalThis`, so one `npm test` builds once whichever projects run, and the folder goes when
 * the last project that took it lets it go.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'electron-vite';

const ROOT = resolve(import.meta.dirname, '../..');

export interface AppBuild {
  /** The folder that holds `out/`, as the repository does after `npm run build`. */
  root: string;
  /** `<root>/out`. */
  outDir: string;
  /** `<root>/out/main/index.js`: the entry Electron runs (package.json `main`). */
  mainEntry: string;
  /** `<root>/out/renderer`: the page the app serves from `app://relay/`. */
  rendererDir: string;
}

interface SharedBuild {
  users: number;
  ready: Promise<AppBuild>;
}

const KEY = Symbol.for('relay-desktop.tests.app-build');
const shared = globalThis as typeof globalThis & { [KEY]?: SharedBuild };

async function buildOnce(): Promise<AppBuild> {
  const parent = join(ROOT, 'test-results');
  await mkdir(parent, { recursive: true });
  const root = await mkdtemp(join(parent, 'app-build-'));
  const outDir = join(root, 'out');
  try {
    await build({ root: ROOT, logLevel: 'warn', build: { outDir } });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    root,
    outDir,
    mainEntry: join(outDir, 'main', 'index.js'),
    rendererDir: join(outDir, 'renderer'),
  };
}

/** The run's build (started by the first caller); pair every call with `releaseAppBuild()`. */
export function appBuild(): Promise<AppBuild> {
  const entry = (shared[KEY] ??= { users: 0, ready: buildOnce() });
  entry.users += 1;
  return entry.ready;
}

/** Lets the build go; the last user removes its folder. */
export async function releaseAppBuild(): Promise<void> {
  const entry = shared[KEY];
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  delete shared[KEY];
  const built = await entry.ready.catch(() => undefined);
  if (built) await rm(built.root, { recursive: true, force: true });
}
