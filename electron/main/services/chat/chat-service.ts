/**
 * Sending, streaming, stopping and replacing replies.
 *
 * A reply is a row from the moment it is asked for (status 'streaming', empty text). While it
 * streams, deltas go to the page coalesced per frame, and the growing text is written at most
 * every `persistIntervalMs`, then once more at the end with its final status. A crash in between
 * leaves a 'streaming' row that `ChatStore.recover` marks interrupted, with the text last saved.
 */
import { randomUUID } from 'node:crypto';
import type { Emit, Events } from '../../../shared/ipc/contract';
import type { PayloadOf } from '../../../shared/ipc/define';
import {
  replyErrorSchema,
  type ChatUsage,
  type MessageStatus,
  type ReplyError,
} from '../../../shared/ipc/routes/chat';
import type { ChatMessage } from '../../../shared/relay-requests';
import { RelayError, REPLY_TOO_LONG, type RelayClient } from '../relay/relay-client';
import { AppError, errorInfo } from '../app-error';
import { DeltaCoalescer } from './delta-coalescer';
import type { ChatStore } from './store';

export interface ChatServiceOptions {
  store: ChatStore;
  /** Sends an event of the contract to the page. */
  emit: Emit;
  /** A relay client whose retry countdowns are reported with `requestId`. */
  client: (requestId: string) => Promise<RelayClient>;
  /** Temperature and max tokens for conversations that keep the defaults. */
  defaults: () => Promise<{ temperature: number; maxTokens: number | null }>;
  /** Default 250 ms: at most four writes a second while a reply streams. */
  persistIntervalMs?: number;
  /** Default 17 ms: at most one delta event per frame, under 60 a second (58.8). */
  deltaIntervalMs?: number;
}

export interface SendOptions {
  stream?: boolean;
}

interface ActiveReply {
  conversationId: string;
  controller: AbortController;
  done: Promise<void>;
}

/** What a failed reply keeps: the relay's error, or the app's refusal as a bad request. */
function replyErrorOf(error: unknown): ReplyError {
  const info = errorInfo(error);
  if (info === undefined)
    return {
      kind: 'internal',
      message: 'Something went wrong in the app while asking for a reply.',
    };
  // The text received is kept as the reply's content, not twice.
  const { partialText: _partialText, kind, ...rest } = info;
  const replyKind = replyErrorSchema.shape.kind.safeParse(kind);
  return { kind: replyKind.success ? replyKind.data : 'bad_request', ...rest };
}

/** Failures after which the text received is kept as an interrupted reply, not an error. */
const BREAKS = new Set(['network', 'timeout', 'aborted']);

export class ChatService {
  readonly #store: ChatStore;
  readonly #options: ChatServiceOptions;
  readonly #active = new Map<string, ActiveReply>();

  constructor(options: ChatServiceOptions) {
    this.#store = options.store;
    this.#options = options;
  }

