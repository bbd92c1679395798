/**
 * Quick ask: one question to the default chat model from the small window a global shortcut
 * opens, the reply streamed to that window, and then kept as a conversation (every time, or only
 * when the person opens it in the app: a setting).
 *
 * A quick ask is not a conversation until it is saved: it lives here, in memory (the last few),
 * so that "never saved" leaves nothing on disk. When the setting to offer the clipboard is on,
 * the clipboard's text (on Linux the current selection) is read once, as the window opens, and
 * sent only if the person keeps it.
 */
import type { ChatUsage, MessageStatus, ReplyError } from '../../../shared/ipc/routes/chat';
import {
  MAX_QUICK_CONTEXT_CHARS,
  type QuickAskSettings,
} from '../../../shared/ipc/routes/quick-ask';
import { titleFrom } from '../chat/chat-service';
import { DeltaCoalescer } from '../chat/delta-coalescer';
import { replyErrorOf } from '../chat/reply-error';
import type { ChatStore } from '../chat/store';
import { AppError } from '../app-error';
import { RelayError, type RelayClient } from '../relay/relay-client';
import { said, type Said } from '../words';

/** Text taken from the system as context. */
export interface ClipboardText {
  text: string;
  /** `selection`: the primary selection (Linux); `clipboard`: the clipboard. */
  source: 'selection' | 'clipboard';
}

export interface QuickAskServiceOptions {
  /** A relay client for the active connection (throws when there is none). */
  client: (requestId: string) => Promise<RelayClient>;
  /** The chat model to ask, or why there is none. */
  defaultModel: () => Promise<{ model: string | null; problem?: Said }>;
  /** Temperature and max tokens, as new chats start with them. */
  defaults: () => Promise<{ temperature: number; maxTokens: number | null }>;
  settings: () => Promise<QuickAskSettings>;
  /** Where conversations are saved. */
  store: () => ChatStore;
  /** Sends `quick-ask:delta` to the quick window. */
  emitDelta: (payload: { requestId: string; text: string }) => void;
  /** Reads the clipboard; absent where there is none. */
  readClipboard?: () => Promise<ClipboardText | undefined>;
  /** Default 17 ms: at most one delta event per frame. */
  deltaIntervalMs?: number;
}

export interface QuickAnswer {
  requestId: string;
  model: string;
  status: MessageStatus;
  content: string;
  error?: ReplyError;
  conversationId?: string;
}

interface Exchange {
  /** What was sent as the user's message (the question, with its context if kept). */
  message: string;
  model: string;
  answer?: QuickAnswer;
  usage?: ChatUsage;
  finishReason?: string | null;
  controller: AbortController;
  done: Promise<QuickAnswer>;
}

/** How many quick asks are remembered (for "Open in Relay Desktop"). */
const KEPT = 10;

/** The question with the kept context after it, quoted, as it is sent and saved. */
export function messageWithContext(prompt: string, context: string | undefined): string {
  if (context === undefined || context.trim() === '') return prompt;
  const quoted = context
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
  return `${prompt}\n\nContext:\n\n${quoted}`;
}

export class QuickAskService {
  readonly #options: QuickAskServiceOptions;
  readonly #exchanges = new Map<string, Exchange>();
  #context: (ClipboardText & { truncated: boolean }) | undefined;

  constructor(options: QuickAskServiceOptions) {
    this.#options = options;
  }

  /** As the window opens: reads the clipboard when the setting says so, else forgets it. */
  async windowShown(): Promise<void> {
    this.#context = undefined;
    const { useClipboard } = await this.#options.settings();
    if (!useClipboard || !this.#options.readClipboard) return;
    let read: ClipboardText | undefined;
    try {
      read = await this.#options.readClipboard();
    } catch {
      read = undefined;
    }
    const text = read?.text.trim() ?? '';
    if (read === undefined || text === '') return;
    const truncated = text.length > MAX_QUICK_CONTEXT_CHARS;
    this.#context = {
      source: read.source,
      text: truncated ? text.slice(0, MAX_QUICK_CONTEXT_CHARS) : text,
      truncated,
    };
  }

  /** The context read as the window opened, if any. */
  get context(): (ClipboardText & { truncated: boolean }) | undefined {
    return this.#context;
  }

