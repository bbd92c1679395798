/**
 * Builds the page-side bridge the e2e run injects, and the shipped renderer on its own (for the
 * benchmarks; test runs take the whole app, renderer included, from `tests/boot/app-build.ts`).
 *
 * The renderer is built with the app's own electron-vite configuration (so the page under test is
 * the page that ships), into a folder of the caller's own, so a build running beside it in `out/`
 * cannot swap files under the browser.
 */
import { resolve } from 'node:path';
import { resolveConfig } from 'electron-vite';
import { build, type InlineConfig, type Rolldown } from 'vite';

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
 * Bundles `page-bridge.ts` (the contract's `createBridge`, the very function the preload calls)
 * into one classic script for `page.addInitScript`.
 */
export async function buildPageBridge(appVersion: string): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'warn',
    define: { __APP_VERSION__: JSON.stringify(appVersion) },
    build: {
      write: false,
      minify: false,
      reportCompressedSize: false,
      lib: {
        entry: resolve(import.meta.dirname, 'page-bridge.ts'),
        formats: ['iife'],
        name: 'relayPageBridge',
      },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const [first] = Array.isArray(output) ? output : [output];
  const chunk = first?.output.find((item) => item.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('The page bridge did not build');
  return chunk.code;
}
