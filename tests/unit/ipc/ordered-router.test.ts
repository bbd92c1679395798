/**
 * The e2e harness's way between the page and the router: main's answers and its events reach the
 * page by one way, in the order main produced them, as IPC keeps a window's answers and events in
 * one order in the app. (A binding's own return value takes another way, on which an answer read
 * while a reply streamed could overtake the event of that reply's end.)
 */
import { describe, expect, it } from 'vitest';
import type { Dispatch, Receive } from '../../../electron/main/ipc/router';
import { connectRouter, type RouterPage } from '../../e2e/harness/ordered-router';

type Binding = (source: unknown, ...args: unknown[]) => unknown;

/** A page that records what is run in it, in order, and keeps its bindings to be called. */
function fakePage() {
  const bindings = new Map<string, Binding>();
  const evaluated: unknown[] = [];
  const page: RouterPage = {
    exposeBinding: async (name: string, binding: Binding) => {
      bindings.set(name, binding);
    },
    addInitScript: async () => undefined,
    evaluate: async (_fn: unknown, arg: unknown) => {
      evaluated.push(arg);
    },
  } as unknown as RouterPage;
  const frame = { url: () => 'http://127.0.0.1:1/' };
  const source = { frame, page: { mainFrame: () => frame } };
  return { page, bindings, evaluated, source };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const noReceive: Receive = async () => undefined;

describe('answers and events to the page', () => {
  it('go by one way, in the order main produced them: an event before the answer that followed it', async () => {
    const { page, bindings, evaluated, source } = fakePage();
    const main: { deliver?: (channel: string, payload: unknown) => void } = {};
    const dispatch: Dispatch = async (channel) => {
      // While main answers, the reply ends: its event is sent first.
      main.deliver!('chat:reply-finished', { replyId: 'r1' });
      return { ok: true, value: `answer to ${channel}` };
    };
    main.deliver = await connectRouter(
      page,
      { dispatch, receive: noReceive },
      { webContentsId: 1 },
    );
    const returned = await bindings.get('__relayAsk')!(source, 7, 'chat:get', { id: 'c1' });
    await settle();
    // Nothing comes back by the binding's own way.
    expect(returned).toBeUndefined();
    expect(evaluated).toEqual([
      ['__relayDeliver', 'chat:reply-finished', { replyId: 'r1' }],
      ['__relayAnswer', 7, { ok: true, value: 'answer to chat:get' }],
    ]);
  });

  it('asks the router with the sender the call came from, and tells what was answered', async () => {
    const { page, bindings, source } = fakePage();
    const senders: unknown[] = [];
    const calls: unknown[] = [];
    await connectRouter(
      page,
      {
        dispatch: async (_channel, _payload, sender) => {
          senders.push(sender);
          return { ok: true, value: null };
        },
        receive: noReceive,
      },
      {
        webContentsId: 2,
        onCall: ({ channel, payload, result }) => calls.push({ channel, payload, result }),
      },
    );
    await bindings.get('__relayAsk')!(source, 1, 'app:info', undefined);
    await settle();
    expect(senders).toEqual([{ url: 'http://127.0.0.1:1/', isMainFrame: true, webContentsId: 2 }]);
    expect(calls).toEqual([
      { channel: 'app:info', payload: undefined, result: { ok: true, value: null } },
    ]);
  });

  it('a router that throws still answers the page, with an internal error', async () => {
    const { page, bindings, evaluated, source } = fakePage();
    await connectRouter(
      page,
      {
        dispatch: async () => {
          throw new Error('boom');
        },
        receive: noReceive,
      },
      { webContentsId: 1 },
    );
    await bindings.get('__relayAsk')!(source, 3, 'chat:get', {});
    await settle();
    expect(evaluated).toEqual([
      ['__relayAnswer', 3, { ok: false, error: { kind: 'internal', message: 'boom' } }],
    ]);
  });

  it('hands a one-way message to the router with its sender, and sends nothing back', async () => {
    const { page, bindings, evaluated, source } = fakePage();
    const received: unknown[] = [];
    const sent: string[] = [];
    await connectRouter(
      page,
      {
        dispatch: async () => ({ ok: true, value: null }),
        receive: async (channel, payload, sender) => {
          received.push({ channel, payload, sender });
        },
      },
      { webContentsId: 1, onSend: (channel) => sent.push(channel) },
    );
    const returned = await bindings.get('__relaySend')!(source, 'chat:frame-ready', undefined);
    await settle();
    expect(returned).toBeUndefined();
    expect(received).toEqual([
      {
        channel: 'chat:frame-ready',
        payload: undefined,
        sender: { url: 'http://127.0.0.1:1/', isMainFrame: true, webContentsId: 1 },
      },
    ]);
    expect(sent).toEqual(['chat:frame-ready']);
    expect(evaluated).toEqual([]);
  });
});