  async ask(requestId: string, prompt: string, includeContext: boolean): Promise<QuickAnswer> {
    if (this.#exchanges.has(requestId)) {
      throw new AppError('invalid_request', said('quickAsk.alreadyAsked'));
    }
    const { model, problem } = await this.#options.defaultModel();
    if (model === null) {
      throw new AppError('not_found', problem ?? said('quickAsk.noModel'));
    }
    const client = await this.#options.client(requestId);
    const message = messageWithContext(
      prompt.trim(),
      includeContext ? this.#context?.text : undefined,
    );
    const controller = new AbortController();
    const exchange: Exchange = { message, model, controller, done: Promise.resolve(undefined!) };
    this.#exchanges.set(requestId, exchange);
    this.#forgetOld();
    exchange.done = this.#run(requestId, client, exchange);
    return exchange.done;
  }

  /** Stops a reply; it ends interrupted with its text kept. */
  stop(requestId: string): boolean {
    const exchange = this.#exchanges.get(requestId);
    if (exchange === undefined || exchange.answer !== undefined) return false;
    exchange.controller.abort();
    return true;
  }

  /** "Open in Relay Desktop": the conversation it was saved as (saved now if it was not). */
  continueInApp(requestId: string): string {
    const exchange = this.#exchanges.get(requestId);
    if (exchange === undefined) {
      throw new AppError('not_found', said('quickAsk.forgotten'));
    }
    if (exchange.answer === undefined) {
      throw new AppError('invalid_request', said('quickAsk.stillWriting'));
    }
    return exchange.answer.conversationId ?? this.#save(exchange);
  }

  /** Stops every reply and waits for them: for closing the app. */
  async close(): Promise<void> {
    const waits = [...this.#exchanges.values()].map((exchange) => {
      exchange.controller.abort();
      return exchange.done.catch(() => undefined);
    });
    await Promise.all(waits);
  }

  #forgetOld(): void {
    while (this.#exchanges.size > KEPT) {
      const [oldest, exchange] = this.#exchanges.entries().next().value as [string, Exchange];
      if (exchange.answer === undefined) break;
      this.#exchanges.delete(oldest);
    }
  }

  async #run(requestId: string, client: RelayClient, exchange: Exchange): Promise<QuickAnswer> {
    let content = '';
    // One reply: the coalescer's batch holds at most this one.
    const deltas = new DeltaCoalescer(
      (batch) => this.#options.emitDelta({ requestId, text: batch.map((d) => d.text).join('') }),
      this.#options.deltaIntervalMs ?? 17,
    );
    let answer: QuickAnswer;
    try {
      const defaults = await this.#options.defaults();
      const result = await client.chat(
        {
          model: exchange.model,
          messages: [{ role: 'user', content: exchange.message }],
          temperature: defaults.temperature,
          ...(defaults.maxTokens === null ? {} : { max_tokens: defaults.maxTokens }),
          stream: true,
        },
        {
          signal: exchange.controller.signal,
          onDelta: (text) => {
            content += text;
            deltas.push(requestId, requestId, text);
          },
        },
      );
      if (result.usage !== undefined) exchange.usage = result.usage;
      exchange.finishReason = result.finishReason;
      answer = {
        requestId,
        model: exchange.model,
        status: result.interrupted ? 'interrupted' : 'complete',
        content: result.content,
      };
    } catch (caught) {
      if (caught instanceof RelayError && caught.partialText !== undefined) {
        content = caught.partialText.length >= content.length ? caught.partialText : content;
      }
      const aborted = caught instanceof RelayError && caught.kind === 'aborted';
      answer = {
        requestId,
        model: exchange.model,
        status: aborted || content !== '' ? 'interrupted' : 'error',
        content,
        ...(aborted ? {} : { error: replyErrorOf(caught) }),
      };
    }
    deltas.flush();
    exchange.answer = answer;
    if ((await this.#options.settings()).saveConversations) {
      try {
        answer.conversationId = this.#save(exchange);
      } catch {
        // Not saved (the database is closing): the answer is still shown.
      }
    }
    return answer;
  }

  /** Saves a finished quick ask as a conversation of two messages. */
  #save(exchange: Exchange): string {
    const answer = exchange.answer;
    if (answer === undefined) throw new Error('A quick ask is saved once its reply has ended.');
    const store = this.#options.store();
    const id = store.transaction(() => {
      const conversation = store.create({
        title: titleFrom(exchange.message),
        model: exchange.model,
      });
      store.append(conversation.id, [
        { role: 'user', content: exchange.message, status: 'complete' },
        {
          role: 'assistant',
          content: answer.content,
          status: answer.status,
          model: exchange.model,
          ...(answer.error ? { error: answer.error } : {}),
          ...(exchange.usage ? { usage: exchange.usage } : {}),
          ...(exchange.finishReason ? { finishReason: exchange.finishReason } : {}),
        },
      ]);
      return conversation.id;
    });
    answer.conversationId = id;
    return id;
  }
}
