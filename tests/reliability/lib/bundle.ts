import { join } from 'node:path';
import { RESULTS_DIR } from './record';

/**
 * Bundles a TypeScript entry into one ES module under reliability-results/.build (inside the
 * repository, so its packages resolve), for a child process started with plain Node and its own
 * flags (such as --expose-gc).
 */
export async function bundleScript(entry: string, name: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(RESULTS_DIR, '.build', `${name}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
