/**
 * Request validation for the three POST endpoints. Every rule answers 400 with `param` naming the
 * field (`messages[2].role`), so a client can point at what to fix.
 *
 * Strictness: unknown top-level fields are refused, except the optional ones the official `openai`
 * client sends or that are common and harmless (`user`, `stream_options`, `encoding_format`, ...).
 * `null` is not taken as "absent": a client that sends it has a bug the demo should show.
 */
import { readContentParts, type ContentImage } from './content-parts';
import { invalidRequest, RelayHttpError } from './errors';
import { findModel, modelsOfKind, type DemoModel, type ModelKind } from './models/catalog';
import { EMBEDDING_DIMENSIONS } from './models/embeddings';
import { validateToolFields, type ToolFields } from './tools';

export type Json = Record<string, unknown>;

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';
export interface ChatMessage {
  role: ChatRole;
  /** The text, or a content array's text parts joined ('' for an assistant's calls without text). */
  content: string;
  /** A content array's images, checked (`content-parts.ts`). */
  images?: ContentImage[];
  /** An assistant message's tool calls. */
  toolCalls?: { id: string; name: string; arguments: string }[];
  /** A tool message: the call it answers. */
  toolCallId?: string;
}

export interface ChatRequest {
  model: DemoModel;
  messages: ChatMessage[];
  temperature: number;
  maxTokens: number | undefined;
  stream: boolean;
  includeUsage: boolean;
  /** The tools offered, how the model may use them (none offered: `tools` is empty). */
  tools: ToolFields;
}

export interface EmbeddingRequest {
  model: DemoModel;
  inputs: string[];
  encoding: 'float' | 'base64';
  dimensions: number;
}

export interface ImageRequest {
  model: DemoModel;
  prompt: string;
  width: number;
  height: number;
  count: number;
  format: 'b64_json' | 'url';
}

/** Image sides the demo draws: big enough to look at, small enough to stay fast. */
export const IMAGE_SIDE_MIN = 64;
export const IMAGE_SIDE_MAX = 2048;
export const IMAGE_DEFAULT_SIZE = '512x512';
export const IMAGE_COUNT_MAX = 4;
export const IMAGE_PROMPT_MAX = 4000;
export const EMBEDDING_INPUTS_MAX = 2048;

const CHAT_FIELDS = [
  'model',
  'messages',
  'temperature',
  'max_tokens',
  'max_completion_tokens',
  'stream',
  'stream_options',
  'n',
  'top_p',
  'seed',
  'user',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
] as const;
const MESSAGE_FIELDS = ['role', 'content', 'name'] as const;
const ASSISTANT_FIELDS = ['role', 'content', 'name', 'tool_calls', 'refusal'] as const;
const TOOL_MESSAGE_FIELDS = ['role', 'content', 'tool_call_id'] as const;
const TOOL_CALL_FIELDS = ['id', 'type', 'function'] as const;
const STREAM_OPTION_FIELDS = ['include_usage', 'include_obfuscation'] as const;
const EMBEDDING_FIELDS = ['model', 'input', 'encoding_format', 'dimensions', 'user'] as const;
const IMAGE_FIELDS = ['model', 'prompt', 'size', 'n', 'response_format', 'user'] as const;
const ROLES: readonly ChatRole[] = ['system', 'user', 'assistant', 'tool'];

