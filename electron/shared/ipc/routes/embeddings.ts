/**
 * The embeddings part of the IPC contract (see ../contract.ts).
 *
 * Vectors are large (2,000 inputs of 3,072 dimensions are 24 MB as float32), so a run's summary
 * never carries them: each input comes with its dimensions, norm and first few values, and the
 * vectors themselves are fetched page by page, only when the page asks (to draw the pictures),
 * as binary float32 (a `Float32Array`, which IPC copies as bytes), not as lists of numbers.
 */
import { z } from 'zod';
import { event, ipcErrorSchema, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id, savedIdSchema } from '../schemas';
import { MAX_EMBEDDING_INPUTS } from '../../limits';
import { worded, wordedIssue } from '../../messages/worded';

/** At most this many characters in one input. */
export const MAX_EMBEDDING_INPUT_CHARS = 8000;
/** At most this many characters over all the inputs of one run, so a run's summary stays bounded. */
export const MAX_EMBEDDING_RUN_CHARS = 2_000_000;
/** How many leading values of each vector the summary shows. */
export const EMBEDDING_PREVIEW_VALUES = 8;
/**
 * A page of vectors holds at most this many values (rows × dimensions): 16 MB of float32, so
 * 2,000 vectors of 2,048 dimensions come in one answer.
 */
export const MAX_VECTOR_PAGE_VALUES = 4_194_304;

/**
 * "Lines 3 and 7 are empty": the positions (from 1) of empty entries, named for the person, as an
 * issue with its key in main's catalogue. Ten positions at most are named, then how many more:
 * `list` holds all but the last (digits and commas, which every language reads), `last` the last.
 */
export function emptyEntriesIssue(positions: readonly number[]): ReturnType<typeof wordedIssue> {
  const shown = positions.slice(0, 10);
  const more = positions.length - shown.length;
  const list = shown.slice(0, -1).join(', ');
  const last = shown[shown.length - 1] ?? 0;
  const tail = more > 0 ? ` (and ${more} more)` : '';
  const english =
    shown.length === 1 && more === 0
      ? `Line ${last} is empty.`
      : `Lines ${list === '' ? '' : `${list} and `}${last}${tail} are empty.`;
  return wordedIssue('form.embeddings.emptyLines', english, {
    count: positions.length,
    list,
    last,
    more,
  });
}

/** The positions (from 1) of entries that hold nothing but white space. */
export function emptyEntryPositions(inputs: readonly string[]): number[] {
  const out: number[] = [];
  inputs.forEach((input, index) => {
    if (input.trim() === '') out.push(index + 1);
  });
  return out;
}

export const embeddingInputsSchema = z
  .array(text(MAX_EMBEDDING_INPUT_CHARS), { error: 'inputs must be a list of texts' })
  .min(1, { error: worded('form.embeddings.oneText', 'Give at least one text to embed.') })
  .max(MAX_EMBEDDING_INPUTS, {
    error: worded(
      'form.embeddings.textsAtMost',
      `At most ${MAX_EMBEDDING_INPUTS} texts fit in one run.`,
      { max: MAX_EMBEDDING_INPUTS },
    ),
  })
  .superRefine((inputs, ctx) => {
    const empty = emptyEntryPositions(inputs);
    if (empty.length > 0) ctx.addIssue(emptyEntriesIssue(empty));
    const chars = inputs.reduce((sum, input) => sum + input.length, 0);
    if (chars > MAX_EMBEDDING_RUN_CHARS)
      ctx.addIssue(
        wordedIssue(
          'form.embeddings.charsAtMost',
          `The texts hold ${chars} characters; one run takes at most ${MAX_EMBEDDING_RUN_CHARS}.`,
          { chars, max: MAX_EMBEDDING_RUN_CHARS },
        ),
      );
  });

export const EMBEDDING_RUN_STATUSES = ['running', 'done', 'cancelled', 'failed'] as const;
export const embeddingRunStatusSchema = z.enum(EMBEDDING_RUN_STATUSES);

/** One input of a run: its text, and once embedded, what its vector looks like. */
export const embeddingItemSchema = z.object({
  index: z.number().int().nonnegative(),
  text: z.string(),
  dimensions: z.number().int().positive().optional(),
  norm: z.number().optional(),
  /** The first `EMBEDDING_PREVIEW_VALUES` values. */
  preview: z.array(z.number()).max(EMBEDDING_PREVIEW_VALUES).optional(),
  /** Tokens the relay counted for this input: known only when its request held it alone. */
  tokens: z.number().int().nonnegative().optional(),
});

export const embeddingRunSummarySchema = z.object({
  id,
  model: z.string(),
  createdAt: z.string(),
  status: embeddingRunStatusSchema,
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  /** The start of the first input, to recognise the run in a list. */
  firstInput: z.string(),
  /** Why the run stopped early; kept with the run so a reopened run still says it. */
  error: ipcErrorSchema.optional(),
});

