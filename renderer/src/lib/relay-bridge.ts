/**
 * The part of `window.relay` that the preload exposes today.
 *
 * Undefined when the page runs outside the app (a plain browser, a component test).
 */
export interface RelayBridge {
  readonly appVersion: string;
}

export function relayBridge(): RelayBridge | undefined {
  return (window as Window & { relay?: RelayBridge }).relay;
}