export function validateChatRequest(body: Json): ChatRequest {
  rejectUnknownFields(body, CHAT_FIELDS, '');
  const model = requireModel(body, 'chat');

  if (!has(body, 'messages')) throw missing('messages');
  const messages = body.messages;
  if (!Array.isArray(messages)) throw wrongType('messages', 'an array of message objects');
  if (messages.length === 0)
    throw invalidRequest('messages', 'messages must contain at least one message.');
  const parsed = messages.map((message, index) => validateMessage(message, `messages[${index}]`));
  checkToolAnswers(parsed);
  const image = parsed.flatMap((m) => m.images ?? [])[0];
  if (image !== undefined && !model.vision)
    throw invalidRequest(
      image.param,
      `${model.id} does not accept images (${image.param} is one): send text only, or use a model that reads images, such as demo-vision.`,
      'unsupported_value',
    );

  const temperature = optionalNumber(body, 'temperature', 0, 2) ?? 1;
  optionalNumber(body, 'top_p', 0, 1);
  optionalInteger(body, 'seed', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const maxTokens = optionalInteger(body, 'max_tokens', 1, Number.MAX_SAFE_INTEGER);
  const maxCompletionTokens = optionalInteger(
    body,
    'max_completion_tokens',
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const n = optionalInteger(body, 'n', 1, Number.MAX_SAFE_INTEGER);
  if (n !== undefined && n !== 1) {
    throw invalidRequest(
      'n',
      'The demo relay returns one choice per request: n must be 1.',
      'unsupported_value',
    );
  }
  const stream = optionalBoolean(body, 'stream') ?? false;
  optionalString(body, 'user');

  let includeUsage = false;
  if (has(body, 'stream_options')) {
    const options = body.stream_options;
    if (!isObject(options)) throw wrongType('stream_options', 'an object');
    if (!stream) {
      throw invalidRequest('stream_options', 'stream_options is only allowed when stream is true.');
    }
    rejectUnknownFields(options, STREAM_OPTION_FIELDS, 'stream_options.');
    includeUsage =
      optionalBoolean(options, 'include_usage', 'stream_options.include_usage') ?? false;
    optionalBoolean(options, 'include_obfuscation', 'stream_options.include_obfuscation');
  }

  const limits = [maxTokens, maxCompletionTokens].filter(
    (value): value is number => value !== undefined,
  );
  return {
    model,
    messages: parsed,
    temperature,
    maxTokens: limits.length > 0 ? Math.min(...limits) : undefined,
    stream,
    includeUsage,
    tools: validateToolFields(body),
  };
}

/**
 * Every tool message answers a call an earlier assistant message made, and every call is
 * answered before the conversation goes on, as the convention's relays require.
 */
function checkToolAnswers(messages: readonly ChatMessage[]): void {
  let open = new Map<string, string>();
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const id = message.toolCallId ?? '';
      if (!open.has(id))
        throw invalidRequest(
          `messages[${index}].tool_call_id`,
          `Invalid parameter: messages[${index}] has role 'tool' but answers no call (${JSON.stringify(id)}) of a preceding message with 'tool_calls'.`,
        );
      open.delete(id);
      return;
    }
    const unanswered = [...open.values()][0];
    if (unanswered !== undefined)
      throw invalidRequest(
        unanswered,
        `An assistant message with 'tool_calls' must be followed by tool messages answering each call; ${unanswered} has none before messages[${index}].`,
      );
    open = new Map(
      (message.toolCalls ?? []).map((call, j) => [
        call.id,
        `messages[${index}].tool_calls[${j}].id`,
      ]),
    );
  });
}

function validateMessage(message: unknown, param: string): ChatMessage {
  if (!isObject(message)) throw wrongType(param, 'a message object with role and content');
  if (!has(message, 'role')) throw missing(`${param}.role`);
  const role = message.role;
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    throw invalidRequest(`${param}.role`, `${param}.role must be one of ${ROLES.join(', ')}.`);
  }
  if (role === 'tool') return validateToolMessage(message, param);
  if (role === 'assistant' && has(message, 'tool_calls'))
    return validateCallsMessage(message, param);
  rejectUnknownFields(
    message,
    role === 'assistant' ? ASSISTANT_FIELDS : MESSAGE_FIELDS,
    `${param}.`,
  );
  if (!has(message, 'content')) throw missing(`${param}.content`);
  optionalString(message, 'name', `${param}.name`);
  if (Array.isArray(message.content)) {
    const { text, images } = readContentParts(message.content, `${param}.content`);
    if (images.length > 0 && role !== 'user')
      throw invalidRequest(
        images[0]!.param,
        `Only a user message may hold images (${images[0]!.param} is in a ${role} message).`,
      );
    return { role: role as ChatRole, content: text, ...(images.length > 0 ? { images } : {}) };
  }
  if (typeof message.content !== 'string')
    throw wrongType(`${param}.content`, 'a string or an array of content parts');
  return { role: role as ChatRole, content: message.content };
}

/** A tool's result: the id of the call it answers, and its text. */
function validateToolMessage(message: Json, param: string): ChatMessage {
  rejectUnknownFields(message, TOOL_MESSAGE_FIELDS, `${param}.`);
  if (!has(message, 'tool_call_id')) throw missing(`${param}.tool_call_id`);
  const id = message.tool_call_id;
  if (typeof id !== 'string' || id === '') throw wrongType(`${param}.tool_call_id`, 'a call id');
  if (!has(message, 'content')) throw missing(`${param}.content`);
  let content: string;
  if (Array.isArray(message.content)) {
    const { text, images } = readContentParts(message.content, `${param}.content`);
    if (images.length > 0)
      throw invalidRequest(
        images[0]!.param,
        `A tool message holds text only (${images[0]!.param}).`,
      );
    content = text;
  } else if (typeof message.content === 'string') content = message.content;
  else throw wrongType(`${param}.content`, 'a string or an array of text parts');
  return { role: 'tool', content, toolCallId: id };
}

