/**
 * POST /v1/chat/completions: the canonical completion (wire-conventions.md §2) or, with
 * `stream: true`, the canonical event stream (§3), paced at `tokensPerSecond`.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { unixSeconds, type Endpoint, type ResponseContext } from '../context';
import { errorBody } from '../errors';
import type { StreamFault } from '../faults';
import { sendJson, SSE_HEADERS, writeEvent } from '../http-io';
import {
  composeBriefReply,
  composeDemoReply,
  composeWithFiles,
  continueFrom,
  countPromptTokens,
  countTokens,
  padReply,
  promptOf,
  tokenize,
} from '../models/chat';
import { validateChatRequest, type ChatRequest } from '../validation';
import { describeImages, imageFacts, type ImageFacts } from '../content-parts';
import { planToolUse, type PlannedCall } from '../models/tool-use';

export const createChatCompletion: Endpoint = {
  method: 'POST',
  prepare(body) {
    const request = validateChatRequest(body);
    return {
      streaming: request.stream,
      respond: async (context) => {
        // Decoded before anything is written, so a bad image is still a 400.
        if (request.model.vision) await readImages(request);
        return request.stream ? streamReply(context, request) : sendReply(context, request);
      },
    };
  },
};

/** The facts of the last user message's images, for the vision model to reply with. */
const IMAGE_FACTS = new WeakMap<ChatRequest, ImageFacts[]>();

async function readImages(request: ChatRequest): Promise<void> {
  const last = request.messages.findLast((m) => m.role === 'user');
  const images = last?.images ?? [];
  if (images.length > 0) IMAGE_FACTS.set(request, await Promise.all(images.map(imageFacts)));
}

type Delta = Record<string, unknown>;

interface Reply {
  /** The first chunk's delta (the role). */
  opening: Delta;
  /** One delta per piece: the text's pieces, or the tool calls' names and argument pieces. */
  deltas: Delta[];
  /** The whole reply as a non-streamed completion's `message`. */
  message: Delta;
  finishReason: 'stop' | 'length' | 'tool_calls';
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Prompt tokens: the messages, and the tools offered (their JSON, as models read them). */
function promptTokens(request: ChatRequest): number {
  const offered = request.tools.tools;
  const tools = offered.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.parameters,
  }));
  return (
    countPromptTokens(request.messages) +
    (offered.length > 0 ? countTokens(JSON.stringify(tools)) : 0)
  );
}

