/**
 * The way between the page's world and the preload's in Chromium: synchronous DOM events on the
 * document, which both worlds share. A world's listener runs inside the other's `dispatchEvent`,
 * so a call and its answer are synchronous, as Electron's contextBridge calls are. A
 * `CustomEvent`'s `detail` read in another world is a structured clone made by Blink (so every
 * message crosses through the clone, as Electron's copies go through V8's serializer), made with
 * the reading world's constructors.
 *
 * Values that cross by reference (Elements, Files) go one by one before the message that names
 * them: an Element as a `MouseEvent`'s `relatedTarget`, a File inside a `DragEvent`'s
 * `DataTransfer`. Both are the same Blink object in the other world, seen through its own wrapper,
 * as Electron hands them over. A Blob that is not a File has no such way: it crosses as a
 * structured clone (the same bytes, another object), where Electron passes the same Blob.
 *
 * Event names carry a nonce the page never sees. Everything used here is taken when the world
 * starts, before the page's own scripts run.
 */
import type { Envelope, Message, Reply, World, WorldOptions } from './world';

export type Side = 'page' | 'preload';

export interface DomTransport {
  send: WorldOptions['send'];
  isReference(value: object): boolean;
  isCloneOnly(value: object): boolean;
  /** Starts taking the other side's messages for `world`. */
  listen(world: World): void;
}

export function domTransport(nonce: string, me: Side): DomTransport {
  const other: Side = me === 'page' ? 'preload' : 'page';
  const target = document;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const addListener = EventTarget.prototype.addEventListener;
  const CustomEventCtor = CustomEvent;
  const MouseEventCtor = MouseEvent;
  const DragEventCtor = DragEvent;
  const DataTransferCtor = DataTransfer;
  const ElementCtor = Element;
  const FileCtor = File;
  const BlobCtor = Blob;
  const addItem = DataTransferItemList.prototype.add;
  const itemsOf = Object.getOwnPropertyDescriptor(DataTransfer.prototype, 'items')!.get!;

  const name = (side: Side, what: string) => `${nonce}:${side}:${what}`;
  /** What crossed by reference before the message now arriving. */
  let inbox: unknown[] = [];
  let reply: Envelope<Reply | undefined> | undefined;

  function sendRefs(refs: unknown[]): void {
    for (const ref of refs) {
      if (ref instanceof FileCtor) {
        const transfer = new DataTransferCtor();
        addItem.call(itemsOf.call(transfer) as DataTransferItemList, ref);
        dispatch.call(
          target,
          new DragEventCtor(name(other, 'ref'), { dataTransfer: transfer as DataTransfer }),
        );
      } else {
        dispatch.call(
          target,
          new MouseEventCtor(name(other, 'ref'), { relatedTarget: ref as Element }),
        );
      }
    }
  }

  function takeRef(event: Event): unknown {
    if (event instanceof DragEvent) return event.dataTransfer?.files[0];
    return (event as MouseEvent).relatedTarget;
  }

  return {
    isReference(value) {
      return value instanceof ElementCtor || value instanceof FileCtor;
    },

    isCloneOnly(value) {
      return value instanceof BlobCtor;
    },

    send({ body, refs }) {
      sendRefs(refs);
      reply = undefined;
      dispatch.call(target, new CustomEventCtor(name(other, 'message'), { detail: body }));
      const answered = reply;
      reply = undefined;
      return answered ?? { body: undefined, refs: [] };
    },

    listen(world) {
      addListener.call(target, name(me, 'ref'), (event) => inbox.push(takeRef(event)));
      addListener.call(target, name(me, 'message'), (event) => {
        const refs = inbox;
        inbox = [];
        const message = (event as CustomEvent<Message>).detail;
        const answer = world.receive({ body: message, refs });
        sendRefs(answer.refs);
        dispatch.call(target, new CustomEventCtor(name(other, 'reply'), { detail: answer.body }));
      });
      addListener.call(target, name(me, 'reply'), (event) => {
        const refs = inbox;
        inbox = [];
        reply = { body: (event as CustomEvent<Reply | undefined>).detail, refs };
      });
    },
  };
}
