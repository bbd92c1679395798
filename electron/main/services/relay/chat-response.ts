import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { MAX_REPLY_CHARS } from '../../../shared/ipc/routes/chat';
import { errorFromPayload, readErrorPayload, type Redact } from './http-errors';
import { RelayError } from './relay-error';
import { said } from '../words';
import { hostOf, type ReadResult, type ResponseReader } from './response-reader';
import {
  readToolCalls,
  ToolCallAssembler,
  type ToolCallOutcome,
  type ToolCallUpdate,
} from './tool-calls';

export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
}

export interface ChatResult {
  content: string;
  /** `stop`, `length`, `content_filter`, `tool_calls`… or null when the relay never said. */
  finishReason: string | null;
  usage?: Usage;
  /** The stream ended before the relay said the reply was complete: the text may be cut short. */
  interrupted: boolean;
  /**
   * The tool calls the reply made, in order, each ready to run or failed with the reason; absent
   * when it made none. Read them whatever `finishReason` says: some relays finish a reply with
   * calls as `stop`. An interrupted reply's calls are all failed: none may run half-written.
   */
  toolCalls?: ToolCallOutcome[];
}

/** Larger than any real event; a stream past this without one event is refused, not buffered on. */
const MAX_EVENT_CHARS = 16 * 1024 * 1024;
/** A non-streamed completion (or JSON where a stream was expected) is read whole up to this. */
const MAX_JSON_BYTES = 32 * 1024 * 1024;

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Token counts in our own shape; undefined when the relay gave none (or `usage: null`). */
export function readUsage(value: unknown): Usage | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const u = value as Record<string, unknown>;
  const usage: Usage = {};
  const prompt = count(u.prompt_tokens);
  const completion = count(u.completion_tokens);
  const total = count(u.total_tokens);
  if (prompt !== undefined) usage.promptTokens = prompt;
  if (completion !== undefined) usage.completionTokens = completion;
  if (total !== undefined) usage.totalTokens = total;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function result(
  content: string,
  finishReason: string | null,
  usage: Usage | undefined,
  interrupted: boolean,
  toolCalls?: ToolCallOutcome[],
): ChatResult {
  const out: ChatResult = { content, finishReason, interrupted };
  if (usage !== undefined) out.usage = usage;
  if (toolCalls !== undefined && toolCalls.length > 0) out.toolCalls = toolCalls;
  return out;
}

/** A complete (non-streamed) chat completion, or the error object a relay put in its place. */
function readCompletion(
  text: string,
  url: string,
  redact: Redact,
  onToolCall: ((update: ToolCallUpdate) => void) | undefined,
): ChatResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RelayError('bad_response', said('relay.chat.notJson', { host: hostOf(url) }));
  }
  if (body === null || typeof body !== 'object') {
    throw new RelayError('bad_response', said('relay.chat.notReply', { host: hostOf(url) }));
  }
  const record = body as Record<string, unknown>;
  if (record.error !== undefined && record.error !== null) {
    throw errorFromPayload(readErrorPayload(record), redact, '');
  }
  const choices = record.choices;
  const choice = Array.isArray(choices)
    ? (choices[0] as Record<string, unknown> | undefined)
    : undefined;
  const message = choice?.message as Record<string, unknown> | undefined;
  if (
    choice === undefined ||
    choice === null ||
    typeof choice !== 'object' ||
    message === null ||
    typeof message !== 'object'
  ) {
    throw new RelayError('bad_response', said('relay.chat.noMessage', { host: hostOf(url) }));
  }
  const content = typeof message.content === 'string' ? message.content : '';
  const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
  return result(
    content,
    finishReason,
    readUsage(record.usage),
    false,
    readToolCalls(message.tool_calls, onToolCall),
  );
}

export interface ChatReadOptions {
  onDelta?: ((text: string) => void) | undefined;
  /** The reply's tool calls as they stream: started, their arguments, then ready or failed. */
  onToolCall?: ((update: ToolCallUpdate) => void) | undefined;
  redact: Redact;
  url: string;
  /** A reply is cut at this many characters (default `MAX_REPLY_CHARS`, ten million). */
  maxChars?: number;
}

/** The `code` of the error a reply cut at its size limit ends in; its `partialText` is the reply. */
export const REPLY_TOO_LONG = 'reply_too_long';

function tooLong(maxChars: number, content: string): RelayError {
  return new RelayError('bad_response', said('relay.chat.tooLong', { maxChars }), {
    code: REPLY_TOO_LONG,
    partialText: content,
  });
}

