/** The messages between a benchmark and the services process (`child.ts`), over the fork channel. */
import type { IpcSender } from '../../../electron/main/ipc/router';
import type { IpcResult } from '../../../electron/shared/ipc/define';

export interface StartOptions {
  userDataDir: string;
  picturesDir: string;
  activeConnectionId: string;
  apiKey: string;
  /** The page's origin: the router answers only it. */
  origin: string;
  /** Chat completions are streamed from these texts in turn instead of asked of the relay. */
  chatReplies?: string[];
  tokensPerSecond?: number;
}

export type HostMessage =
  | { type: 'invoke'; id: number; channel: string; payload: unknown; sender: IpcSender }
  | { type: 'send'; channel: string; payload: unknown; sender: IpcSender }
  | { type: 'memory'; id: number };

export type ChildMessage =
  | { type: 'ready'; at: number }
  | { type: 'answer'; id: number; result: IpcResult<unknown>; at: number }
  | { type: 'event'; channel: string; payload: unknown }
  | { type: 'memory'; id: number; rss: number; heapUsed: number; collected: boolean };
