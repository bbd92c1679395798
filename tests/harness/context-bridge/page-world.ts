/**
 * The page's side of the context bridge in Chromium: run in the page's own (main) world before
 * any of the page's scripts, it takes what the preload's world exposes (`window.relay`, made here
 * with this world's constructors by the copy rules of `world.ts`) and the page's calls back.
 *
 * Bundled into a classic script; the nonce is put in when a page is connected.
 */
import { domTransport } from './dom-transport';
import { createWorld } from './world';

export function startPageWorld(nonce: string): void {
  const transport = domTransport(nonce, 'page');
  const clone = structuredClone;
  const world = createWorld({
    global: globalThis,
    send: transport.send,
    isReference: transport.isReference,
    isCloneOnly: transport.isCloneOnly,
    cloneCheck: (value) => void clone(value),
  });
  transport.listen(world);
}