export const embeddingRunSchema = embeddingRunSummarySchema.extend({
  dimensions: z.number().int().positive().optional(),
  /** Tokens the relay counted over the whole run, when it said. */
  promptTokens: z.number().int().nonnegative().optional(),
  items: z.array(embeddingItemSchema),
});

const runRef = z.strictObject({ runId: id });

export const EMBEDDINGS_ROUTES = {
  /** Starts embedding `inputs` with `model`; progress and the end arrive as events. */
  startEmbeddingRun: route(
    'embeddings:start',
    z.strictObject({ model: text(500).min(1), inputs: embeddingInputsSchema }),
    z.object({ runId: id }),
  ),
  cancelEmbeddingRun: route('embeddings:cancel', runRef, z.null()),
  /** Goes on with a run that failed or was cancelled: only the inputs without a vector are sent. */
  resumeEmbeddingRun: route('embeddings:resume', runRef, z.object({ runId: id })),
  /** A new run with the same inputs, and the same model unless another is named. */
  rerunEmbeddingRun: route(
    'embeddings:rerun',
    z.strictObject({ runId: id, model: text(500).min(1).optional() }),
    z.object({ runId: id }),
  ),
  /** A run, with its inputs from `offset` (at most `limit`, all by default): large runs come in pages. */
  getEmbeddingRun: route(
    'embeddings:get',
    z.strictObject({
      runId: id,
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().min(1).max(MAX_EMBEDDING_INPUTS).optional(),
    }),
    embeddingRunSchema,
  ),
  listEmbeddingRuns: route('embeddings:list', z.undefined(), z.array(embeddingRunSummarySchema)),
  deleteEmbeddingRun: route('embeddings:delete', runRef, z.null()),
  /**
   * A page of vectors from `offset`, at most `limit` rows and never more than
   * `MAX_VECTOR_PAGE_VALUES` values, as one block of float32: `count` rows of `dimensions`
   * values, row after row. An input not embedded yet is listed in `missing`; its row is zeros.
   */
  getEmbeddingVectors: route(
    'embeddings:vectors',
    z.strictObject({
      runId: id,
      offset: z.number().int().nonnegative(),
      limit: z.number().int().min(1).max(MAX_EMBEDDING_INPUTS),
    }),
    z.object({
      offset: z.number().int().nonnegative(),
      dimensions: z.number().int().nonnegative(),
      count: z.number().int().nonnegative(),
      values: z.instanceof(Float32Array),
      missing: z.array(z.number().int().nonnegative()),
    }),
  ),
  /** Embeds one query text, for "Nearest to…"; nothing is saved. */
  embedQuery: route(
    'embeddings:query',
    z.strictObject({
      model: text(500).min(1),
      text: text(MAX_EMBEDDING_INPUT_CHARS).refine((t) => t.trim() !== '', {
        error: worded('form.embeddings.query', 'Type a text to compare with the set.'),
      }),
    }),
    z.object({ vector: z.array(z.number()), tokens: z.number().int().nonnegative().optional() }),
  ),
  /** Saves the run's vectors through a save dialog; `path` is absent when the person cancelled. */
  exportEmbeddingRun: route(
    'embeddings:export',
    z.strictObject({ runId: id, format: z.enum(['json', 'csv']) }),
    z.object({
      path: z.string().optional(),
      savedId: savedIdSchema.optional(),
      rows: z.number().int().nonnegative(),
    }),
  ),
  /** Reads inputs from a .txt (one per line) or .csv (its cells) file the person opens. */
  openEmbeddingInputs: route(
    'embeddings:open-inputs',
    z.undefined(),
    z.object({
      /** Absent when the person cancelled. */
      fileName: z.string().optional(),
      inputs: z.array(z.string()),
      /** Blank lines or cells that were left out. */
      skippedEmpty: z.number().int().nonnegative(),
    }),
  ),
} as const satisfies Record<string, RouteSpec>;

export const EMBEDDINGS_EVENTS = {
  /** After each batch: how many inputs of the run have their vector. */
  embeddingProgress: event(
    'embeddings:progress',
    z.object({
      runId: id,
      done: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
    }),
  ),
  /** The run stopped: finished, cancelled (finished batches kept) or failed (idem). */
  embeddingRunEnded: event(
    'embeddings:ended',
    z.object({
      runId: id,
      status: embeddingRunStatusSchema,
      done: z.number().int().nonnegative(),
      total: z.number().int().nonnegative(),
      error: ipcErrorSchema.optional(),
    }),
  ),
} as const satisfies Record<string, EventSpec>;
