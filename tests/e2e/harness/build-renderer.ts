/**
 * Builds the shipped renderer and preload on their own, for the benchmarks (test runs take the
 * whole app from `tests/boot/app-build.ts`).
 *
 * The renderer is built with the app's own electron-vite configuration (so the page under test is
 * the page that ships), into a folder of the caller's own, so a build running beside it in `out/`
 * cannot swap files under the browser.
 */
import { join, resolve } from 'node:path';
import { resolveConfig } from 'electron-vite';
import { build, type InlineConfig } from 'vite';
import { buildBridgeScripts, type BridgeScripts } from '../../harness/context-bridge/chromium';

const ROOT = resolve(import.meta.dirname, '../../..');

export async function buildRenderer(outDir: string): Promise<void> {
  process.env['NODE_ENV_ELECTRON_VITE'] = 'production';
  const resolved = await resolveConfig({ root: ROOT, logLevel: 'warn' }, 'build', 'production');
  const renderer = resolved.config?.renderer as InlineConfig | undefined;
  if (!renderer) throw new Error('electron.vite.config.ts has no renderer configuration');
  await build({
    ...renderer,
    configFile: false,
    logLevel: 'warn',
    build: { ...renderer.build, outDir, emptyOutDir: true, reportCompressedSize: false },
  });
}

/**
 * Builds the shipped preload (`index.cjs`, as `npm run build` writes it to `out/preload/`) into
 * `outDir`, and the scripts that run it in a page behind the context bridge
 * (tests/harness/context-bridge).
 */
export async function buildPreloadScripts(outDir: string): Promise<BridgeScripts> {
  process.env['NODE_ENV_ELECTRON_VITE'] = 'production';
  const resolved = await resolveConfig({ root: ROOT, logLevel: 'warn' }, 'build', 'production');
  const preload = resolved.config?.preload as InlineConfig | undefined;
  if (!preload) throw new Error('electron.vite.config.ts has no preload configuration');
  await build({
    ...preload,
    configFile: false,
    logLevel: 'warn',
    build: { ...preload.build, outDir, emptyOutDir: true, reportCompressedSize: false },
  });
  return buildBridgeScripts(join(outDir, 'index.cjs'));
}
