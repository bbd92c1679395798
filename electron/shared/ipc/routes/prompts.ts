/**
 * The prompts part of the IPC contract (see ../contract.ts): the prompt library.
 *
 * A prompt is either an assistant (a system prompt, with an optional model, temperature and max
 * tokens and starter messages, that a new chat starts from) or a snippet (text that `/` in the
 * composer inserts). Its text may hold `{{name}}` variables (../../prompt-template.ts), which a
 * small form fills in before it is used.
 *
 * The routes take any bounded text; main checks a draft against `promptDraftSchema` and refuses
 * it with a message for the person (an empty name, braces that are not a placeholder, text that
 * is too long), the same check an imported file's entries go through.
 */
import { z } from 'zod';
import { checkTemplate } from '../../prompt-template';
import { maxTokensSchema, temperatureSchema } from '../../relay-requests';
import { event, messageRefFields, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id, savedIdSchema, shownText } from '../schemas';
import { PROMPT_LIMITS } from '../../limits';
import { worded, wordedIssue } from '../../messages/worded';

export const PROMPT_KINDS = ['assistant', 'snippet'] as const;
export type PromptKind = (typeof PROMPT_KINDS)[number];

/** An import file larger than this is refused before it is read. */
export const MAX_PROMPT_FILE_BYTES = 10 * 1024 * 1024;
/** How many prompts one import file may hold. */
export const MAX_PROMPTS_PER_FILE = 1000;

/** The format of an exported library, and the only one import reads. */
export const PROMPT_FILE_FORMAT = 'relay-desktop.prompts';
export const PROMPT_FILE_VERSION = 1;

/** What a person writes: checked field by field with a message for each mistake. */
export const promptDraftSchema = z.strictObject({
  kind: z.enum(PROMPT_KINDS, {
    error: worded('form.prompts.kind', 'Choose whether this is an assistant or a snippet.'),
  }),
  name: z
    .string({ error: worded('form.prompts.nameText', 'The name must be text.') })
    .trim()
    .min(1, { error: worded('form.prompts.name', 'Give the prompt a name.') })
    .max(PROMPT_LIMITS.name, {
      error: worded(
        'form.prompts.nameAtMost',
        `Keep the name to ${PROMPT_LIMITS.name} characters.`,
        { max: PROMPT_LIMITS.name },
      ),
    }),
  icon: z
    .string({ error: worded('form.prompts.iconText', 'The icon must be text (an emoji).') })
    .trim()
    .max(PROMPT_LIMITS.icon, {
      error: worded('form.prompts.iconLong', 'The icon is one emoji or a few characters.'),
    })
    .default(''),
  description: z
    .string({ error: worded('form.prompts.descriptionText', 'The description must be text.') })
    .trim()
    .max(PROMPT_LIMITS.description, {
      error: worded(
        'form.prompts.descriptionAtMost',
        `Keep the description to ${PROMPT_LIMITS.description} characters.`,
        { max: PROMPT_LIMITS.description },
      ),
    })
    .default(''),
  tags: z
    .array(
      z
        .string({ error: worded('form.prompts.tagText', 'Each tag must be text.') })
        .trim()
        .min(1, { error: worded('form.prompts.tagEmpty', 'A tag cannot be empty.') })
        .max(PROMPT_LIMITS.tag, {
          error: worded(
            'form.prompts.tagAtMost',
            `Keep each tag to ${PROMPT_LIMITS.tag} characters.`,
            { max: PROMPT_LIMITS.tag },
          ),
        }),
      { error: worded('form.prompts.tagsList', 'Tags must be a list of words.') },
    )
    .max(PROMPT_LIMITS.tags, {
      error: worded(
        'form.prompts.tagsAtMost',
        `A prompt can have at most ${PROMPT_LIMITS.tags} tags.`,
        { max: PROMPT_LIMITS.tags },
      ),
    })
    .default([])
    .transform((tags) => [...new Set(tags)]),
  text: z
    .string({ error: worded('form.prompts.textText', 'The prompt text must be text.') })
    .max(PROMPT_LIMITS.text, {
      error: worded(
        'form.prompts.textAtMost',
        `The prompt text is longer than ${PROMPT_LIMITS.text.toLocaleString('en-US')} characters.`,
        { max: PROMPT_LIMITS.text },
      ),
    })
    .refine((t) => t.trim().length > 0, {
      error: worded('form.prompts.textEmpty', 'Write the prompt text.'),
    })
    .superRefine((t, ctx) => {
      const checked = checkTemplate(t);
      if (!checked.ok)
        ctx.addIssue(wordedIssue(checked.words.id, checked.message, checked.words.values));
    }),
  model: z
    .string({ error: worded('form.prompts.model', 'The model must be a model name.') })
    .trim()
    .min(1, { error: worded('form.prompts.model', 'The model must be a model name.') })
    .max(PROMPT_LIMITS.model, {
      error: worded('form.prompts.modelLong', 'The model name is too long.'),
    })
    .nullable()
    .default(null),
  temperature: temperatureSchema.nullable().default(null),
  maxTokens: maxTokensSchema.nullable().default(null),
  starters: z
    .array(
      z
        .string({ error: worded('form.prompts.starterText', 'Each starter message must be text.') })
        .trim()
        .min(1, {
          error: worded('form.prompts.starterEmpty', 'A starter message cannot be empty.'),
        })
        .max(PROMPT_LIMITS.starter, {
          error: worded(
            'form.prompts.starterAtMost',
            `Keep each starter message to ${PROMPT_LIMITS.starter} characters.`,
            { max: PROMPT_LIMITS.starter },
          ),
        }),
      { error: worded('form.prompts.startersList', 'Starter messages must be a list of texts.') },
    )
    .max(PROMPT_LIMITS.starters, {
      error: worded(
        'form.prompts.startersAtMost',
        `A prompt can have at most ${PROMPT_LIMITS.starters} starter messages.`,
        { max: PROMPT_LIMITS.starters },
      ),
    })
    .default([]),
});
export type PromptDraft = z.output<typeof promptDraftSchema>;
export type PromptDraftInput = z.input<typeof promptDraftSchema>;