  #conversation(id: string) {
    const conversation = this.#store.get(id);
    if (conversation === undefined)
      throw new AppError('not_found', 'That conversation no longer exists.');
    return conversation;
  }

  #ensureIdle(conversationId: string): void {
    for (const reply of this.#active.values()) {
      if (reply.conversationId === conversationId)
        throw new AppError(
          'invalid_request',
          'A reply is still being written in this conversation: stop it or wait for it to finish.',
        );
    }
  }

  #ready(conversationId: string) {
    const conversation = this.#conversation(conversationId);
    if (conversation.model === null)
      throw new AppError('invalid_request', 'Choose a model for this conversation first.');
    this.#ensureIdle(conversationId);
    return conversation as typeof conversation & { model: string };
  }

  async send(conversationId: string, text: string, options: SendOptions = {}) {
    const conversation = this.#ready(conversationId);
    const { reply, client } = await this.#prepare();
    this.#ensureIdle(conversation.id);
    const [user, assistant] = this.#store.append(conversationId, [
      { role: 'user', content: text, status: 'complete' },
      { id: reply, role: 'assistant', content: '', status: 'streaming', model: conversation.model },
    ]);
    if (conversation.messageCount === 0 && conversation.title === 'New conversation') {
      this.#store.update(conversationId, { title: titleFrom(text) });
    }
    this.#start(client, conversationId, reply, options);
    return { userMessageId: user!.id, replyId: assistant!.id };
  }

  /** Replaces the last reply with a new one. */
  async regenerate(conversationId: string, options: SendOptions = {}) {
    const conversation = this.#ready(conversationId);
    const last = this.#store.lastMessage(conversationId);
    if (last === undefined)
      throw new AppError('invalid_request', 'There is no message to reply to yet.');
    const user = last.role === 'assistant' ? this.#previousUser(conversationId, last.seq) : last;
    if (user === undefined)
      throw new AppError('invalid_request', 'There is no message to reply to yet.');
    const { reply, client } = await this.#prepare();
    this.#ensureIdle(conversation.id);
    const assistant = this.#store.transaction(() => {
      this.#store.truncateAfter(conversationId, user.seq);
      return this.#store.append(conversationId, [
        {
          id: reply,
          role: 'assistant',
          content: '',
          status: 'streaming',
          model: conversation.model,
        },
      ])[0]!;
    });
    this.#start(client, conversationId, reply, options);
    return { userMessageId: user.id, replyId: assistant.id };
  }

  /** Replaces a sent message, drops everything after it, and asks for a new reply. */
  async edit(messageId: string, text: string, options: SendOptions = {}) {
    const message = this.#store.message(messageId);
    if (message === undefined) throw new AppError('not_found', 'That message no longer exists.');
    if (message.role !== 'user')
      throw new AppError('invalid_request', 'Only your own messages can be edited.');
    const conversation = this.#ready(message.conversationId);
    const { reply, client } = await this.#prepare();
    this.#ensureIdle(conversation.id);
    const assistant = this.#store.transaction(() => {
      this.#store.truncateAfter(message.conversationId, message.seq);
      this.#store.setContent(message.id, text);
      return this.#store.append(message.conversationId, [
        {
          id: reply,
          role: 'assistant',
          content: '',
          status: 'streaming',
          model: conversation.model,
        },
      ])[0]!;
    });
    this.#start(client, message.conversationId, reply, options);
    return { userMessageId: message.id, replyId: assistant.id };
  }

  /** Aborts a reply's request; it ends 'interrupted' with the text received so far. */
  stop(replyId: string): boolean {
    const reply = this.#active.get(replyId);
    if (reply === undefined) return false;
    reply.controller.abort();
    return true;
  }

  /** Stops every reply of a conversation (before it is deleted) and waits for them to be saved. */
  async stopConversation(conversationId: string): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const reply of this.#active.values()) {
      if (reply.conversationId !== conversationId) continue;
      reply.controller.abort();
      waits.push(reply.done);
    }
    await Promise.all(waits);
  }

  /** Stops every reply and waits until each is saved: for closing the app. */
  async close(): Promise<void> {
    const waits = [...this.#active.values()].map((reply) => {
      reply.controller.abort();
      return reply.done;
    });
    await Promise.all(waits);
  }

  /** Resolves when the reply has finished and been saved (at once if it is not running). */
  async settled(replyId: string): Promise<void> {
    await this.#active.get(replyId)?.done;
  }

  #previousUser(conversationId: string, beforeSeq: number) {
    const { messages } = this.#store.messages(conversationId, { beforeSeq, limit: 1 });
    const previous = messages[0];
    return previous?.role === 'user' ? previous : undefined;
  }

  /** Gets a client before anything is written, so "no connection" leaves no orphan rows. */
  async #prepare(): Promise<{ reply: string; client: RelayClient }> {
    const reply = randomUUID();
    const client = await this.#options.client(reply);
    return { reply, client };
  }

  #start(client: RelayClient, conversationId: string, replyId: string, options: SendOptions): void {
    const controller = new AbortController();
    const entry: ActiveReply = { conversationId, controller, done: Promise.resolve() };
    this.#active.set(replyId, entry);
    entry.done = this.#run(client, conversationId, replyId, options, controller.signal).finally(
      () => this.#active.delete(replyId),
    );
  }

  #history(conversationId: string, replyId: string): ChatMessage[] {
    const conversation = this.#conversation(conversationId);
    const out: ChatMessage[] = [];
    if (conversation.systemPrompt.trim() !== '')
      out.push({ role: 'system', content: conversation.systemPrompt });
    for (const message of this.#store.messages(conversationId).messages) {
      if (message.id === replyId) break;
      // Failed replies with no text say nothing to the model.
      if (message.role === 'assistant' && message.content === '') continue;
      out.push({ role: message.role, content: message.content });
    }
    return out;
  }

  async #run(
    client: RelayClient,
    conversationId: string,
    replyId: string,
    options: SendOptions,
    signal: AbortSignal,
  ): Promise<void> {
    const { emit } = this.#options;
    let content = '';
    let saved = '';
    const deltas = new DeltaCoalescer(
      (text) => emit('chatDelta', { replyId, conversationId, text }),
      this.#options.deltaIntervalMs ?? 17,
    );
    const persist = setInterval(() => {
      if (content === saved) return;
      saved = content;
      this.#store.saveProgress(replyId, content);
    }, this.#options.persistIntervalMs ?? 250);

    let status: MessageStatus;
    let usage: ChatUsage | undefined;
    let error: ReplyError | undefined;
    let finishReason: string | null = null;
    try {
      const conversation = this.#conversation(conversationId);
      const defaults = await this.#options.defaults();
      const maxTokens = conversation.maxTokens ?? defaults.maxTokens;
      const result = await client.chat(
        {
          model: conversation.model ?? '',
          messages: this.#history(conversationId, replyId),
          temperature: conversation.temperature ?? defaults.temperature,
          ...(maxTokens === null ? {} : { max_tokens: maxTokens }),
          stream: options.stream ?? true,
        },
        {
          signal,
          onDelta: (text) => {
            content += text;
            if (options.stream ?? true) deltas.push(text);
          },
        },
      );
      content = result.content;
      usage = result.usage;
      finishReason = result.finishReason;
      status = result.interrupted ? 'interrupted' : 'complete';
    } catch (caught) {
      if (caught instanceof RelayError && caught.partialText !== undefined)
        content = caught.partialText.length >= content.length ? caught.partialText : content;
      const kind = caught instanceof RelayError ? caught.kind : 'internal';
      const cut = caught instanceof RelayError && caught.code === REPLY_TOO_LONG;
      if (kind === 'aborted') status = 'interrupted';
      else {
        error = replyErrorOf(caught);
        status = (BREAKS.has(kind) || cut) && content !== '' ? 'interrupted' : 'error';
      }
    } finally {
      clearInterval(persist);
    }
    deltas.flush();
    const update = { content, status, finishReason } as Parameters<ChatStore['saveReply']>[1];
    if (usage !== undefined) update.usage = usage;
    if (error !== undefined) update.error = error;
    try {
      this.#store.saveReply(replyId, update);
      this.#store.touch(conversationId);
    } catch {
      // The conversation was deleted meanwhile; the page is told the reply ended all the same.
    }
    const finished: PayloadOf<Events['chatReplyFinished']> = {
      replyId,
      conversationId,
      status,
      content,
    };
    if (usage !== undefined) finished.usage = usage;
    if (error !== undefined) finished.error = error;
    emit('chatReplyFinished', finished);
    emit('conversationsChanged', null);
  }
}

/** A title from the first words of the first message. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length <= 60 ? line : `${line.slice(0, 57).trimEnd()}…`;
}
