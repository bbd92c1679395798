/**
 * Each window gets the routes it needs: the quick ask window its own and the few it reads (the
 * language, the theme, copying), the main window every route.
 */
import { describe, expect, it } from 'vitest';
import { QUICK_WINDOW_ROUTES, windowRoutes } from '../../../electron/main/ipc/window-routes';
import { createRouter } from '../../../electron/main/ipc/router';
import { ROUTES } from '../../../electron/shared/ipc/contract';

const main = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };
const quick = { url: 'app://relay/quick.html', isMainFrame: true, webContentsId: 2 };

describe('the routes of each window', () => {
  it('names only routes of the contract, and all the quick ask ones', () => {
    for (const name of QUICK_WINDOW_ROUTES) expect(ROUTES).toHaveProperty(name);
    for (const name of Object.keys(ROUTES).filter((n) => /QuickAsk$/.test(n)))
      expect(QUICK_WINDOW_ROUTES.has(name as keyof typeof ROUTES)).toBe(true);
  });

  it('refuses the quick window a route of the main window’s, before its handler runs', async () => {
    let ran = 0;
    const handlers = new Proxy({}, { get: () => () => (ran++, null) });
    const router = createRouter(ROUTES, handlers as never, {
      isTrustedSender: () => true,
      mayCall: windowRoutes(() => [2]),
    });
    const refused = await router.dispatch('chat:delete', { id: 'a' }, quick);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(ran).toBe(0);
    expect((await router.dispatch('chat:delete', { id: 'a' }, main)).ok).toBe(true);
    expect((await router.dispatch('quick-ask:hide', undefined, quick)).ok).toBe(true);
  });
});
