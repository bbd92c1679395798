/**
 * Request shapes of the Model Relay API, with the rules of its spec, as zod schemas.
 *
 * The relay client checks every request against these before anything is sent, and the IPC
 * contract reuses them, so a bad temperature is refused with the same words in both places.
 * Only the fields that `model-relay-api.md` lists are allowed: a strict relay may reject others.
 */
import { z } from 'zod';
import { IMAGE_SIZE_PATTERN, TEMPERATURE_RANGE } from './limits';

export const CHAT_ROLES = ['system', 'user', 'assistant'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

const modelName = z
  .string({ error: 'model must be the name of a model' })
  .trim()
  .min(1, { error: 'model must be the name of a model' });

/**
 * One part of a `content` array (the OpenAI convention, docs/design/attachments.md): text, or an image
 * as a data: URL of a PNG, JPEG, WebP or GIF.
 */
export const contentPartSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('text'), text: z.string({ error: 'text must be text' }) }),
    z.strictObject({
      type: z.literal('image_url'),
      image_url: z.strictObject({
        url: z
          .string({ error: 'url must be a data: URL' })
          .regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*$/, {
            error: 'url must be a data: URL of a PNG, JPEG, WebP or GIF image, base64-encoded',
          }),
      }),
    }),
  ],
  { error: 'each content part must be of type text or image_url' },
);

export const chatMessageSchema = z.strictObject({
  role: z.enum(CHAT_ROLES, { error: 'role must be one of system, user or assistant' }),
  content: z.union(
    [
      z.string(),
      z.array(contentPartSchema).min(1, { error: 'content must hold at least one part' }),
    ],
    { error: 'content must be text or a list of content parts' },
  ),
});

/** A function name as the convention allows it: letters, digits, `_` and `-`, 1 to 64 of them. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A tool offered to the model (the convention's function calling): its name, what it does and
 * the JSON Schema of its arguments.
 */
export const toolDefinitionSchema = z.strictObject({
  type: z.literal('function', { error: 'a tool must be of type function' }),
  function: z.strictObject({
    name: z.string({ error: 'a tool name must be text' }).regex(TOOL_NAME_PATTERN, {
      error: 'a tool name must be 1 to 64 letters, digits, underscores or hyphens',
    }),
    description: z.string({ error: 'a tool description must be text' }).optional(),
    parameters: z
      .record(z.string(), z.unknown(), {
        error: "a tool's parameters must be a JSON Schema object",
      })
      .optional(),
    strict: z.boolean().optional(),
  }),
});

/** Which tool the model must, may or may not call. */
export const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.strictObject({
      type: z.literal('function'),
      function: z.strictObject({ name: z.string().regex(TOOL_NAME_PATTERN) }),
    }),
  ],
  { error: 'tool_choice must be none, auto, required or a function by name' },
);

/** A call the model made, as it is sent back in the history with the assistant's message. */
export const toolCallSchema = z.strictObject({
  id: z.string({ error: 'a tool call needs its id' }).min(1, { error: 'a tool call needs its id' }),
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1, { error: 'a tool call needs the name of its function' }),
    /** The arguments as the model wrote them: JSON text. */
    arguments: z.string(),
  }),
});

/** The assistant's turn that called tools: its text (often none) and its calls. */
export const assistantToolCallsMessageSchema = z.strictObject({
  role: z.literal('assistant'),
  content: z.string().nullable().optional(),
  tool_calls: z.array(toolCallSchema).min(1, { error: 'tool_calls must hold at least one call' }),
});

/** A tool's result, answering one call by its id. */
export const toolMessageSchema = z.strictObject({
  role: z.literal('tool'),
  tool_call_id: z
    .string({ error: 'a tool message needs the id of the call it answers' })
    .min(1, { error: 'a tool message needs the id of the call it answers' }),
  content: z.string({ error: 'a tool result must be text' }),
});

export type ToolDefinition = z.infer<typeof toolDefinitionSchema>;
export type ToolChoice = z.infer<typeof toolChoiceSchema>;
export type ToolCallRecord = z.infer<typeof toolCallSchema>;
export type AssistantToolCallsMessage = z.infer<typeof assistantToolCallsMessageSchema>;
export type ToolMessage = z.infer<typeof toolMessageSchema>;
/** Any message of a request: plain text and images, an assistant's tool calls, a tool's result. */
export type RelayMessage = ChatMessage | AssistantToolCallsMessage | ToolMessage;

/**
 * One message of a request, checked against the variant its shape names (a tool result, an
 * assistant turn with tool calls, or a plain message), so that a mistake is reported by the field
 * it is in rather than as "matches none of three shapes".
 */