/** The first `room` characters of `text`, without splitting a surrogate pair. */
function headOf(text: string, room: number): string {
  const head = text.slice(0, Math.max(0, room));
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

/**
 * Reads a chat answer: an event stream, or a whole JSON completion when the relay ignored
 * `stream` (wire-conventions.md §3 "tolerate"). The kind of body is decided by its first
 * non-blank character unless the content type already says event-stream.
 */
export async function readChatResponse(
  body: ResponseReader,
  options: ChatReadOptions,
): Promise<ChatResult> {
  const { onDelta, onToolCall, redact, url } = options;
  const maxChars = options.maxChars ?? MAX_REPLY_CHARS;
  const contentType = body.response.headers.get('content-type')?.toLowerCase() ?? '';
  if (contentType.includes('text/html')) {
    body.close();
    throw new RelayError('bad_response', said('relay.chat.webPage', { host: hostOf(url) }));
  }

  // Held in an object: TypeScript would otherwise narrow it at each use and miss that `take` changes it.
  const state = {
    mode: (contentType.includes('text/event-stream') ? 'sse' : 'sniff') as 'sniff' | 'sse' | 'json',
  };
  let pending = '';
  let content = '';
  let finishReason: string | null = null;
  let usage: Usage | undefined;
  let done = false;
  let sawChunk = false;
  let atEnd = false;
  let failure: RelayError | undefined;
  /** Made at a reply's first tool-call piece: a reply without calls pays nothing for them. */
  let tools: ToolCallAssembler | undefined;

  const fail = (error: RelayError) => {
    failure ??= error;
  };

  const onEvent = (event: EventSourceMessage) => {
    if (done || failure !== undefined) return;
    const data = event.data;
    if (event.event === 'error') {
      fail(
        errorFromPayload(
          readErrorPayload(tryParse(data)) ?? { message: data.slice(0, 500) },
          redact,
          content,
        ),
      );
      return;
    }
    if (data === '[DONE]') {
      done = true;
      return;
    }
    if (data.trim() === '') return;
    const chunk = tryParse(data);
    if (chunk === undefined || chunk === null || typeof chunk !== 'object') {
      // An event cut off by the end of the stream is a truncation, not a malformed relay.
      if (!atEnd)
        fail(
          new RelayError('bad_response', said('relay.chat.eventNotObject', { host: hostOf(url) }), {
            partialText: content,
          }),
        );
      return;
    }
    const record = chunk as Record<string, unknown>;
    if (record.error !== undefined && record.error !== null) {
      fail(errorFromPayload(readErrorPayload(record), redact, content));
      return;
    }
    sawChunk = true;
    const chunkUsage = readUsage(record.usage);
    if (chunkUsage !== undefined) usage = chunkUsage;
    const choices = record.choices;
    if (!Array.isArray(choices) || choices.length === 0) return;
    const choice = choices[0] as Record<string, unknown> | null;
    if (choice === null || typeof choice !== 'object') return;
    const delta = (choice.delta ?? choice.message) as Record<string, unknown> | null | undefined;
    const text = delta !== null && typeof delta === 'object' ? delta.content : undefined;
    const calls = delta !== null && typeof delta === 'object' ? delta.tool_calls : undefined;
    if (calls !== undefined && calls !== null)
      (tools ??= new ToolCallAssembler(onToolCall)).add(calls);
    if (typeof text === 'string' && text !== '') {
      // Past the limit the stream is given up (the request aborted), so a relay that never
      // stops cannot fill main's memory: the reply keeps what fits and ends with a note.
      if (content.length + text.length > maxChars) {
        const head = headOf(text, maxChars - content.length);
        content += head;
        if (head !== '') onDelta?.(head);
        fail(tooLong(maxChars, content));
        return;
      }
      content += text;
      onDelta?.(text);
    }
    const reason = choice.finish_reason;
    if (reason === 'error') {
      fail(
        errorFromPayload({ message: 'The relay ended the reply with an error.' }, redact, content),
      );
    } else if (typeof reason === 'string' && reason !== '') {
      finishReason = reason;
    }
  };

  const parser = createParser({
    onEvent,
    onError: (error: ParseError) => {
      if (error.type === 'max-buffer-size-exceeded') {
        fail(
          new RelayError('bad_response', said('relay.chat.eventTooLarge', { host: hostOf(url) }), {
            partialText: content,
          }),
        );
      }
      // Unknown fields and bad `retry` values are ignored, as the EventSource standard says.
    },
    maxBufferSize: MAX_EVENT_CHARS,
  });
  const decoder = new TextDecoder();
  let jsonBytes = 0;

  const take = (text: string) => {
    if (state.mode === 'json') {
      pending += text;
      return;
    }
    if (state.mode === 'sniff') {
      pending += text;
      const start = pending.search(/\S/);
      if (start === -1) return;
      const first = pending[start];
      if (first === '{' || first === '[') {
        state.mode = 'json';
        return;
      }
      if (first === '<') {
        throw new RelayError('bad_response', said('relay.chat.webPage', { host: hostOf(url) }));
      }
      state.mode = 'sse';
      text = pending;
      pending = '';
    }
    parser.feed(text);
  };

  try {
    for (;;) {
      let next: ReadResult;
      try {
        next = await body.read();
      } catch (error) {
        throw body.failure(error);
      }
      if (next.done) break;
      const bytes = next.value;
      if (state.mode === 'json' || state.mode === 'sniff') {
        jsonBytes += bytes.byteLength;
        if (jsonBytes > MAX_JSON_BYTES) {
          throw new RelayError(
            'bad_response',
            said('relay.chat.replyTooLarge', { host: hostOf(url) }),
          );
        }
      }
      take(decoder.decode(bytes, { stream: true }));
      if (failure !== undefined) throw failure;
      if (done) break;
    }
    if (!done) {
      atEnd = true;
      take(decoder.decode());
      // A last event without its blank line is still delivered: some relays close right after it.
      if (state.mode === 'sse') parser.feed('\n\n');
    }
  } catch (error) {
    body.close();
    if (error instanceof RelayError) {
      throw error.partialText === undefined ? error.withPartialText(content) : error;
    }
    throw error;
  }
  body.close();

  if (failure !== undefined) throw failure;
  if (state.mode === 'json') {
    const completion = readCompletion(pending, url, redact, onToolCall);
    if (completion.content.length > maxChars) {
      const head = headOf(completion.content, maxChars);
      onDelta?.(head);
      throw tooLong(maxChars, head);
    }
    if (completion.content !== '') onDelta?.(completion.content);
    return completion;
  }
  if (done || finishReason !== null)
    return result(content, finishReason, usage, false, tools?.finish());
  if (!sawChunk) {
    throw new RelayError('bad_response', said('relay.chat.noReply', { host: hostOf(url) }), {
      partialText: content,
    });
  }
  return result(content, finishReason, usage, true, tools?.finish(true));
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
