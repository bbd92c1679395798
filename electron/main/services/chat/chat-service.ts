/**
 * Sending, streaming, stopping and adding replies, on the conversation tree.
 *
 * A reply is a row from the moment it is asked for (status 'streaming', empty text), with the
 * model and temperature it is asked with. While it streams, deltas go to the page coalesced per
 * frame across every streaming reply, and the growing text is written at most every
 * `persistIntervalMs`, then once more at the end with its final status, usage and timing. A
 * crash in between leaves a 'streaming' row that `ChatStore.recover` marks interrupted, with the
 * text last saved.
 *
 * What each operation does to the tree (nothing is ever deleted or rewritten):
 * - send: a user message under the path's end, and a reply under it; the reply ends the path.
 * - edit: a new user message beside the one edited (same parent, new id: the one edited keeps its
 *   id, its text and whatever other domains keep for it) and a reply under it.
 * - regenerate / `addSiblingReply`: a new reply beside a reply (same parent message).
 * - compare: a user message and 2 to 4 replies under it, one batch; the path ends at the message
 *   until `continueWith` picks a reply.
 * - continue: a reply that stopped early (the last of the path) streams again under its own id,
 *   the relay's rest added to its text; no row is added.
 */
import { randomUUID } from 'node:crypto';
import type { Emit, Events } from '../../../shared/ipc/contract';
import type { PayloadOf } from '../../../shared/ipc/define';
import {
  type ChatMessageRecord,
  type ChatUsage,
  type ConversationSummary,
  type CompareTarget,
  type MessageStatus,
  type ReplyError,
  type ReplyTiming,
} from '../../../shared/ipc/routes/chat';
import type { ChatMessage, RelayMessage } from '../../../shared/relay-requests';
import { grantKey, type ApprovalAnswer } from '../mcp/approval';
import { runToolTurn, sumUsage } from '../mcp/tool-loop';
import {
  PendingAnswers,
  ReplyToolsRecord,
  toolMessages,
  withinBudget,
  type ChatTools,
} from './chat-tools';
import { RelayError, REPLY_TOO_LONG, type RelayClient } from '../relay/relay-client';
import { AppError } from '../app-error';
import { replyErrorOf } from './reply-error';
import {
  messageContent,
  type AttachmentStore,
  type ReadAttachment,
  type StoredAttachment,
} from './attachments';
import type { RecordedRetrieval, ReplyRetrieval } from '../knowledge/retrieval';
import { DeltaCoalescer } from './delta-coalescer';
import { DEFAULT_TITLE, type ChatStore, type NewMessage } from './store';
import { said } from '../words';

export interface ChatServiceOptions {
  store: ChatStore;
  /** The files sent with messages; without it, messages carry none. */
  attachments?: AttachmentStore;
  /** The knowledge bases' retrieval before each reply; without it, replies are asked without. */
  retrieval?: ReplyRetrieval;
  /** Sends an event of the contract to the page. */
  emit: Emit;
  /** A relay client whose retry countdowns are reported with `requestId`. */
  client: (requestId: string) => Promise<RelayClient>;
  /**
   * Whether a model reads images (the model list, with the person's setting); false: the images
   * of earlier messages are left out of its requests. Without it, every model is sent them.
   */
  acceptsImages?: (model: string) => Promise<boolean | undefined>;
  /** Temperature and max tokens for conversations that keep the defaults. */
  defaults: () => Promise<{ temperature: number; maxTokens: number | null }>;
  /** MCP tools for conversations that choose servers; without it, replies use no tools. */
  tools?: ChatTools;
  /** Default 250 ms: at most four writes a second while a reply streams. */
  persistIntervalMs?: number;
  /**
   * Default 1000/60 ms: at most 60 delta events a second; once the page paces them
   * (`frameShown`), one per frame it shows.
   */
  deltaIntervalMs?: number;
  now?: () => number;
}

