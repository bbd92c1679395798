/**
 * The app's main-process services in a Node process of their own, as Electron's main process
 * holds them: the real services and router over a generated user data folder, answering the
 * page's calls and sending events over the fork channel (structured clone, as Electron's IPC).
 *
 * Bundled into one ES module (`bundle.ts`) and started with plain `node`, so a start costs what
 * loading the app's main bundle costs, with no TypeScript compiled on the way. Times are
 * `performance.now()`: milliseconds since this process started.
 */
import { readFileSync } from 'node:fs';
import { createAppServices } from '../../../electron/main/app-services';
import { createRouter, trustedSender, type Router } from '../../../electron/main/ipc/router';
import type { FetchLike } from '../../../electron/main/services/relay/relay-client';
import { MemorySecretStore } from '../../../electron/main/services/secret-store';
import { ROUTES } from '../../../electron/shared/ipc/contract';
import type { ChildMessage, HostMessage, StartOptions } from './protocol';

const argument = process.argv[2] ?? '{}';
const start = JSON.parse(
  argument.startsWith('{') ? argument : readFileSync(argument, 'utf8'),
) as StartOptions;
const send = (message: ChildMessage) => {
  // After the benchmark has let go (the app quitting), nothing is listening any more; a send
  // already under way when it lets go fails (EPIPE) and is dropped, not thrown.
  if (process.connected) process.send?.(message, undefined, {}, () => undefined);
};
const queued: Array<Extract<HostMessage, { type: 'invoke' | 'send' }>> = [];
const router: Partial<Pick<Router, 'dispatch' | 'receive'>> = {};

async function answer(message: Extract<HostMessage, { type: 'invoke' }>): Promise<void> {
  const result = await router.dispatch!(message.channel, message.payload, message.sender);
  send({ type: 'answer', id: message.id, result, at: performance.now() });
}

/** A call is answered; a one-way message goes to the router's `receive`, with no answer. */
function take(message: Extract<HostMessage, { type: 'invoke' | 'send' }>): void {
  if (message.type === 'invoke') void answer(message);
  else void router.receive!(message.channel, message.payload, message.sender);
}

process.on('message', (raw) => {
  const message = raw as HostMessage;
  if (message.type === 'invoke' || message.type === 'send') {
    if (router.dispatch) take(message);
    else queued.push(message);
  } else if (message.type === 'memory') {
    // Two collections: the second frees what finalizers of the first let go.
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    send({ type: 'memory', id: message.id, rss, heapUsed, collected: gc !== undefined });
  }
});

/** Chat completions streamed from `start.chatReplies` in turn (the rest goes to the relay). */
function scriptedChat(replies: readonly string[], tokensPerSecond: number): FetchLike {
  let next = 0;
  return async (url, init) => {
    if (!url.endsWith('/chat/completions')) return fetch(url, init);
    const text = replies[next++ % replies.length] ?? '';
    const pieces = text.match(/\s*\S+|\s+/g) ?? [];
    const encoder = new TextEncoder();
    const signal = init.signal ?? undefined;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const frame = (delta: Record<string, unknown>, finish: string | null) =>
          encoder.encode(
            `data: ${JSON.stringify({
              id: 'chatcmpl-bench',
              object: 'chat.completion.chunk',
              created: 0,
              model: 'demo-chat',
              choices: [{ index: 0, delta, finish_reason: finish }],
            })}\n\n`,
          );
        const perTick = Math.max(1, Math.round(tokensPerSecond / 100));
        for (let i = 0; i < pieces.length; i += perTick) {
          if (signal?.aborted) return controller.error(new Error('aborted'));
          controller.enqueue(frame({ content: pieces.slice(i, i + perTick).join('') }, null));
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        controller.enqueue(frame({}, 'stop'));
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

const secrets = new MemorySecretStore();
await secrets.set(start.activeConnectionId, start.apiKey);
const services = await createAppServices({
  userDataDir: start.userDataDir,
  picturesDir: start.picturesDir,
  secretStore: secrets,
  emit: (channel, payload) => send({ type: 'event', channel, payload }),
  ...(start.chatReplies
    ? { fetch: scriptedChat(start.chatReplies, start.tokensPerSecond ?? 4000) }
    : {}),
});
const created = createRouter(ROUTES, services.handlers, {
  isTrustedSender: trustedSender([start.origin], () => [1]),
});
router.receive = created.receive;
router.dispatch = created.dispatch;
send({ type: 'ready', at: performance.now() });
for (const message of queued.splice(0)) take(message);

process.on('disconnect', () => {
  void services.close().finally(() => process.exit(0));
});
