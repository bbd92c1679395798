/**
 * A relay whose chat replies the spec writes as it goes: Node's fetch to the demo relay for
 * everything, except chat completions for a prompt given here. A scripted prompt streams its
 * whole reply at once; a held prompt streams what the spec pushes, when it pushes it, and ends
 * when the spec says so. For states that only last a moment with a real relay: a reply half
 * written, a reply growing while the person scrolls, a reply stopped and continued.
 */
import type { FetchLike } from '../../../electron/main/services/relay/relay-client';

/** A reply the spec writes: `push` sends a piece of it, `end` finishes it as the relay would. */
export interface HeldReply {
  push(text: string): void;
  end(): void;
  /** Resolves once the app has asked for this reply (its stream is open). */
  readonly asked: Promise<void>;
}

interface ChatRequestBody {
  messages: { role: string; content: string }[];
}

export interface HeldChat {
  fetch: FetchLike;
  /** Streams `reply` at once for `prompt` (the last message the app sends). */
  script(prompt: string, reply: string): void;
  /** The next request whose last message is `prompt` streams what the spec pushes. */
  hold(prompt: string): HeldReply;
  /** Every chat request's messages, in order. */
  readonly requests: ChatRequestBody['messages'][];
}

const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-held',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'demo-chat',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

const FINISH = `${chunk({}, 'stop')}data: [DONE]\n\n`;

export function heldChat(): HeldChat {
  const scripted = new Map<string, string>();
  const held = new Map<string, { open(controller: ReadableStreamDefaultController): void }>();
  const requests: ChatRequestBody['messages'][] = [];
  const encoder = new TextEncoder();

  return {
    requests,
    script(prompt, reply) {
      scripted.set(prompt, reply);
    },
    hold(prompt) {
      let stream: ReadableStreamDefaultController | undefined;
      const queued: string[] = [];
      let ended = false;
      let opened!: () => void;
      const asked = new Promise<void>((resolve) => (opened = resolve));
      const send = (text: string) => {
        try {
          stream?.enqueue(encoder.encode(text));
        } catch {
          // The app stopped reading (the person pressed Stop): the rest goes nowhere.
        }
      };
      held.set(prompt, {
        open(controller) {
          stream = controller;
          for (const text of queued) send(text);
          if (ended) controller.close();
          opened();
        },
      });
      return {
        asked,
        push(text) {
          const event = chunk({ content: text }, null);
          if (stream) send(event);
          else queued.push(event);
        },
        end() {
          if (ended) return;
          ended = true;
          if (!stream) return void queued.push(FINISH);
          send(FINISH);
          try {
            stream.close();
          } catch {
            // Already cancelled by the app.
          }
        },
      };
    },
    fetch(url, init) {
      if (!url.endsWith('/v1/chat/completions') || typeof init.body !== 'string') {
        return fetch(url, init);
      }
      const { messages } = JSON.parse(init.body) as ChatRequestBody;
      requests.push(messages);
      const last = messages.at(-1)?.content ?? '';
      const reply = scripted.get(last);
      const waiting = held.get(last);
      if (reply === undefined && waiting === undefined) return fetch(url, init);
      const headers = { 'content-type': 'text/event-stream' };
      if (waiting) {
        held.delete(last);
        const body = new ReadableStream({
          start(controller) {
            // Stop aborts the request: the body then fails to read, as a real fetch's does.
            init.signal?.addEventListener('abort', () => {
              try {
                controller.error(new DOMException('The request was aborted.', 'AbortError'));
              } catch {
                // Already closed.
              }
            });
            waiting.open(controller);
          },
        });
        return Promise.resolve(new Response(body, { status: 200, headers }));
      }
      const events = (reply!.match(/[\s\S]{1,40}/g) ?? []).map((content) =>
        chunk({ content }, null),
      );
      return Promise.resolve(new Response(events.join('') + FINISH, { status: 200, headers }));
    },
  };
}

/** A long reply: `paragraphs` numbered paragraphs of plain prose. */
export function longReply(paragraphs: number): string {
  return Array.from(
    { length: paragraphs },
    (_, i) =>
      `Paragraph ${i + 1}. A long first answer keeps going so that it is taller than the window, ` +
      'the way a detailed explanation or a story does when a model takes its time.',
  ).join('\n\n');
}
