/**
 * The preload's side of the context bridge in Chromium: run in an isolated world of the page (a
 * world of its own, as Electron's preload world is), it runs the built preload as a sandboxed
 * preload (`sandboxed-preload.ts`) with Electron's copy rules between this world and the page's
 * (`world.ts`), and `ipcRenderer` over a DevTools binding of this world only, so the page itself
 * can reach main through nothing but what the preload exposed.
 *
 * The test process answers calls and sends events by calling this world's `host` functions
 * (`chromium.ts`), in the order main produced them. The harness's own helpers live here too:
 * files dropped "from disk" are made in this world with their path recorded, which is what
 * `webUtils.getPathForFile` reads.
 *
 * Bundled into a classic script; the configuration is put in when a page is connected.
 */
import { browserBase64, createJsonWire } from './json-wire';
import { domTransport } from './dom-transport';
import { runSandboxedPreload, type PreloadFunction } from './sandboxed-preload';
import type { DroppedFile, HostMessage, PreloadWorldConfig } from './protocol';
import { createWorld } from './world';

export function startPreloadWorld(config: PreloadWorldConfig, preload: PreloadFunction): void {
  if (window.top !== window) return; // Electron runs preloads in the top frame only.
  const globals = globalThis as unknown as Record<string, unknown>;
  const binding = globals[config.binding] as ((payload: string) => void) | undefined;
  if (typeof binding !== 'function') throw new Error('The preload world has no IPC binding.');
  delete globals[config.binding];
  const wire = createJsonWire(browserBase64);
  const clone = structuredClone;
  const transport = domTransport(config.nonce, 'preload');
  const world = createWorld({
    global: globalThis,
    send: transport.send,
    isReference: transport.isReference,
    isCloneOnly: transport.isCloneOnly,
    cloneCheck: (value) => void clone(value),
  });
  transport.listen(world);

  const waiting = new Map<number, (answer: { result?: unknown; error?: string }) => void>();
  let nextCall = 1;
  const filePaths = new WeakMap<File, string>();
  const post = (message: unknown) => binding(JSON.stringify(wire.encode(message)));
  const loaded = runSandboxedPreload(
    {
      world,
      clone: (value) => clone(value),
      ipc: {
        invoke(channel, args) {
          return new Promise((resolve) => {
            const id = nextCall++;
            waiting.set(id, resolve);
            post({ type: 'invoke', id, channel, args });
          });
        },
        send(channel, args) {
          post({ type: 'send', channel, args });
        },
      },
      pathForFile(file) {
        if (!(file instanceof File)) throw new TypeError('getPathForFile takes a File.');
        return filePaths.get(file) ?? '';
      },
      process: { platform: config.platform, arch: 'x64' },
      reportError(message, error) {
        console.error(message);
        console.error(error);
      },
    },
    preload,
  );

  function receive(message: HostMessage): void {
    if (message.type === 'answer') {
      const done = waiting.get(message.id);
      waiting.delete(message.id);
      done?.(message);
    } else {
      loaded.ipcRenderer.deliver(message.channel, message.args);
    }
  }

  const host = {
    /** Main's answers and events, JSON-encoded, in the order main produced them. */
    receive(encoded: unknown) {
      receive(wire.decode(encoded) as HostMessage);
    },
    /** Drops files on the element `selector` finds, as a drop from the file manager does. */
    dropFiles(selector: string, files: DroppedFile[]) {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`Nothing to drop files on: ${selector}`);
      const transfer = new DataTransfer();
      for (const file of files) {
        const made = new File([browserBase64.decode(file.base64) as BlobPart], file.name, {
          type: file.type,
          ...(file.lastModified === undefined ? {} : { lastModified: file.lastModified }),
        });
        filePaths.set(made, file.path);
        transfer.items.add(made);
      }
      for (const type of ['dragenter', 'dragover', 'drop']) {
        element.dispatchEvent(
          new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }),
        );
      }
    },
    /** What the JSON hop's base64 of typed arrays cost in this world. */
    binaryCost: () => ({ ...wire.cost.decode }),
  };
  Object.defineProperty(globalThis, config.host, { value: host });

  if (config.eventStream) {
    const source = new EventSource(config.eventStream);
    source.onmessage = (event: MessageEvent<string>) => {
      const [channel, payload] = JSON.parse(event.data) as [string, unknown];
      loaded.ipcRenderer.deliver(channel, [payload]);
    };
  }
}
