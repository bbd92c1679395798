/**
 * Request shapes of the Model Relay API, with the rules of its spec, as zod schemas.
 *
 * The relay client checks every request against these before anything is sent, and the IPC
 * contract reuses them, so a bad temperature is refused with the same words in both places.
 * Only the fields that `model-relay-api.md` lists are allowed: a strict relay may reject others.
 */
import { z } from 'zod';

export const CHAT_ROLES = ['system', 'user', 'assistant'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

const modelName = z
  .string({ error: 'model must be the name of a model' })
  .trim()
  .min(1, { error: 'model must be the name of a model' });

/**
 * One part of a `content` array (the OpenAI convention, docs/architecture.md): text, or an image
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

export const temperatureSchema = z
  .number({ error: 'temperature must be a number from 0 to 2' })
  .min(0, { error: 'temperature must be between 0 and 2' })
  .max(2, { error: 'temperature must be between 0 and 2' });

export const maxTokensSchema = z
  .number({ error: 'max_tokens must be a whole number of at least 1' })
  .int({ error: 'max_tokens must be a whole number of at least 1' })
  .min(1, { error: 'max_tokens must be a whole number of at least 1' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'max_tokens is too large' });

export const chatRequestSchema = z.strictObject({
  model: modelName,
  messages: z
    .array(chatMessageSchema, { error: 'messages must be a list of messages' })
    .min(1, { error: 'messages must hold at least one message' }),
  temperature: temperatureSchema.optional(),
  max_tokens: maxTokensSchema.optional(),
  stream: z.boolean({ error: 'stream must be true or false' }).optional(),
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

/** `<width>x<height>`: two positive integers and a lower-case x, as the spec writes sizes. */
export const IMAGE_SIZE_PATTERN = /^[1-9][0-9]{0,5}x[1-9][0-9]{0,5}$/;

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