export interface SendOptions {
  stream?: boolean | undefined;
}

/** What a caller may change about a reply it adds (`addSiblingReply`). */
export interface ReplyOptions extends SendOptions {
  /** Another model than the conversation's. */
  model?: string;
  /** Another temperature than the conversation's. */
  temperature?: number;
  /**
   * Changes what the model is asked with: gets the messages (system prompt first, the reply's
   * parent last) and returns those to send, e.g. with passages of the person's files added.
   */
  messages?: (history: ChatMessage[]) => ChatMessage[] | Promise<ChatMessage[]>;
}

interface ActiveReply {
  conversationId: string;
  batchId: string | undefined;
  controller: AbortController;
  done: Promise<void>;
}

/** A stopped reply being continued: its text, cost and timing so far. */
interface Continuing {
  text: string;
  usage: ChatUsage | undefined;
  timing: ReplyTiming | undefined;
}

/** The usage of a reply written over two requests: each count the sum of both, where known. */
export function addUsage(
  before: ChatUsage | undefined,
  now: ChatUsage | undefined,
): ChatUsage | undefined {
  return sumUsage(before, now);
}

/** The reply's options with the retrieved sources added to what the model is asked with. */
function withRetrieval(
  options: ReplyOptions,
  retrieval: RecordedRetrieval | undefined,
): ReplyOptions {
  if (retrieval === undefined) return options;
  const before = options.messages;
  return {
    ...options,
    messages: async (history) => retrieval.messages(before ? await before(history) : history),
  };
}

/** Failures after which the text received is kept as an interrupted reply, not an error. */
const BREAKS = new Set(['network', 'timeout', 'aborted']);

/** A question, and the reply to it that starts streaming (its id chosen before the request). */
function questionAndReply(
  text: string,
  replyId: string,
  model: string,
  temperature: number,
): NewMessage[] {
  return [
    { role: 'user', content: text, status: 'complete' },
    { id: replyId, role: 'assistant', content: '', status: 'streaming', model, temperature },
  ];
}

export class ChatService {
  readonly #store: ChatStore;
  readonly #options: ChatServiceOptions;
  readonly #active = new Map<string, ActiveReply>();
  readonly #deltas: DeltaCoalescer;
  readonly #now: () => number;
  readonly #answers = new PendingAnswers();