/** An assistant's turn that called tools: its text (often null) and its calls. */
function validateCallsMessage(message: Json, param: string): ChatMessage {
  rejectUnknownFields(message, ASSISTANT_FIELDS, `${param}.`);
  const content = has(message, 'content') ? message.content : null;
  if (content !== null && typeof content !== 'string')
    throw wrongType(`${param}.content`, 'a string or null');
  optionalString(message, 'name', `${param}.name`);
  const calls = message.tool_calls;
  if (!Array.isArray(calls) || calls.length === 0)
    throw invalidRequest(
      `${param}.tool_calls`,
      `${param}.tool_calls must be a non-empty array of calls.`,
    );
  const seen = new Set<string>();
  const toolCalls = calls.map((call: unknown, index) => {
    const at = `${param}.tool_calls[${index}]`;
    if (!isObject(call)) throw wrongType(at, 'a tool call object');
    rejectUnknownFields(call, TOOL_CALL_FIELDS, `${at}.`);
    if (typeof call.id !== 'string' || call.id === '') throw wrongType(`${at}.id`, 'a call id');
    if (seen.has(call.id))
      throw invalidRequest(`${at}.id`, `Two calls have the id ${JSON.stringify(call.id)}.`);
    seen.add(call.id);
    if (call.type !== 'function')
      throw invalidRequest(`${at}.type`, `${at}.type must be "function".`);
    const fn = call.function;
    if (!isObject(fn)) throw wrongType(`${at}.function`, 'an object with name and arguments');
    rejectUnknownFields(fn, ['name', 'arguments'], `${at}.function.`);
    if (typeof fn.name !== 'string' || fn.name === '')
      throw wrongType(`${at}.function.name`, 'a function name');
    if (typeof fn.arguments !== 'string')
      throw wrongType(`${at}.function.arguments`, 'a string of JSON');
    return { id: call.id, name: fn.name, arguments: fn.arguments };
  });
  return { role: 'assistant', content: content ?? '', toolCalls };
}

export function validateEmbeddingRequest(body: Json): EmbeddingRequest {
  rejectUnknownFields(body, EMBEDDING_FIELDS, '');
  const model = requireModel(body, 'embeddings');

  if (!has(body, 'input')) throw missing('input');
  const input = body.input;
  let inputs: string[];
  if (typeof input === 'string') {
    if (input.length === 0) throw invalidRequest('input', 'input must not be an empty string.');
    inputs = [input];
  } else if (Array.isArray(input)) {
    if (input.length === 0) throw invalidRequest('input', 'input must not be an empty array.');
    if (input.length > EMBEDDING_INPUTS_MAX) {
      throw invalidRequest('input', `input may hold at most ${EMBEDDING_INPUTS_MAX} strings.`);
    }
    inputs = input.map((item: unknown, index) => {
      const param = `input[${index}]`;
      if (typeof item !== 'string') {
        throw wrongType(param, 'a string (the demo relay does not accept token arrays)');
      }
      if (item.length === 0) throw invalidRequest(param, `${param} must not be an empty string.`);
      return item;
    });
  } else {
    throw wrongType('input', 'a string or an array of strings');
  }

  const encoding = optionalEnum(body, 'encoding_format', ['float', 'base64'] as const) ?? 'float';
  const dimensions =
    optionalInteger(body, 'dimensions', 1, EMBEDDING_DIMENSIONS) ??
    model.dimensions ??
    EMBEDDING_DIMENSIONS;
  optionalString(body, 'user');
  return { model, inputs, encoding, dimensions };
}

export function validateImageRequest(body: Json): ImageRequest {
  rejectUnknownFields(body, IMAGE_FIELDS, '');
  const model = requireModel(body, 'images');

  if (!has(body, 'prompt')) throw missing('prompt');
  const prompt = body.prompt;
  if (typeof prompt !== 'string') throw wrongType('prompt', 'a string');
  if (prompt.trim().length === 0) throw invalidRequest('prompt', 'prompt must not be empty.');
  if (prompt.length > IMAGE_PROMPT_MAX) {
    throw invalidRequest('prompt', `prompt must be at most ${IMAGE_PROMPT_MAX} characters long.`);
  }

  const { width, height } = parseSize(has(body, 'size') ? body.size : IMAGE_DEFAULT_SIZE);
  // Several images are honoured (each differs), but capped so one request stays quick.
  const count = optionalInteger(body, 'n', 1, IMAGE_COUNT_MAX) ?? 1;
  const format = optionalEnum(body, 'response_format', ['b64_json', 'url'] as const) ?? 'b64_json';
  optionalString(body, 'user');
  return { model, prompt, width, height, count, format };
}

