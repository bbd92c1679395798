/**
 * The knowledge part of the IPC contract (see ../contract.ts): knowledge bases built from the
 * person's files, embedded through the relay, and searched by meaning.
 *
 * A knowledge base has a name, an embeddings model and the connection it embeds through. Files
 * and folders are added by paths main asks for in its own dialog, or by grants for a drop (the
 * page never names a path);
 * each file is read for its text, cut into chunks that keep their place in the file, and each
 * chunk embedded. A file that cannot be read is refused with its name and the reason, and the
 * others go in.
 */
import { z } from 'zod';
import {
  event,
  messageRefFields,
  ipcErrorSchema,
  route,
  type EventSpec,
  type RouteSpec,
} from '../define';
import { grantIdSchema } from '../file-grants';
import { boundedText as text, idSchema as id, shownText } from '../schemas';
import { KNOWLEDGE_LIMITS, RETRIEVAL_LIMITS } from '../../limits';
import { worded } from '../../messages/worded';

export const KNOWLEDGE_STATUSES = ['empty', 'indexing', 'ready', 'cancelled', 'failed'] as const;
export type KnowledgeStatus = (typeof KNOWLEDGE_STATUSES)[number];

export const knowledgeBaseSchema = z.object({
  id,
  name: shownText,
  model: z.string(),
  connectionId: z.string(),
  /** The connection's name, or null when it was deleted since. */
  connectionName: z.string().nullable(),
  /** Set by the first vector the relay sent. */
  dimensions: z.number().int().nullable(),
  status: z.enum(KNOWLEDGE_STATUSES),
  /** Why the last indexing stopped early (the relay's error, or the app's). */
  error: ipcErrorSchema.optional(),
  files: z.number().int().nonnegative(),
  refused: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  embedded: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type KnowledgeBase = z.infer<typeof knowledgeBaseSchema>;

export const knowledgeFileSchema = z.object({
  id,
  path: z.string(),
  name: shownText,
  status: z.enum(['ready', 'refused']),
  /**
   * Why it was refused (`binary`, `encrypted`, `too_large`…), and a sentence for the person: in
   * English as `message`, with its key and values in main's catalogue (none for a file refused
   * by a version before keys were kept: its English shows as written).
   */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  ...messageRefFields,
  chunks: z.number().int().nonnegative(),
  embedded: z.number().int().nonnegative(),
});
export type KnowledgeFile = z.infer<typeof knowledgeFileSchema>;

export const knowledgeSourceSchema = z.object({
  /** What the page names to remove it (never its path). */
  id,
  path: z.string(),
  kind: z.enum(['file', 'folder']),
  /**
   * Not found on this computer (a source synced from another where it is, or one deleted
   * since): kept in the list, read again when it appears.
   */
  missing: z.boolean().optional(),
});

export const knowledgeBaseDetailSchema = knowledgeBaseSchema.extend({
  sources: z.array(knowledgeSourceSchema),
  /**
   * The files not added first, then the others by path, at most `filesListed` in all: a base of
   * thousands of files is not sent whole each time its screen loads (`files` and `refused`
   * count every one).
   */
  fileList: z.array(knowledgeFileSchema).max(KNOWLEDGE_LIMITS.filesListed),
});
export type KnowledgeBaseDetail = z.infer<typeof knowledgeBaseDetailSchema>;

/** Where a chunk sits in its file: its page (PDF), its heading path (Markdown), its lines. */
export const chunkPositionSchema = z.object({
  page: z.number().int().positive().nullable(),
  headings: z.array(z.string()),
  lineStart: z.number().int().positive(),
  lineEnd: z.number().int().positive(),
});
export type ChunkPosition = z.infer<typeof chunkPositionSchema>;

export const knowledgeHitSchema = z.object({
  chunkId: id,
  rank: z.number().int().positive(),
  /** Cosine similarity between the question and the chunk, -1 to 1. */
  score: z.number(),
  fileName: shownText,
  path: z.string(),
  position: chunkPositionSchema,
  text: z.string(),
});
export type KnowledgeHit = z.infer<typeof knowledgeHitSchema>;

export const knowledgeProgressSchema = z.object({
  kbId: id,
  phase: z.enum(['reading', 'embedding']),
  files: z.object({ done: z.number().int(), total: z.number().int() }),
  chunks: z.object({ done: z.number().int(), total: z.number().int() }),
  tokens: z.number().int().nonnegative(),
});
export type KnowledgeProgress = z.infer<typeof knowledgeProgressSchema>;

/** The knowledge bases a conversation asks with, and how it retrieves from them. */
export const conversationKnowledgeSchema = z.object({
  conversationId: id,
  /** In the order linked; `missing` when the base was deleted since (asking then refuses). */
  bases: z.array(z.object({ id, name: shownText, missing: z.boolean() })),
  topK: z.number().int().min(RETRIEVAL_LIMITS.topK.min).max(RETRIEVAL_LIMITS.topK.max),
  /** Chunks scoring below it are not put in the prompt. */
  minScore: z.number().min(RETRIEVAL_LIMITS.minScore.min).max(RETRIEVAL_LIMITS.minScore.max),
  /** The most tokens the sources may take in the prompt; the lowest-ranked are cut first. */
  budgetTokens: z
    .number()
    .int()
    .min(RETRIEVAL_LIMITS.budgetTokens.min)
    .max(RETRIEVAL_LIMITS.budgetTokens.max),
  /** Chunks always put in the prompt (first), and chunks never put in it. */
  pinned: z.array(id),
  excluded: z.array(id),
});
export type ConversationKnowledge = z.infer<typeof conversationKnowledgeSchema>;

/**
 * Where a retrieved chunk ended: in the prompt as a numbered source, cut by the token budget,
 * under the score threshold, or excluded by the person.
 */
export const RETRIEVAL_PLACEMENTS = ['prompt', 'budget', 'threshold', 'excluded'] as const;
export type RetrievalPlacement = (typeof RETRIEVAL_PLACEMENTS)[number];

export const retrievedChunkSchema = knowledgeHitSchema.extend({
  kbId: id,
  kbName: z.string(),
  pinned: z.boolean(),
  placement: z.enum(RETRIEVAL_PLACEMENTS),
  /** Its number in the prompt (`[n]` in the reply), when it went in. */
  source: z.number().int().positive().nullable(),
  /** What it costs in the prompt, estimated. */
  tokens: z.number().int().nonnegative(),
});
export type RetrievedChunk = z.infer<typeof retrievedChunkSchema>;

/** What a reply was asked with: kept with it, by its message id. */
export const retrievalRecordSchema = z.object({
  messageId: id,
  conversationId: id,
  question: z.string(),
  createdAt: z.string(),
  topK: z.number().int(),
  minScore: z.number(),
  budgetTokens: z.number().int(),
  /** The estimated tokens of the sources put in the prompt. */
  promptTokens: z.number().int().nonnegative(),
  /** By rank (pinned chunks first, then by score). */
  chunks: z.array(retrievedChunkSchema),
  /** The question's vector and each chunk's (in `chunks` order), for the map; null when the bases differ in dimensions. */
  map: z.object({ question: z.array(z.number()), chunks: z.array(z.array(z.number())) }).nullable(),
});
export type RetrievalRecord = z.infer<typeof retrievalRecordSchema>;

const nameRequest = text(KNOWLEDGE_LIMITS.name * 2);

export const KNOWLEDGE_ROUTES = {
  listKnowledgeBases: route('knowledge:list', z.null().optional(), z.array(knowledgeBaseSchema)),
  getKnowledgeBase: route('knowledge:get', z.strictObject({ id }), knowledgeBaseDetailSchema),
  /** A new, empty knowledge base over the active connection. */
  createKnowledgeBase: route(
    'knowledge:create',
    z.strictObject({ name: nameRequest, model: text(KNOWLEDGE_LIMITS.model) }),
    knowledgeBaseSchema,
  ),
  renameKnowledgeBase: route(
    'knowledge:rename',
    z.strictObject({ id, name: nameRequest }),
    knowledgeBaseSchema,
  ),
  /**
   * "Try the demo knowledge base": a base over the sample documents shipped with the app,
   * embedded by the demo relay (started if needed; the active connection stays as it is).
   */
  createDemoKnowledgeBase: route('knowledge:create-demo', z.null().optional(), knowledgeBaseSchema),
  /** Deletes the knowledge base with its chunks and vectors (the files themselves stay). */
  deleteKnowledgeBase: route('knowledge:delete', z.strictObject({ id }), z.null()),
  /**
   * Asks for files or a folder in main's dialog, adds them and starts indexing; `chosen` is false
   * when the person cancelled.
   */
  addKnowledgeSources: route(
    'knowledge:add',
    z.strictObject({ id, kind: z.enum(['files', 'folder']) }),
    z.object({ chosen: z.boolean(), added: z.number().int() }),
  ),
  /**
   * Adds files and folders dropped on the screen, by the grants main gave the preload for them
   * (the page names no path: see `shared/ipc/file-grants.ts`); main looks at each on disk, and
   * refuses by name what is neither a file nor a folder.
   */
  addKnowledgeDropped: route(
    'knowledge:add-dropped',
    z.strictObject({
      id,
      grants: z
        .array(grantIdSchema)
        .min(1)
        .max(KNOWLEDGE_LIMITS.droppedPaths, {
          error: worded(
            'form.knowledge.dropAtMost',
            `Drop at most ${KNOWLEDGE_LIMITS.droppedPaths} files or folders at once.`,
            { max: KNOWLEDGE_LIMITS.droppedPaths },
          ),
        }),
    }),
    z.object({
      added: z.number().int(),
      refused: z.array(z.object({ name: shownText, reason: z.string(), ...messageRefFields })),
    }),
  ),
  /** Shows a file of the base in the system's file manager. */
  revealKnowledgeFile: route('knowledge:reveal-file', z.strictObject({ id, fileId: id }), z.null()),
  /** What moving the base to another embeddings model would send to the relay, and cost. */
  estimateKnowledgeModel: route(
    'knowledge:estimate-model',
    z.strictObject({ id, model: text(KNOWLEDGE_LIMITS.model) }),
    z.object({
      chunks: z.number().int().nonnegative(),
      tokens: z.number().int().nonnegative(),
      cost: z.object({ amount: z.number().nonnegative(), currency: z.string() }).nullable(),
    }),
  ),
  /** Moves the base to another embeddings model and embeds every chunk again. */
  setKnowledgeModel: route(
    'knowledge:set-model',
    z.strictObject({ id, model: text(KNOWLEDGE_LIMITS.model) }),
    knowledgeBaseSchema,
  ),
  /** A new base over the same files and folders with another embeddings model, indexed at once. */
  copyKnowledgeBase: route(
    'knowledge:copy',
    z.strictObject({ id, model: text(KNOWLEDGE_LIMITS.model) }),
    knowledgeBaseSchema,
  ),
  /** Stops adding a source (the file stays on disk); its chunks go at the next indexing. */
  removeKnowledgeSource: route(
    'knowledge:remove-source',
    z.strictObject({ id, sourceId: id }),
    z.null(),
  ),
  /**
   * Reads what changed since the last indexing (by content hash) and embeds what has no vector
   * yet: resumes after a failure, a cancel or a restart, keeping what was embedded.
   */
  indexKnowledgeBase: route('knowledge:index', z.strictObject({ id }), z.null()),
  cancelKnowledgeIndexing: route('knowledge:cancel', z.strictObject({ id }), z.null()),
  /** Embeds the question with the knowledge base's model and ranks its chunks by cosine. */
  searchKnowledgeBase: route(
    'knowledge:search',
    z.strictObject({
      id,
      question: text(KNOWLEDGE_LIMITS.question),
      topK: conversationKnowledgeSchema.shape.topK.optional(),
    }),
    z.object({ hits: z.array(knowledgeHitSchema), tokens: z.number().int().optional() }),
  ),
  /** The knowledge bases a conversation asks with, and its retrieval settings. */
  getConversationKnowledge: route(
    'knowledge:conversation',
    z.strictObject({ conversationId: id }),
    conversationKnowledgeSchema,
  ),
  /** Links bases to a conversation (the list replaces the one before) or changes its settings. */
  setConversationKnowledge: route(
    'knowledge:conversation-set',
    z.strictObject({
      conversationId: id,
      kbIds: z.array(id).max(RETRIEVAL_LIMITS.bases).optional(),
      topK: conversationKnowledgeSchema.shape.topK.optional(),
      minScore: conversationKnowledgeSchema.shape.minScore.optional(),
      budgetTokens: conversationKnowledgeSchema.shape.budgetTokens.optional(),
    }),
    conversationKnowledgeSchema,
  ),
  /** Pins a chunk (always in the prompt), excludes it (never), or undoes either. */
  steerRetrieval: route(
    'knowledge:steer',
    z.strictObject({
      conversationId: id,
      chunkId: id,
      action: z.enum(['pin', 'unpin', 'exclude', 'include']),
    }),
    conversationKnowledgeSchema,
  ),
  /** What a reply was asked with; null for a reply asked without a knowledge base. */
  getRetrieval: route(
    'knowledge:retrieval',
    z.strictObject({ messageId: id }),
    retrievalRecordSchema.nullable(),
  ),
  /** The replies of a conversation that were asked with a knowledge base. */
  listRetrievals: route(
    'knowledge:retrievals',
    z.strictObject({ conversationId: id }),
    z.array(id),
  ),
  /**
   * Shows a cited chunk's file in the file manager, or opens it; the path is the one kept with
   * the reply's retrieval (the page never names one).
   */
  revealRetrievedFile: route(
    'knowledge:reveal',
    z.strictObject({ messageId: id, chunkId: id, action: z.enum(['show', 'open']) }),
    z.null(),
  ),
} satisfies Record<string, RouteSpec>;

export const KNOWLEDGE_EVENTS = {
  /** A knowledge base was created, renamed, deleted, or its files or status changed. */
  knowledgeChanged: event('knowledge:changed', z.object({ kbId: id.nullable() })),
  knowledgeProgress: event('knowledge:progress', knowledgeProgressSchema),
  knowledgeIndexEnded: event(
    'knowledge:index-ended',
    z.object({
      kbId: id,
      status: z.enum(['ready', 'cancelled', 'failed']),
      error: ipcErrorSchema.optional(),
    }),
  ),
} satisfies Record<string, EventSpec>;
