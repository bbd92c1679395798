/**
 * Once per run of the boot project: the app built as `npm run build` builds it (shared with the
 * e2e and reliability projects, see `app-build.ts`), and the child's runtime (the Electron double)
 * bundled beside it for plain Node.
 */
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { appBuild, releaseAppBuild } from './app-build';
import { bundleRuntime } from './boot-app';

declare module 'vitest' {
  export interface ProvidedContext {
    boot: { appRoot: string; runtime: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    const build = await appBuild();
    const runtime = await bundleRuntime(join(build.root, 'electron-double.mjs'));
    project.provide('boot', { appRoot: build.root, runtime });
  } catch (error) {
    await releaseAppBuild();
    throw error;
  }
  return releaseAppBuild;
}
