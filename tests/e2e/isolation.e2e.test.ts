import { describe, expect, it } from 'vitest';
import { RELAY_ALLOWLIST } from './harness/allowlist';
import type { PageViolation, PageWindow } from './harness/page-types';
import { e2eSuite } from './harness/suite';
import { ConnectPage } from './pages/connect-page';
import { ModelsPage } from './pages/models-page';
import { ShellPage } from './pages/shell-page';

const suite = e2eSuite({ relay: false });

describe('renderer isolation', () => {
  it('gives the page no Node, no Electron and nothing but the allowlisted bridge', async () => {
    const app = await suite.openApp();
    await new ConnectPage(app.page).waitUntilShown();
    const seen = await app.page.evaluate(() => {
      const window = globalThis as unknown as PageWindow;
      const relay = window['relay'] as Record<string, unknown>;
      return {
        require: typeof window['require'],
        process: typeof window['process'],
        ipcRenderer: typeof window['ipcRenderer'],
        module: typeof window['module'],
        electron: typeof window['electron'],
        keys: Object.keys(relay).sort(),
        types: Object.entries(relay).map(([name, value]) => [name, typeof value]),
      };
    });
    expect(seen).toMatchObject({
      require: 'undefined',
      process: 'undefined',
      ipcRenderer: 'undefined',
      module: 'undefined',
      electron: 'undefined',
    });
    expect(seen.keys).toEqual(RELAY_ALLOWLIST);
    for (const [name, type] of seen.types) {
      expect([name, type]).toEqual([name, name === 'appVersion' ? 'string' : 'function']);
    }
  });

  it('blocks an inline script and an inline style with the Content-Security-Policy', async () => {
    // The violations are the point here: the page is not expected to stay clean.
    const app = await suite.openApp({ healthyPage: false });
    await new ConnectPage(app.page).waitUntilShown();
    const outcome = await app.page.evaluate(
      () =>
        new Promise<{ ran: boolean; styled: boolean; violations: string[] }>((resolve) => {
          const window = globalThis as unknown as PageWindow;
          const violations: string[] = [];
          window.document.addEventListener('securitypolicyviolation', (event: PageViolation) => {
            violations.push(event.effectiveDirective);
          });
          const script = window.document.createElement('script');
          script.textContent = 'window.inlineScriptRan = true;';
          window.document.head.appendChild(script);
          const marker = window.document.createElement('div');
          marker.textContent = 'styled?';
          (marker as unknown as { setAttribute(n: string, v: string): void }).setAttribute(
            'style',
            'background-color: rgb(1, 2, 3)',
          );
          window.document.querySelectorAll('body')[0]!.appendChild(marker);
          // Violation events are dispatched asynchronously.
          setTimeout(() => {
            resolve({
              ran: window['inlineScriptRan'] === true,
              styled: window.getComputedStyle(marker).backgroundColor === 'rgb(1, 2, 3)',
              violations,
            });
          }, 300);
        }),
    );
    expect(outcome.ran).toBe(false);
    expect(outcome.styled).toBe(false);
    expect(outcome.violations).toEqual(
      expect.arrayContaining(['script-src-elem', 'style-src-attr']),
    );
    // Chromium reports each violation on the console too, which the harness records.
    await expect.poll(() => app.cspViolations.length).toBeGreaterThanOrEqual(2);
  });

  it('renders every screen without a style attribute or a CSP violation', async () => {
    const app = await suite.openApp();
    const connect = new ConnectPage(app.page);
    await connect.waitUntilShown();
    await connect.tryDemo.click();
    const models = new ModelsPage(app.page);
    await models.open();
    await models.waitForModels();
    const styled = () =>
      app.page.evaluate(() => {
        const window = globalThis as unknown as PageWindow;
        return Array.from(window.document.querySelectorAll('[style]')).map((e) => e.outerHTML);
      });
    await expect(styled()).resolves.toEqual([]);
    const shell = new ShellPage(app.page);
    for (const screen of ['Connections', 'Settings', 'Models'] as const) {
      await shell.open(screen);
      await expect(styled()).resolves.toEqual([]);
    }
  });

  it('refuses calls from a page on another origin', async () => {
    const app = await suite.openApp();
    await new ConnectPage(app.page).waitUntilShown();
    // The preload runs in every page the window loads: a page the app did not serve gets a bridge
    // too, and main refuses what it asks.
    await app.page.goto('data:text/html,<title>elsewhere</title>');
    const answer = await app.page.evaluate(() =>
      (
        globalThis as unknown as { relay: { listConnections(): Promise<unknown> } }
      ).relay.listConnections(),
    );
    expect(answer).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });
});
