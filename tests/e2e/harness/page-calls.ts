/**
 * A route called from the page itself, as the page's own code calls it: `window.relay.<route>`,
 * whose answer is the router's result as data (`{ ok, value }` or `{ ok: false, error }`).
 */
import type { Page } from 'playwright-core';
import type { AnsweredBridge } from '../../../electron/shared/ipc/bridge';
import type { Events, Routes } from '../../../electron/shared/ipc/contract';

type RelayBridge = AnsweredBridge<Routes, Events>;

/** The routes that answer (a one-way route does not). */
type RouteName = {
  [Name in keyof Routes]: Routes[Name] extends { oneWay: true } ? never : Name;
}[keyof Routes];

/** The route's value, or an error with main's message when it failed. */
export async function callFromPage<Name extends RouteName>(
  page: Page,
  route: Name,
  ...payload: Parameters<RelayBridge[Name]>
): Promise<Awaited<ReturnType<RelayBridge[Name]>>> {
  const result = await page.evaluate(
    ([name, args]) =>
      (globalThis as unknown as { relay: Record<string, (...a: unknown[]) => Promise<unknown>> })
        .relay[name]!(...args),
    [route, payload] as const,
  );
  const outcome = result as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!outcome.ok) throw new Error(`${route} failed in the page: ${outcome.error?.message}`);
  return outcome.value as Awaited<ReturnType<RelayBridge[Name]>>;
}
