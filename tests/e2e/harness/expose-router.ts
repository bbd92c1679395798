/**
 * The page's way to main in the benchmarks: Playwright bindings, `__relayInvoke` for a call and
 * `__relaySend` for a one-way route, that hand each message to the real router with the sender
 * it came from (frame URL, top frame or not), as `ipcMain.handle` and `ipcMain.on` do in the
 * app. The page bridge script builds `window.relay` on them.
 */
import type { Page } from 'playwright-core';
import type { Router } from '../../../electron/main/ipc/router';
import { encodeBinary } from './binary-transport';
import { bindingSender } from './ordered-router';

/** One call the page made: its channel and payload, main's answer, and when it was asked. */
export interface RouterCall {
  channel: string;
  payload: unknown;
  result: unknown;
  /** `performance.now()` when the call reached the binding. */
  askedAt: number;
}

/** The main window of the app under test (Electron's webContents id). */
export const WEB_CONTENTS_ID = 1;
/** The quick ask window, when a spec opens it. */
export const QUICK_WEB_CONTENTS_ID = 2;

export async function exposeRouter(
  page: Page,
  router: Pick<Router, 'dispatch' | 'receive'>,
  hooks: {
    onCall?: (call: RouterCall) => void;
    /** Each one-way message the page sent, as it reaches the binding. */
    onSend?: (channel: string, payload: unknown) => void;
  } = {},
  webContentsId = WEB_CONTENTS_ID,
): Promise<void> {
  const { onCall, onSend } = hooks;
  await page.exposeBinding('__relaySend', (source, channel: unknown, payload: unknown) => {
    onSend?.(String(channel), payload);
    void router.receive(String(channel), payload, bindingSender(source, webContentsId));
  });
  await page.exposeBinding('__relayInvoke', async (source, channel: unknown, payload: unknown) => {
    const askedAt = performance.now();
    const result = await router.dispatch(
      String(channel),
      payload,
      bindingSender(source, webContentsId),
    );
    onCall?.({ channel: String(channel), payload, result, askedAt });
    // Typed arrays as base64: the binding's answers are JSON (see binary-transport.ts).
    return encodeBinary(result);
  });
}
