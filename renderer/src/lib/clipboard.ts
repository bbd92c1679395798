import { requireBridge } from './relay-bridge';

/**
 * Puts text on the system clipboard, through main: the window refuses the page every
 * permission, clipboard writes included, so `navigator.clipboard.writeText` would fail.
 */
export async function copyText(text: string): Promise<void> {
  await requireBridge().copyText({ text });
}