function parseSize(size: unknown): { width: number; height: number } {
  if (typeof size !== 'string') throw wrongType('size', 'a string like "512x512"');
  const match = /^([1-9][0-9]{0,5})x([1-9][0-9]{0,5})$/.exec(size);
  if (!match) {
    throw invalidRequest(
      'size',
      'size must be <width>x<height> in pixels with a lower-case x, for example "512x512".',
    );
  }
  const width = Number(match[1]);
  const height = Number(match[2]);
  for (const side of [width, height]) {
    if (side < IMAGE_SIDE_MIN || side > IMAGE_SIDE_MAX) {
      throw invalidRequest(
        'size',
        `size ${size} is out of range: each side must be between ${IMAGE_SIDE_MIN} and ${IMAGE_SIDE_MAX} pixels.`,
      );
    }
  }
  return { width, height };
}

function requireModel(body: Json, kind: ModelKind): DemoModel {
  if (!has(body, 'model')) throw missing('model');
  const id = body.model;
  if (typeof id !== 'string') throw wrongType('model', 'a string');
  const model = findModel(id);
  const suitable = modelsOfKind(kind).join(', ');
  // 400 rather than OpenAI's 404: the spec lists 400 for invalid parameters, and a 400 with
  // `param: "model"` tells the client exactly what to fix.
  if (!model) {
    throw new RelayHttpError(
      400,
      `The model ${JSON.stringify(id)} does not exist on the demo relay. Use one of: ${suitable}.`,
      {
        code: 'model_not_found',
        param: 'model',
      },
    );
  }
  if (model.kind !== kind) {
    throw new RelayHttpError(
      400,
      `${model.id} is a ${model.kind} model; this endpoint needs a ${kind} model: ${suitable}.`,
      {
        code: 'model_not_supported',
        param: 'model',
      },
    );
  }
  return model;
}

function rejectUnknownFields(object: Json, allowed: readonly string[], prefix: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) {
      throw invalidRequest(
        `${prefix}${key}`,
        `Unrecognized request argument supplied: ${prefix}${key}. Accepted here: ${allowed.join(', ')}.`,
        'unknown_parameter',
      );
    }
  }
}

function optionalNumber(body: Json, field: string, min: number, max: number): number | undefined {
  if (!has(body, field)) return undefined;
  const value = body[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(field, 'a number');
  if (value < min || value > max)
    throw invalidRequest(field, `${field} must be between ${min} and ${max}.`);
  return value;
}

function optionalInteger(body: Json, field: string, min: number, max: number): number | undefined {
  if (!has(body, field)) return undefined;
  const value = body[field];
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType(field, 'an integer');
  if (value < min) throw invalidRequest(field, `${field} must be at least ${min}.`);
  if (value > max) throw invalidRequest(field, `${field} must be at most ${max}.`);
  return value;
}

function optionalBoolean(body: Json, field: string, param = field): boolean | undefined {
  if (!has(body, field)) return undefined;
  const value = body[field];
  if (typeof value !== 'boolean') throw wrongType(param, 'a boolean');
  return value;
}

function optionalString(body: Json, field: string, param = field): string | undefined {
  if (!has(body, field)) return undefined;
  const value = body[field];
  if (typeof value !== 'string') throw wrongType(param, 'a string');
  return value;
}

function optionalEnum<T extends string>(
  body: Json,
  field: string,
  values: readonly T[],
): T | undefined {
  if (!has(body, field)) return undefined;
  const value = body[field];
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalidRequest(
      field,
      `${field} must be one of ${values.map((v) => `"${v}"`).join(', ')}.`,
    );
  }
  return value as T;
}

function has(object: Json, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, field);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function missing(param: string): RelayHttpError {
  return invalidRequest(
    param,
    `Missing required parameter: ${param}.`,
    'missing_required_parameter',
  );
}

function wrongType(param: string, expected: string): RelayHttpError {
  return invalidRequest(param, `${param} must be ${expected}.`, 'invalid_type');
}
