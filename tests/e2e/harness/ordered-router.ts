/**
 * The e2e page's way to main and back, in one order: what the preload and IPC do in the app.
 *
 * The page bridge calls `__relayInvoke`; here it is a function of the page that hands the call to
 * the `__relayAsk` binding with an id and returns at once; the real router answers in the test
 * process, and the answer comes back to the page by `page.evaluate` (`__relayAnswer`), the same
 * way main's events come (`__relayDeliver`), each in the order main produced it. IPC keeps a
 * window's answers and events in one order in the app; a binding's own return value takes another
 * way, on which an answer read while a reply streamed could overtake the event of that reply's
 * end, so that the page thought the reply still streaming. A one-way route goes to the router's
 * `receive` through the `__relaySend` binding: nothing comes back. (The benchmarks' services process
 * keeps its answers and events in one order the same way: tests/bench/services-process/host.ts.)
 */
import type { Page } from 'playwright-core';
import type { IpcSender, Router } from '../../../electron/main/ipc/router';
import { encodeBinary } from './binary-transport';
import type { RouterCall } from './expose-router';

/** What of a page the connection uses. */
export type RouterPage = Pick<Page, 'exposeBinding' | 'addInitScript' | 'evaluate'>;

/** The page's side: calls go out by id, answers come back beside the events. */
interface AskingPage {
  __relayAsk(id: number, channel: string, payload: unknown): Promise<void>;
  __relayInvoke(channel: string, payload: unknown): Promise<unknown>;
  __relayAnswer(id: number, result: unknown): void;
}

/**
 * Calls the page's `__relayDeliver` (an event) or `__relayAnswer` (an answer) by `page.evaluate`:
 * every evaluate goes out in the order it is called and runs in the page in that order, so
 * answers and events keep the order main sent them in.
 */
export function orderedDelivery(
  page: Pick<Page, 'evaluate'>,
): (name: '__relayDeliver' | '__relayAnswer', first: unknown, second: unknown) => void {
  return (name, first, second) => {
    page
      .evaluate(
        ([name, a, b]) => {
          const target = globalThis as unknown as Record<
            string,
            ((a: never, b: never) => void) | undefined
          >;
          target[name]?.(a as never, b as never);
        },
        [name, first, second] as const,
      )
      .catch(() => undefined);
  };
}

/** The frame a binding was called from, as `ipcMain` names it to the router. */
export function bindingSender(
  source: { frame: { url(): string }; page: { mainFrame(): unknown } },
  webContentsId: number,
): IpcSender {
  return {
    url: source.frame.url(),
    isMainFrame: source.frame === source.page.mainFrame(),
    webContentsId,
  };
}

/**
 * Connects `page` to the router (call before the page is loaded). Returns how to deliver one of
 * main's events to it, in order with the answers.
 */
export async function connectRouter(
  page: RouterPage,
  router: Pick<Router, 'dispatch' | 'receive'>,
  options: {
    webContentsId: number;
    onCall?: (call: RouterCall) => void;
    onSend?: (channel: string, payload: unknown) => void;
  },
): Promise<(channel: string, payload: unknown) => void> {
  const deliver = orderedDelivery(page);
  await page.exposeBinding('__relaySend', (source, channel: unknown, payload: unknown) => {
    options.onSend?.(String(channel), payload);
    void router.receive(String(channel), payload, bindingSender(source, options.webContentsId));
  });
  await page.exposeBinding(
    '__relayAsk',
    (source, id: unknown, channel: unknown, payload: unknown) => {
      const askedAt = performance.now();
      const sender = bindingSender(source, options.webContentsId);
      void router
        .dispatch(String(channel), payload, sender)
        .catch((error: unknown) => ({
          ok: false as const,
          error: {
            kind: 'internal' as const,
            message: error instanceof Error ? error.message : String(error),
          },
        }))
        .then((result) => {
          options.onCall?.({ channel: String(channel), payload, result, askedAt });
          // Typed arrays as base64: what page.evaluate carries is JSON (see binary-transport.ts).
          deliver('__relayAnswer', id, encodeBinary(result));
        });
    },
  );
  await page.addInitScript(() => {
    const page = globalThis as unknown as AskingPage;
    const pending = new Map<number, (result: unknown) => void>();
    let next = 1;
    page.__relayInvoke = (channel, payload) =>
      new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        void page.__relayAsk(id, channel, payload);
      });
    page.__relayAnswer = (id, result) => {
      pending.get(id)?.(result);
      pending.delete(id);
    };
  });
  return (channel, payload) => deliver('__relayDeliver', channel, payload);
}
