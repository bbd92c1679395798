/** What the test process and the preload's world in Chromium say to each other. */

export interface PreloadWorldConfig {
  nonce: string;
  /** The DevTools binding that carries this world's IPC to the test process. */
  binding: string;
  /** Where this world's functions for the test process are (a global of this world only). */
  host: string;
  platform: string;
  /** An event stream main's events come over instead of the DevTools protocol (benchmarks). */
  eventStream?: string | undefined;
}

/** What the test process sends into this world. */
export type HostMessage =
  | { type: 'answer'; id: number; result?: unknown; error?: string }
  | { type: 'event'; channel: string; args: unknown[] };

/** A file the test drops "from disk": its bytes, name, type and path. */
export interface DroppedFile {
  name: string;
  type: string;
  base64: string;
  path: string;
  lastModified?: number;
}
