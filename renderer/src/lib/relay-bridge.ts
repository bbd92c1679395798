import type { Bridge } from '../../../electron/shared/ipc/bridge';
import type { Events, Routes } from '../../../electron/shared/ipc/contract';

/**
 * `window.relay`, as the preload builds it from the IPC contract: one named function per route,
 * one `on…` subscriber per event, and the app's version.
 *
 * Undefined when the page runs outside the app (a plain browser, a component test).
 */
export type RelayBridge = Bridge<Routes, Events> & { readonly appVersion: string };

export function relayBridge(): RelayBridge | undefined {
  return (window as Window & { relay?: RelayBridge }).relay;
}