  constructor(options: ChatServiceOptions) {
    this.#store = options.store;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#deltas = new DeltaCoalescer(
      (deltas) => options.emit('chatDelta', { deltas }),
      options.deltaIntervalMs,
    );
  }

  #conversation(id: string) {
    const conversation = this.#store.get(id);
    if (conversation === undefined) throw new AppError('not_found', said('chat.conversationGone'));
    return conversation;
  }

  #message(id: string): ChatMessageRecord {
    const message = this.#store.message(id);
    if (message === undefined || this.#store.get(message.conversationId) === undefined)
      throw new AppError('not_found', said('chat.messageGone'));
    return message;
  }

  #ensureIdle(conversationId: string): void {
    for (const reply of this.#active.values()) {
      if (reply.conversationId === conversationId)
        throw new AppError('invalid_request', said('chat.replyInProgress'));
    }
  }

  #ready(conversationId: string) {
    const conversation = this.#conversation(conversationId);
    if (conversation.model === null)
      throw new AppError('invalid_request', said('chat.chooseModel'));
    this.#ensureIdle(conversationId);
    return conversation as typeof conversation & { model: string };
  }

  /** The path's end, refusing while a compare waits for the person to choose a reply. */
  #leafToFollow(conversationId: string): string | null {
    const leaf = this.#store.leafOf(conversationId);
    if (leaf === undefined) return null;
    const message = this.#store.message(leaf);
    if (message?.role === 'user' && this.#store.children(leaf).length > 0)
      throw new AppError('invalid_request', said('chat.chooseReply'));
    return leaf;
  }

  async #temperatureOf(conversation: { temperature: number | null }): Promise<number> {
    return conversation.temperature ?? (await this.#options.defaults()).temperature;
  }

  /** A message (with the files read for it, stored in the same transaction) and a reply to it. */
  async send(
    conversationId: string,
    text: string,
    options: SendOptions = {},
    files: readonly ReadAttachment[] = [],
  ) {
    const conversation = this.#ready(conversationId);
    const temperature = await this.#temperatureOf(conversation);
    const retrieval = await this.#retrieve(conversationId, text);
    const { reply, client } = await this.#prepare();
    this.#ensureIdle(conversation.id);
    const after = this.#leafToFollow(conversationId);
    if (files.length > 0 && this.#options.attachments === undefined)
      throw new AppError('internal', said('chat.filesUnavailable'));
    const [user, assistant] = this.#store.transaction(() => {
      const written = this.#store.append(
        conversationId,
        questionAndReply(text, reply, conversation.model, temperature),
        after,
      );
      if (files.length > 0) this.#options.attachments!.add(written[0]!.id, files);
      retrieval?.save(reply);
      return written;
    });
    if (conversation.messageCount === 0 && conversation.title === DEFAULT_TITLE) {
      this.#store.update(conversationId, { title: titleFrom(text) });
    }
    this.#start(client, conversationId, reply, withRetrieval(options, retrieval));
    return { userMessageId: user!.id, replyId: assistant!.id };
  }

  /**
   * A new version of a reply (by default the last one of the path), beside it; the path ends at
   * the new one. After a user message with no reply yet, a reply under it.
   */
  async regenerate(
    conversationId: string,
    options: SendOptions & { replyId?: string | undefined } = {},
  ) {
    this.#ready(conversationId);
    let target = options.replyId;
    if (target === undefined) {
      const leaf = this.#store.leafOf(conversationId);
      if (leaf === undefined) throw new AppError('invalid_request', said('chat.nothingToReplyTo'));
      target = leaf;
    }
    const message = this.#message(target);
    if (message.conversationId !== conversationId)
      throw new AppError('invalid_request', said('chat.replyElsewhere'));
    return this.addSiblingReply(target, { stream: options.stream });
  }

  /**
   * Adds a reply beside `messageId` (a reply: a new version of it) or under it (a user message),
   * asked with the path up to their parent, and makes it the path's end. The knowledge base's
   * "ask again" and Regenerate both come here; `options` may change the model, the temperature
   * and what the model is asked with.
   */
  async addSiblingReply(messageId: string, options: ReplyOptions = {}) {
    const message = this.#message(messageId);
    const conversation = this.#ready(message.conversationId);
    const parentId = message.role === 'assistant' ? message.parentId : message.id;
    if (parentId === null) throw new AppError('invalid_request', said('chat.nothingToReplyTo'));
    const temperature = options.temperature ?? (await this.#temperatureOf(conversation));
    const question =
      message.role === 'assistant' ? this.#message(parentId).content : message.content;
    const retrieval = await this.#retrieve(conversation.id, question);
    const { reply, client } = await this.#prepare();
    this.#ensureIdle(conversation.id);
    const assistant = this.#store.transaction(() => {
      const [added] = this.#store.addChildren(conversation.id, parentId, [
        {
          id: reply,
          role: 'assistant',
          content: '',
          status: 'streaming',
          model: options.model ?? conversation.model,
          temperature,
        },
      ]);
      this.#store.setLeaf(conversation.id, added!.id);
      retrieval?.save(reply);
      return added!;
    });
    this.#start(client, conversation.id, reply, withRetrieval(options, retrieval));
    return { userMessageId: parentId, replyId: assistant.id };
  }

  /** A new version of a sent message (beside it, with a new id) and a reply to it. */
  async edit(messageId: string, text: string, options: SendOptions = {}) {
    const message = this.#message(messageId);
    if (message.role !== 'user') throw new AppError('invalid_request', said('chat.editOwnOnly'));
    const conversation = this.#ready(message.conversationId);
    const temperature = await this.#temperatureOf(conversation);
    const retrieval = await this.#retrieve(conversation.id, text);
    const { reply, client } = await this.#prepare();
    this.#ensureIdle(conversation.id);
    const [user, assistant] = this.#store.transaction(() => {
      const written = this.#store.append(
        message.conversationId,
        questionAndReply(text, reply, conversation.model, temperature),
        message.parentId,
      );
      retrieval?.save(reply);
      return written;
    });
    // The new version keeps the files of the one edited.
    this.#options.attachments?.copy(messageId, user!.id);
    this.#start(client, message.conversationId, reply, withRetrieval(options, retrieval));
    return { userMessageId: user!.id, replyId: assistant!.id };
  }

  /**
   * One message to several models (or temperatures) at once. The replies stream side by side,
   * each stops and fails alone; the path ends at the message until one is chosen.
   */
  async compare(
    conversationId: string,
    text: string,
    targets: readonly CompareTarget[],
    options: SendOptions = {},
    files: readonly ReadAttachment[] = [],
  ) {
    const conversation = this.#conversation(conversationId);
    this.#ensureIdle(conversationId);
    const temperature = await this.#temperatureOf(conversation);
    // Retrieved once for the question: every column is asked with the same sources.
    const retrieval = await this.#retrieve(conversationId, text);
    const prepared: Array<{ reply: string; client: RelayClient }> = [];
    for (let i = 0; i < targets.length; i++) prepared.push(await this.#prepare());
    this.#ensureIdle(conversationId);
    const after = this.#leafToFollow(conversationId);
    if (files.length > 0 && this.#options.attachments === undefined)
      throw new AppError('internal', said('chat.filesUnavailable'));
    const batchId = randomUUID();
    const user = this.#store.transaction(() => {
      const [sent] = this.#store.append(
        conversationId,
        [{ role: 'user', content: text, status: 'complete' }],
        after,
      );
      // Stored once, with the message: every reply of the compare is asked with them.
      if (files.length > 0) this.#options.attachments!.add(sent!.id, files);
      this.#store.addChildren(
        conversationId,
        sent!.id,
        targets.map((target, index) => ({
          id: prepared[index]!.reply,
          role: 'assistant' as const,
          content: '',
          status: 'streaming' as const,
          model: target.model,
          temperature: target.temperature ?? temperature,
          batchId,
        })),
      );
      this.#store.setLeaf(conversationId, sent!.id);
      // Each reply keeps its own copy of the record (its X-ray and citations).
      for (const { reply } of prepared) retrieval?.save(reply);
      return sent!;
    });
    if (conversation.messageCount === 0 && conversation.title === DEFAULT_TITLE)
      this.#store.update(conversationId, { title: titleFrom(text) });
    for (const { reply, client } of prepared)
      this.#start(client, conversationId, reply, withRetrieval(options, retrieval), batchId);
    return { userMessageId: user.id, replyIds: prepared.map((p) => p.reply) };
  }

  /**
   * "Continue with this one": the reply (and what follows it) becomes the path. Replies of its
   * compare still being written stop here, keeping their text, as versions beside it. The
   * conversation goes on with the chosen reply's model, and with its temperature when the compare
   * was over temperatures (its replies were asked at different ones).
   */
  async continueWith(replyId: string): Promise<void> {
    const reply = this.#message(replyId);
    if (reply.role !== 'assistant')
      throw new AppError('invalid_request', said('chat.continueWithReplyOnly'));
    const waits: Promise<void>[] = [];
    for (const [id, active] of this.#active) {
      if (active.conversationId !== reply.conversationId) continue;
      if (id !== replyId && reply.batchId !== undefined && active.batchId === reply.batchId) {
        active.controller.abort();
        waits.push(active.done);
      }
    }
    await Promise.all(waits);
    this.#store.setLeaf(reply.conversationId, this.#store.latestLeafUnder(replyId));
    if (reply.batchId !== undefined) this.#adoptColumn(reply);
  }

  /** The chosen column's model (and temperature, when the columns differ in it) from now on. */
  #adoptColumn(reply: ChatMessageRecord): void {
    const conversation = this.#conversation(reply.conversationId);
    const columns =
      reply.parentId === null
        ? [reply]
        : this.#store.children(reply.parentId).filter((m) => m.batchId === reply.batchId);
    const temperatures = new Set(columns.map((m) => m.temperature));
    const changes: { model?: string; temperature?: number } = {};
    if (reply.model !== undefined && reply.model !== conversation.model)
      changes.model = reply.model;
    if (
      temperatures.size > 1 &&
      reply.temperature !== undefined &&
      reply.temperature !== conversation.temperature
    )
      changes.temperature = reply.temperature;
    if (Object.keys(changes).length > 0) this.#store.update(reply.conversationId, changes);
  }

  /** "Branch from here": a new conversation with a copy of the path up to the message. */
  fork(messageId: string) {
    const message = this.#message(messageId);
    if (message.status === 'streaming' || this.#active.has(messageId))
      throw new AppError('invalid_request', said('chat.branchWhileWriting'));
    const forked = this.#store.fork(messageId);
    const files = this.#options.attachments;
    if (files)
      this.#store.transaction(() => {
        for (const { from, to } of forked.copied) files.copy(from, to);
      });
    return forked;
  }

  /**
   * "Continue": carries on the last reply of the path after it stopped before its end (the person
   * stopped it, or the connection broke). The relay is sent the path with the reply so far as its
   * last message, and what it writes is added to the reply, which streams again under its id and
   * is saved whole, its usage counting both requests.
   */
  async continueReply(replyId: string, options: SendOptions = {}) {
    const reply = this.#message(replyId);
    if (reply.role !== 'assistant')
      throw new AppError('invalid_request', said('chat.continueReplyOnly'));
    this.#ensureIdle(reply.conversationId);
    if (reply.status !== 'interrupted')
      throw new AppError('invalid_request', said('chat.continueInterruptedOnly'));
    if (reply.content === '') throw new AppError('invalid_request', said('chat.continueEmpty'));
    if (this.#store.leafOf(reply.conversationId) !== replyId)
      throw new AppError('invalid_request', said('chat.continueLastOnly'));
    this.#ready(reply.conversationId);
    const client = await this.#options.client(replyId);
    this.#ensureIdle(reply.conversationId);
    const continuing: Continuing = {
      text: reply.content,
      usage: reply.usage,
      timing: reply.timing,
    };
    // Asked again with the sources it was asked with: nothing is searched again.
    const retrieval = this.#options.retrieval?.recorded(replyId);
    this.#store.saveReply(replyId, { content: reply.content, status: 'streaming' });
    this.#start(
      client,
      reply.conversationId,
      replyId,
      withRetrieval(options, retrieval),
      undefined,
      continuing,
    );
    return { userMessageId: reply.parentId ?? replyId, replyId };
  }

  /** Aborts a reply's request; it ends 'interrupted' with the text received so far. */
  /** The page is at a new frame, having shown the deltas it was sent: the next may go now. */
  frameShown(): void {
    this.#deltas.frameShown();
  }

  /** The person's answer to a call of a reply that waits for it; false when none waits. */
  answerToolCall(replyId: string, callId: string, answer: ApprovalAnswer): boolean {
    return this.#answers.answer(replyId, callId, answer);
  }

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

  /**
   * The one place replies meet the knowledge bases: the retrieval for a reply to `question`, or
   * undefined when the conversation asks with none. It throws before anything is written (a base
   * deleted, the relay refusing the question's embedding), so the message is not sent.
   */
  async #retrieve(conversationId: string, question: string) {
    return this.#options.retrieval?.prepare(conversationId, question);
  }

  /** Gets a client before anything is written, so "no connection" leaves no orphan rows. */
  async #prepare(): Promise<{ reply: string; client: RelayClient }> {
    const reply = randomUUID();
    const client = await this.#options.client(reply);
    return { reply, client };
  }

  #start(
    client: RelayClient,
    conversationId: string,
    replyId: string,
    options: ReplyOptions,
    batchId?: string,
    continuing?: Continuing,
  ): void {
    const controller = new AbortController();
    const entry: ActiveReply = { conversationId, batchId, controller, done: Promise.resolve() };
    this.#active.set(replyId, entry);
    entry.done = this.#run(
      client,
      conversationId,
      replyId,
      options,
      controller.signal,
      continuing,
      batchId,
    ).finally(() => this.#active.delete(replyId));
  }

  /**
   * What the reply is asked with: the system prompt, then the path up to its parent; without
   * images for a model known to read none, the path's images are left out (their messages' text
   * and text files stay). The model list is only asked when the path has images.
   */
  async #history(
    conversationId: string,
    reply: ChatMessageRecord,
    model: string,
  ): Promise<RelayMessage[]> {
    const conversation = this.#conversation(conversationId);
    const out: RelayMessage[] = [];
    if (conversation.systemPrompt.trim() !== '')
      out.push({ role: 'system', content: conversation.systemPrompt });
    if (reply.parentId === null) return out;
    const path = this.#store.ancestors(reply.parentId);
    const files: Map<string, StoredAttachment[]> =
      this.#options.attachments?.forRequest(
        path.filter((m) => m.role === 'user').map((m) => m.id),
      ) ?? new Map();
    const hasImages = [...files.values()].some((list) => list.some((f) => f.kind === 'image'));
    const images = !hasImages || (await this.#options.acceptsImages?.(model)) !== false;
    for (const message of path) {
      // A reply that used tools: its calls and their results, as the model had them.
      if (message.role === 'assistant' && message.tools !== undefined) {
        out.push(...toolMessages(message.tools, message.content));
        continue;
      }
      // Failed replies with no text say nothing to the model.
      if (message.role === 'assistant' && message.content === '') continue;
      const all = files.get(message.id) ?? [];
      const attached = images ? all : all.filter((file) => file.kind !== 'image');
      out.push({ role: message.role, content: messageContent(message.content, attached) });
    }
    return out;
  }

  /**
   * A reply that may use the conversation's tools: each call decided by the person's rules (and
   * their answers on the approval card), its record sent to the page as it changes. Steps past
   * the limit end the turn with a note on the reply; a tool list past the budget is cut, the
   * tools left out named on the reply.
   */
  async #toolTurn(
    tools: ChatTools,
    client: RelayClient,
    turn: {
      conversationId: string;
      replyId: string;
      model: string;
      messages: RelayMessage[];
      servers: readonly string[];
      signal: AbortSignal;
      onDelta: (text: string) => void;
      setRecord: (record: ReplyToolsRecord) => void;
      /** What each step's request spent, as it ends. */
      onUsage: (usage: ChatUsage) => void;
      extra: { temperature: number; max_tokens?: number };
      resetText: () => void;
    },
  ): Promise<{
    content: string;
    finishReason: string | null;
    interrupted: boolean;
    usage?: ChatUsage;
  }> {
    const { conversationId, replyId } = turn;
    const settings = await tools.settings();
    const record = new ReplyToolsRecord(
      settings.tokenBudget,
      settings.maxSteps,
      (changed) => {
        this.#deltas.flush();
        this.#options.emit('chatReplyTools', { replyId, conversationId, tools: changed });
      },
      this.#now,
    );
    turn.setRecord(record);
    const grants = new Set(this.#store.toolGrants(conversationId));
    // The calls as the model wrote them, for the card of a call that waits.
    const made = new Map<string, { name: string; arguments: string }>();
    const result = await runToolTurn({
      client: {
        chat: (request, options) => client.chat({ ...request, ...turn.extra }, options),
      },
      mcp: tools.mcp,
      model: turn.model,
      messages: turn.messages,
      serverIds: turn.servers,
      permissions: await tools.permissions(),
      grants,
      maxSteps: settings.maxSteps,
      maxResultChars: settings.maxResultChars,
      signal: turn.signal,
      onDelta: turn.onDelta,
      onUsage: turn.onUsage,
      selectTools: (offered) => {
        const { kept, leftOut } = withinBudget(offered, settings.tokenBudget);
        record.leftOut(leftOut);
        return kept;
      },
      onStep: ({ text, calls }) => {
        for (const call of calls)
          if (call.id !== undefined)
            made.set(call.id, { name: call.name ?? '', arguments: call.arguments });
        record.step(text);
        turn.resetText();
      },
      approve: async (request) => {
        record.upsert({
          callId: request.callId,
          functionName: made.get(request.callId)?.name ?? request.tool,
          serverId: request.serverId,
          serverName: request.serverName,
          tool: request.tool,
          arguments: made.get(request.callId)?.arguments ?? JSON.stringify(request.input),
          state: 'waiting',
          result: '',
          toolError: false,
          why: request.why,
        });
        const answer = await this.#answers.wait(replyId, request.callId, turn.signal);
        if (answer === 'conversation') {
          grants.add(grantKey(request.serverId, request.tool));
          this.#store.setToolGrants(conversationId, [...grants]);
        }
        return answer;
      },
      alwaysAllow: (serverId, tool) => tools.alwaysAllow(serverId, tool),
      onCallRunning: (call) =>
        record.upsert({ ...call, state: 'running', result: '', toolError: false }),
      onCallDone: (run) =>
        record.upsert({
          callId: run.callId,
          functionName: run.functionName,
          serverId: run.serverId,
          serverName: run.serverName,
          tool: run.tool,
          arguments: run.arguments,
          state: run.outcome,
          result: run.sent,
          toolError: run.toolError,
          durationMs: Math.max(0, Math.round(run.durationMs)),
        }),
    });
    if (result.stoppedAtLimit) {
      record.tools.stoppedAtLimit = true;
      record.changed();
    }
    return {
      content: result.content,
      finishReason: result.finishReason,
      interrupted: false,
      ...(result.usage === undefined ? {} : { usage: result.usage }),
    };
  }

  async #run(
    client: RelayClient,
    conversationId: string,
    replyId: string,
    options: ReplyOptions,
    signal: AbortSignal,
    continuing?: Continuing,
    batchId?: string,
  ): Promise<void> {
    const { emit } = this.#options;
    const stream = options.stream ?? true;
    const startedAt = this.#now();
    let firstAt: number | undefined;
    // Continuing, the text so far comes first and the relay's is added to it.
    const prefix = continuing?.text ?? '';
    let content = prefix;
    let saved = prefix;
    const persist = setInterval(() => {
      if (content === saved) return;
      saved = content;
      this.#store.saveProgress(replyId, content);
    }, this.#options.persistIntervalMs ?? 250);

    let status: MessageStatus;
    let usage: ChatUsage | undefined;
    let error: ReplyError | undefined;
    let finishReason: string | null = null;
    let record: ReplyToolsRecord | undefined;
    // The steps of a tool turn that ended, so that a turn stopped or failed later keeps them.
    let toolUsage: ChatUsage | undefined;
    try {
      const conversation = this.#conversation(conversationId);
      const reply = this.#message(replyId);
      const defaults = await this.#options.defaults();
      const maxTokens = conversation.maxTokens ?? defaults.maxTokens;
      const model = reply.model ?? conversation.model ?? '';
      const history = await this.#history(conversationId, reply, model);
      if (continuing) history.push({ role: 'assistant', content: prefix });
      const messages = options.messages
        ? await options.messages(history as ChatMessage[])
        : history;
      const temperature = reply.temperature ?? conversation.temperature ?? defaults.temperature;
      const onDelta = (text: string) => {
        if (text !== '') firstAt ??= this.#now();
        content += text;
        if (stream) this.#deltas.push(replyId, conversationId, text);
      };
      const servers = conversation.toolServerIds ?? [];
      const tools = this.#options.tools;
      const result =
        tools !== undefined &&
        servers.length > 0 &&
        continuing === undefined &&
        batchId === undefined
          ? await this.#toolTurn(tools, client, {
              conversationId,
              replyId,
              model,
              messages,
              servers,
              signal,
              onDelta,
              setRecord: (made) => (record = made),
              onUsage: (spent) => {
                toolUsage = addUsage(toolUsage, spent);
              },
              extra: {
                temperature,
                ...(maxTokens === null ? {} : { max_tokens: maxTokens }),
              },
              resetText: () => {
                content = prefix;
              },
            })
          : await client.chat(
              {
                model,
                messages,
                temperature,
                ...(maxTokens === null ? {} : { max_tokens: maxTokens }),
                stream,
              },
              { signal, onDelta },
            );
      content = prefix + result.content;
      usage = addUsage(continuing?.usage, result.usage);
      finishReason = result.finishReason;
      status = result.interrupted ? 'interrupted' : 'complete';
    } catch (caught) {
      if (caught instanceof RelayError && caught.partialText !== undefined) {
        const partial = prefix + caught.partialText;
        content = partial.length >= content.length ? partial : content;
      }
      usage = addUsage(continuing?.usage, toolUsage);
      const kind = caught instanceof RelayError ? caught.kind : 'internal';
      const cut = caught instanceof RelayError && caught.code === REPLY_TOO_LONG;
      if (kind === 'aborted' || signal.aborted) status = 'interrupted';
      else {
        error = replyErrorOf(caught);
        // A continued reply that fails stays a reply that stopped early, with its text.
        const keep = BREAKS.has(kind) || cut || continuing !== undefined;
        status = keep && content !== '' ? 'interrupted' : 'error';
      }
    } finally {
      clearInterval(persist);
    }
    const endedAt = this.#now();
    if (firstAt === undefined && content !== '') firstAt = endedAt;
    // Continued, the reply took the time of both requests; its first token came in the first.
    const timing: ReplyTiming = {
      durationMs: Math.round(endedAt - startedAt) + (continuing?.timing?.durationMs ?? 0),
    };
    if (continuing?.timing?.firstTokenMs !== undefined)
      timing.firstTokenMs = continuing.timing.firstTokenMs;
    else if (firstAt !== undefined) timing.firstTokenMs = Math.round(firstAt - startedAt);
    this.#deltas.flush();
    record?.stopAll();
    const update = { content, status, finishReason, timing } as Parameters<
      ChatStore['saveReply']
    >[1];
    if (record?.used) update.tools = record.tools;
    if (usage !== undefined) update.usage = usage;
    if (error !== undefined) update.error = error;
    let conversation: ConversationSummary | undefined;
    try {
      this.#store.saveReply(replyId, update);
      this.#store.touch(conversationId);
      conversation = this.#store.get(conversationId);
    } catch {
      // The conversation was deleted meanwhile; the page is told the reply ended all the same.
    }
    const finished: PayloadOf<Events['chatReplyFinished']> = {
      replyId,
      conversationId,
      status,
      content,
      timing,
    };
    if (usage !== undefined) finished.usage = usage;
    if (error !== undefined) finished.error = error;
    if (conversation !== undefined) finished.conversation = conversation;
    emit('chatReplyFinished', finished);
  }
}

/** A title from the first words of the first message. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length <= 60 ? line : `${line.slice(0, 57).trimEnd()}…`;
}
