/**
 * The kinds of failure a Model Relay request can end in.
 *
 * Shared by the relay client (main), the IPC contract and the renderer, which shows one message
 * and one remedy per kind. Kept free of imports so every process can load it.
 */
export const RELAY_ERROR_KINDS = [
  'bad_request',
  'unauthorized',
  'insufficient_balance',
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  'aborted',
  'bad_response',
] as const;

export type RelayErrorKind = (typeof RELAY_ERROR_KINDS)[number];
