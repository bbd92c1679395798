/**
 * What the browser benchmarks share: build a page with Vite (React, the renderer's own source),
 * serve it with the page's CSP, and open it in the harness's Chromium with a CDP session for
 * main-thread time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { build } from 'vite';
import { compiledCatalogues } from '../../../scripts/vite-catalogues';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/browser';
import { serveDirectory, type StaticServer } from '../../e2e/harness/static-server';

export interface BenchPage {
  page: Page;
  cdp: CDPSession;
  chromium: string;
  /** Main-thread task time so far, in milliseconds (Chromium's `TaskDuration`). */
  taskMs(): Promise<number>;
  close(): Promise<void>;
}

export async function openBenchPage(root: string): Promise<BenchPage> {
  const outDir = await mkdtemp(join(tmpdir(), 'relay-bench-page-'));
  let server: StaticServer | undefined;
  let browser: Browser | undefined;
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      // The app's catalogues, compiled as the app's build compiles them.
      plugins: [react(), compiledCatalogues()],
      build: {
        outDir,
        emptyOutDir: true,
        reportCompressedSize: false,
        // Readable function names in profiles (diagnostics only): BENCH_NO_MINIFY=1.
        minify: process.env.BENCH_NO_MINIFY !== '1',
      },
    });
    server = await serveDirectory(outDir);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    const context = await browser.newContext({ viewport: { width: 1180, height: 780 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.origin);
    await page.waitForFunction(() => '__bench' in globalThis);
    if (errors.length > 0) throw new Error(`The bench page failed: ${errors.join('; ')}`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const openedServer = server;
    const openedBrowser = browser;
    return {
      page,
      cdp,
      chromium: browser.version(),
      async taskMs() {
        const { metrics } = await cdp.send('Performance.getMetrics');
        const task = metrics.find((m) => m.name === 'TaskDuration');
        if (!task) throw new Error('Chromium reported no TaskDuration');
        return task.value * 1000;
      },
      async close() {
        await openedBrowser.close();
        await openedServer.close();
        await rm(outDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await server?.close();
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }
}
