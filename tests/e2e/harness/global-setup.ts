/**
 * Once per e2e run: build the app (shared with the other projects of the run, see
 * `tests/boot/app-build.ts`) and the page bridge, and start the one browser every spec file
 * connects to. Each spec then gets a fresh context, page and set of services.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { appBuild, releaseAppBuild } from '../../boot/app-build';
import { buildPageBridge } from './build-renderer';
import { CHROMIUM_ARGS, TEST_CHROMIUM_PATH } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: { wsEndpoint: string; rendererDir: string; bridgeScript: string; appVersion: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(TEST_CHROMIUM_PATH)) {
    throw new Error(
      `The e2e tests drive Chromium, and there is none at ${TEST_CHROMIUM_PATH}. Run \`npm run test:setup\` once (it installs what the tests need), or set RELAY_E2E_CHROMIUM to a Chromium binary.`,
    );
  }
  const workDir = await mkdtemp(join(tmpdir(), 'relay-e2e-'));
  const packageJson = JSON.parse(
    await readFile(resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
  ) as { version: string };
  const [{ rendererDir }, bridge] = await Promise.all([
    appBuild(),
    buildPageBridge(packageJson.version),
  ]);
  const bridgeScript = join(workDir, 'page-bridge.js');
  await writeFile(bridgeScript, bridge);

  const server = await chromium.launchServer({
    executablePath: TEST_CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  project.provide('e2e', {
    wsEndpoint: server.wsEndpoint(),
    rendererDir,
    bridgeScript,
    appVersion: packageJson.version,
  });
  return async () => {
    await server.close();
    await rm(workDir, { recursive: true, force: true });
    await releaseAppBuild();
  };
}