/** A draft as it crosses IPC: bounded, the details checked in main (see the note at the top). */
const draftRequest = z.strictObject({
  kind: z.enum(PROMPT_KINDS),
  name: text(PROMPT_LIMITS.name * 2),
  icon: text(PROMPT_LIMITS.icon * 4).optional(),
  description: text(PROMPT_LIMITS.description * 2).optional(),
  tags: z
    .array(text(PROMPT_LIMITS.tag * 2))
    .max(PROMPT_LIMITS.tags * 2)
    .optional(),
  text: text(PROMPT_LIMITS.text * 2),
  model: text(PROMPT_LIMITS.model * 2)
    .nullable()
    .optional(),
  temperature: z.number().nullable().optional(),
  maxTokens: z.number().nullable().optional(),
  starters: z
    .array(text(PROMPT_LIMITS.starter * 2))
    .max(PROMPT_LIMITS.starters * 2)
    .optional(),
});

export const promptVariableSchema = z.object({
  name: z.string(),
  defaultValue: z.string(),
  required: z.boolean(),
});

export const promptSchema = z.object({
  id,
  kind: z.enum(PROMPT_KINDS),
  name: shownText,
  icon: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  text: z.string(),
  model: z.string().nullable(),
  temperature: z.number().nullable(),
  maxTokens: z.number().int().nullable(),
  starters: z.array(z.string()),
  /** The `{{name}}` placeholders of `text`, in order of first appearance. */
  variables: z.array(promptVariableSchema),
  /** One of the app's own prompts (which can be edited or hidden, not deleted). */
  builtIn: z.boolean(),
  /**
   * A built-in prompt exactly as the app ships it: its key, so the page can show its name,
   * description, text and starter messages in the person's language. Null for the person's own
   * prompts and for a built-in one they changed (it is theirs then, and stays as they wrote it).
   */
  asShipped: z.string().nullable(),
  hidden: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Prompt = z.infer<typeof promptSchema>;

export const promptOriginSchema = z.object({
  promptId: id.nullable(),
  name: shownText,
  icon: z.string(),
});
export type PromptOrigin = z.infer<typeof promptOriginSchema>;

export const promptImportResultSchema = z.object({
  /** false when the person cancelled the file dialog. */
  chosen: z.boolean(),
  added: z.number().int().nonnegative(),
  /** Already in the library (same kind, name and text): not added twice. */
  duplicates: z.number().int().nonnegative(),
  /** Entries refused, each by its name (or its place in the file) and the reason. */
  refused: z.array(
    z.object({
      /** In English; `entryId` and `entryValues` give it in the person's language. */
      entry: z.string(),
      entryId: messageRefFields.messageId,
      entryValues: messageRefFields.values,
      reason: z.string(),
      ...messageRefFields,
    }),
  ),
});
export type PromptImportResult = z.infer<typeof promptImportResultSchema>;

export const PROMPTS_ROUTES = {
  /** The library, by name; `query` searches names, descriptions, tags and text. */
  listPrompts: route(
    'prompts:list',
    z
      .strictObject({
        query: text(500).optional(),
        kind: z.enum(PROMPT_KINDS).optional(),
        /** Also the built-in prompts the person hid (for the library screen's "Show hidden"). */
        includeHidden: z.boolean().optional(),
      })
      .optional(),
    z.array(promptSchema),
  ),
  createPrompt: route('prompts:create', draftRequest, promptSchema),
  updatePrompt: route('prompts:update', z.strictObject({ id, draft: draftRequest }), promptSchema),
  /** Deletes one of the person's prompts; a built-in one is hidden instead. */
  deletePrompt: route('prompts:delete', z.strictObject({ id }), z.null()),
  setPromptHidden: route(
    'prompts:set-hidden',
    z.strictObject({ id, hidden: z.boolean() }),
    promptSchema,
  ),
  /** Remembers that a conversation was started from a prompt (its name kept if it goes). */
  linkPromptConversation: route(
    'prompts:link-conversation',
    z.strictObject({ promptId: id, conversationId: id }),
    z.null(),
  ),
  /** The prompt a conversation was started from, or null. */
  getConversationPrompt: route(
    'prompts:conversation-prompt',
    z.strictObject({ conversationId: id }),
    promptOriginSchema.nullable(),
  ),
  /** Asks where to save the library as JSON; `saved` is false when the person cancelled. */
  exportPrompts: route(
    'prompts:export',
    z.strictObject({ includeBuiltIn: z.boolean().optional() }).optional(),
    z.object({
      saved: z.boolean(),
      path: z.string().optional(),
      savedId: savedIdSchema.optional(),
      count: z.number().int(),
    }),
  ),
  /** Asks for a JSON file and adds its valid prompts; bad entries are refused by name. */
  importPrompts: route('prompts:import', z.null().optional(), promptImportResultSchema),
} satisfies Record<string, RouteSpec>;

export const PROMPTS_EVENTS = {
  /** The library changed (a prompt saved, deleted, hidden or imported). */
  promptsChanged: event('prompts:changed', z.null()),
} satisfies Record<string, EventSpec>;
