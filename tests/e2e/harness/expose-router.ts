/**
 * The page's way to main in the benchmarks: a Playwright binding, `__relayInvoke`, that
 * hands each call to the real router with the sender the call came from (frame URL, top frame or
 * not), as `ipcMain.handle` does in the app. The page bridge script builds `window.relay` on it.
 */
import type { Page } from 'playwright-core';
import type { Dispatch } from '../../../electron/main/ipc/router';
import { encodeBinary } from './binary-transport';

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
  dispatch: Dispatch,
  onCall?: (call: RouterCall) => void,
  webContentsId = WEB_CONTENTS_ID,
): Promise<void> {
  await page.exposeBinding('__relayInvoke', async (source, channel: unknown, payload: unknown) => {
    const askedAt = performance.now();
    const result = await dispatch(String(channel), payload, {
      url: source.frame.url(),
      isMainFrame: source.frame === source.page.mainFrame(),
      webContentsId,
    });
    onCall?.({ channel: String(channel), payload, result, askedAt });
    // Typed arrays as base64: the binding's answers are JSON (see binary-transport.ts).
    return encodeBinary(result);
  });
}
