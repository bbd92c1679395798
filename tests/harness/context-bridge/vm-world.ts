/**
 * One side of the context bridge in a Node `vm` realm (`vm-realms.ts`): the copy rules of
 * `world.ts` made with this realm's constructors, and, on the preload's side, the built preload
 * run as a sandboxed preload (`sandboxed-preload.ts`). Bundled on its own and evaluated in each
 * realm.
 */
import { adopt } from './adopt';
import { runSandboxedPreload, type PreloadFunction } from './sandboxed-preload';
import { createWorld, type Envelope, type Message, type Reply } from './world';

export interface RealmLink {
  /** Hands a message to the other realm; the reply comes back (both structured-cloned). */
  send(message: Envelope<Message>): Envelope<Reply | undefined>;
  /** `v8.deserialize(v8.serialize(value))`, in the test process. */
  clone(value: unknown): unknown;
}

/** Main's side of IPC, as the preload's `ipcRenderer` reaches it. */
export interface RealmIpc {
  invoke(channel: string, args: unknown[]): Promise<{ result?: unknown; error?: string }>;
  send(channel: string, args: unknown[]): void;
}

export function startWorld(link: RealmLink) {
  const clone = (value: unknown) => adopt(link.clone(value));
  // The realm's own structured clone, as a page has one.
  if (typeof (globalThis as { structuredClone?: unknown }).structuredClone !== 'function') {
    Object.defineProperty(globalThis, 'structuredClone', {
      value: clone,
      writable: true,
      configurable: true,
    });
  }
  const world = createWorld({
    global: globalThis,
    send: link.send,
    cloneCheck: (value) => void link.clone(value),
    adopt: (value) => adopt(value),
  });
  return {
    receive: world.receive,
    /** Runs the preload in this realm; returns how main's events reach its `ipcRenderer`. */
    runPreload(preload: PreloadFunction, ipc: RealmIpc, platform: string) {
      const errors: unknown[] = [];
      const loaded = runSandboxedPreload(
        {
          world,
          clone,
          ipc: {
            async invoke(channel, args) {
              const answer = await ipc.invoke(channel, args);
              return answer.error === undefined ? { result: adopt(answer.result) } : answer;
            },
            send: (channel, args) => ipc.send(channel, args),
          },
          pathForFile: () => '',
          process: { platform, arch: 'x64' },
          reportError: (message, error) => errors.push(message, error),
        },
        preload,
      );
      return {
        errors,
        deliver: (channel: string, args: unknown[]) =>
          loaded.ipcRenderer.deliver(channel, adopt(args) as unknown[]),
      };
    },
  };
}