function usageOf(request: ChatRequest, completion: number): Reply['usage'] {
  const prompt = promptTokens(request);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

/**
 * Tool calls as the convention streams them: each call's first piece brings its index, id and
 * name, the next ones its arguments in word-sized pieces; cut to `max_tokens` pieces (a call cut
 * short ends with finish_reason "length").
 */
function callReply(request: ChatRequest, calls: PlannedCall[], nextId: () => string): Reply {
  const records = calls.map((call) => ({ id: nextId(), ...call }));
  const deltas: Delta[] = [];
  const written = records.map(() => '');
  records.forEach((call, index) => {
    deltas.push({
      tool_calls: [
        { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
      ],
    });
    for (const piece of tokenize(call.arguments))
      deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  const cut = request.maxTokens !== undefined && deltas.length > request.maxTokens;
  const kept = cut ? deltas.slice(0, request.maxTokens) : deltas;
  const started = new Set<number>();
  for (const delta of kept) {
    const [piece] = delta.tool_calls as { index: number; function: { arguments: string } }[];
    started.add(piece!.index);
    written[piece!.index] += piece!.function.arguments;
  }
  return {
    opening: { role: 'assistant', content: null },
    deltas: kept,
    message: {
      role: 'assistant',
      content: null,
      tool_calls: records
        .map((call, index) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: written[index] },
        }))
        .filter((_call, index) => started.has(index)),
    },
    finishReason: cut ? 'length' : 'tool_calls',
    usage: usageOf(request, kept.length),
  };
}

/**
 * The reply, padded to `replyTokens` (if set), cut to `max_tokens` pieces when the request sets it;
 * only its rest when the request ends with the reply so far. The tool model calls tools instead
 * when the message asks for what one does.
 */
function composeReply(request: ChatRequest, replyTokens: number, nextId: () => string): Reply {
  let text: string;
  if (request.model.tools) {
    const { tools, choice, parallel } = request.tools;
    const plan = planToolUse(request.messages, tools, choice, parallel);
    if (plan.kind === 'calls') return callReply(request, plan.calls, nextId);
    text = plan.text;
  } else {
    const compose = request.model.style === 'brief' ? composeBriefReply : composeDemoReply;
    const facts = IMAGE_FACTS.get(request);
    text =
      facts !== undefined
        ? describeImages(promptOf(request.messages), facts)
        : composeWithFiles(compose, promptOf(request.messages), {
            temperature: request.temperature,
          });
  }
  const whole = padReply(tokenize(text), replyTokens);
  // A request that ends with the reply so far asks for the rest of it (a stopped reply continued).
  const last = request.messages[request.messages.length - 1];
  const all = last?.role === 'assistant' ? continueFrom(whole, last.content) : whole;
  const cut = request.maxTokens !== undefined && all.length > request.maxTokens;
  const pieces = cut ? all.slice(0, request.maxTokens) : all;
  return {
    opening: { role: 'assistant', content: '' },
    deltas: pieces.map((content) => ({ content })),
    message: { role: 'assistant', content: pieces.join('') },
    finishReason: cut ? 'length' : 'stop',
    usage: usageOf(request, pieces.length),
  };
}

async function sendReply({ res, relay }: ResponseContext, request: ChatRequest): Promise<void> {
  const reply = composeReply(request, relay.settings.replyTokens, () => relay.nextId('call'));
  sendJson(res, 200, {
    id: relay.nextId('chatcmpl'),
    object: 'chat.completion',
    created: unixSeconds(),
    model: request.model.id,
    choices: [
      {
        index: 0,
        message: reply.message,
        finish_reason: reply.finishReason,
      },
    ],
    usage: reply.usage,
  });
}

async function streamReply(
  { res, relay, signal }: ResponseContext,
  request: ChatRequest,
): Promise<void> {
  const reply = composeReply(request, relay.settings.replyTokens, () => relay.nextId('call'));
  const head = {
    id: relay.nextId('chatcmpl'),
    object: 'chat.completion.chunk',
    created: unixSeconds(),
    model: request.model.id,
  };
  const chunk = (delta: Delta, finishReason: string | null) => ({
    ...head,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });

  res.writeHead(200, SSE_HEADERS);
  await writeEvent(res, chunk(reply.opening, null), signal);

  const fault = relay.faults.takeStreamFault(request.model.id);
  // A fault set to strike after more chunks than the reply has strikes after the last one, so
  // that a test always sees it.
  const faultAt = fault ? Math.min(fault.afterChunks, reply.deltas.length) : -1;
  if (fault && faultAt === 0) return strike(res, fault, signal);

  const rate = request.model.unpaced
    ? 0
    : relay.settings.tokensPerSecond * (request.model.paceFactor ?? 1);
  const started = performance.now();
  for (let index = 0; index < reply.deltas.length; index++) {
    if (rate > 0) {
      // Scheduled against the start, not the previous piece, so timer slack does not add up;
      // at high rates several due pieces go out between two timer ticks.
      const wait = started + (index * 1000) / rate - performance.now();
      if (wait >= 1) await sleep(wait, undefined, { signal });
    }
    await writeEvent(res, chunk(reply.deltas[index] ?? {}, null), signal);
    if (fault && index + 1 === faultAt) return strike(res, fault, signal);
  }

  await writeEvent(res, chunk({}, reply.finishReason), signal);
  if (request.includeUsage) {
    await writeEvent(res, { ...head, choices: [], usage: reply.usage }, signal);
  }
  await writeEvent(res, '[DONE]', signal);
  res.end();
}

async function strike(res: ServerResponse, fault: StreamFault, signal: AbortSignal): Promise<void> {
  switch (fault.kind) {
    case 'cut': {
      // Like a dropped connection: the chunked body never gets its terminating chunk. What was
      // written must reach the client first (destroy() would discard it), hence the empty write,
      // whose callback runs once everything before it is flushed.
      const socket = res.socket;
      if (socket && !socket.destroyed)
        await new Promise<void>((resolve) => socket.write('', () => resolve()));
      res.destroy();
      return;
    }
    case 'end':
      res.end();
      return;
    case 'error':
      await writeEvent(
        res,
        errorBody(
          'The demo relay failed in the middle of the reply (injected fault).',
          'server_error',
          'stream_error',
          null,
        ),
        signal,
      );
      res.end();
      return;
  }
}