export const relayMessageSchema: z.ZodType<RelayMessage, unknown> = z
  .unknown()
  .transform((value, ctx): RelayMessage => {
    const record =
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
    const schema =
      record?.role === 'tool'
        ? toolMessageSchema
        : record?.role === 'assistant' && record.tool_calls !== undefined
          ? assistantToolCallsMessageSchema
          : chatMessageSchema;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({
        code: 'custom',
        message:
          issue.code === 'unrecognized_keys'
            ? `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
            : issue.message,
        path: issue.path,
      });
    }
    return z.NEVER;
  });

export const temperatureSchema = z
  .number({ error: 'temperature must be a number from 0 to 2' })
  .min(TEMPERATURE_RANGE.min, { error: 'temperature must be between 0 and 2' })
  .max(TEMPERATURE_RANGE.max, { error: 'temperature must be between 0 and 2' });

export const maxTokensSchema = z
  .number({ error: 'max_tokens must be a whole number of at least 1' })
  .int({ error: 'max_tokens must be a whole number of at least 1' })
  .min(1, { error: 'max_tokens must be a whole number of at least 1' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'max_tokens is too large' });

export const chatRequestSchema = z
  .strictObject({
    model: modelName,
    messages: z
      .array(relayMessageSchema, { error: 'messages must be a list of messages' })
      .min(1, { error: 'messages must hold at least one message' }),
    temperature: temperatureSchema.optional(),
    max_tokens: maxTokensSchema.optional(),
    stream: z.boolean({ error: 'stream must be true or false' }).optional(),
    /**
     * Function calling, sent only when the caller offers tools: the relay's convention carries them
     * (wire-conventions.md names `tool_calls` among the reasons a reply finishes).
     */
    tools: z
      .array(toolDefinitionSchema, { error: 'tools must be a list of tools' })
      .min(1, { error: 'tools must hold at least one tool (leave the field out instead)' })
      .max(128, { error: 'at most 128 tools can be offered at once' })
      .optional(),
    tool_choice: toolChoiceSchema.optional(),
    parallel_tool_calls: z
      .boolean({ error: 'parallel_tool_calls must be true or false' })
      .optional(),
  })
  .superRefine((request, ctx) => {
    const choice = request.tool_choice;
    if (choice !== undefined && request.tools === undefined && choice !== 'none') {
      ctx.addIssue({ code: 'custom', path: ['tool_choice'], message: 'tool_choice needs tools' });
    }
    if (typeof choice === 'object') {
      const named = choice.function.name;
      if (!request.tools?.some((tool) => tool.function.name === named))
        ctx.addIssue({
          code: 'custom',
          path: ['tool_choice', 'function', 'name'],
          message: `tool_choice names ${named}, which is not among the tools`,
        });
    }
    const names = new Set<string>();
    request.tools?.forEach((tool, index) => {
      if (names.has(tool.function.name))
        ctx.addIssue({
          code: 'custom',
          path: ['tools', index, 'function', 'name'],
          message: `two tools are named ${tool.function.name}`,
        });
      names.add(tool.function.name);
    });
    // A tool result answers a call an earlier assistant turn made, once.
    const open = new Set<string>();
    request.messages.forEach((message, index) => {
      if (message.role === 'assistant' && 'tool_calls' in message)
        for (const call of message.tool_calls) open.add(call.id);
      if (message.role === 'tool') {
        if (open.has(message.tool_call_id)) open.delete(message.tool_call_id);
        else
          ctx.addIssue({
            code: 'custom',
            path: ['messages', index, 'tool_call_id'],
            message: `messages[${index}] answers no tool call of an earlier assistant message`,
          });
      }
    });
  });

export const embeddingRequestSchema = z.strictObject({
  model: modelName,
  input: z.union(
    [
      z.string().min(1, { error: 'input must not be empty' }),
      z
        .array(
          z
            .string({ error: 'each input must be text' })
            .min(1, { error: 'input must not hold an empty text' }),
        )
        .min(1, { error: 'input must hold at least one text' }),
    ],
    { error: 'input must be a text or a list of texts' },
  ),
});

export const imageRequestSchema = z.strictObject({
  model: modelName,
  prompt: z
    .string({ error: 'prompt must be text' })
    .refine((p) => p.trim().length > 0, { error: 'prompt must not be empty' }),
  size: z
    .string({ error: 'size must be written <width>x<height>, for example 1024x1024' })
    .regex(IMAGE_SIZE_PATTERN, {
      error: 'size must be written <width>x<height>, for example 1024x1024',
    })
    .optional(),
});

export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ContentPart = z.infer<typeof contentPartSchema>;
export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type EmbeddingRequest = z.infer<typeof embeddingRequestSchema>;
export type ImageRequest = z.infer<typeof imageRequestSchema>;

/** Writes a zod issue path the way the relay names a param: `messages[2].role`. */
export function issuePathToParam(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}
