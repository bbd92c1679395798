/**
 * The contract's numbers that the page checks too, before anything is sent: the bounds of
 * settings, prices, prompts, knowledge bases, embeddings and images. The schemas in `ipc/routes`
 * are written with them, and the page imports them as values (the one module of `shared` besides
 * a few pure ones that it may), so a form and main's check cannot drift apart.
 *
 * Plain data only: no zod, no imports (a lint rule keeps it so), so the page loads no schema code.
 */

/** A whole or decimal number from `min` to `max`, both included. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** A reply's temperature, any decimal in the range (the relay's spec). */
export const TEMPERATURE_RANGE = { min: 0, max: 2 } as const satisfies Range;

/** The settings a person types a number into (Settings: chat defaults, timeouts, files, tools). */
export const SETTINGS_RANGES = {
  /** The request and idle timeouts, in seconds. */
  timeoutSeconds: { min: 5, max: 3600 },
  /** The largest file attached to a message, in MB. */
  attachmentMb: { min: 1, max: 50 },
  /** The tokens a message with its files may hold where the model list does not say. */
  contextTokens: { min: 1000, max: 10_000_000 },
  /** The longest side an attached image is scaled down to, in pixels. */
  imageMaxSide: { min: 256, max: 4096 },
  /** The tokens the tool list may cost a request. */
  toolTokenBudget: { min: 0, max: 1_000_000 },
  /** Model replies that call tools in one turn. */
  toolSteps: { min: 1, max: 100 },
  /** The characters of a tool's result kept. */
  toolResultChars: { min: 1000, max: 1_000_000 },
} as const satisfies Record<string, Range>;

/** The highest price per million tokens taken: far above any model's, low enough to catch typos. */
export const MAX_PRICE_PER_MILLION = 100_000;

/** The sizes offered as presets; any other `<width>x<height>` is allowed too. */
export const IMAGE_SIZE_PRESETS = [
  '256x256',
  '512x512',
  '1024x1024',
  '1792x1024',
  '1024x1792',
  '1536x1024',
  '1024x1536',
] as const;

/** `<width>x<height>`: two positive integers of at most six digits and a lower-case x, as the relay's spec writes sizes. */
export const IMAGE_SIZE_PATTERN = /^[1-9][0-9]{0,5}x[1-9][0-9]{0,5}$/;

/** The widest (and tallest) side `IMAGE_SIZE_PATTERN` allows. */
export const MAX_IMAGE_SIDE = 999_999;

/** How many images one Generate may ask for (each by its own request when the relay gives one). */
export const MAX_IMAGE_COUNT = 10;

/** The lengths of a prompt's fields, in characters, and the counts of its lists. */
export const PROMPT_LIMITS = {
  name: 120,
  icon: 16,
  description: 1000,
  tags: 20,
  tag: 40,
  text: 100_000,
  starters: 10,
  starter: 4000,
  model: 500,
} as const;

export const KNOWLEDGE_LIMITS = {
  name: 120,
  model: 500,
  question: 8000,
  topK: 50,
  droppedPaths: 100,
  /** The most files a base's detail lists (its counts count them all). */
  filesListed: 500,
} as const;

/** How a conversation retrieves until the person changes it. */
export const RETRIEVAL_DEFAULTS = { topK: 6, minScore: 0.1, budgetTokens: 3000 } as const;
export const RETRIEVAL_LIMITS = {
  bases: 10,
  /** The chunks put in the prompt. */
  topK: { min: 1, max: KNOWLEDGE_LIMITS.topK },
  /** The cosine score below which a chunk is left out. */
  minScore: { min: -1, max: 1 },
  budgetTokens: { min: 200, max: 64_000 },
  /** The most chunks one conversation pins, and excludes. */
  steered: 200,
} as const;

/** At most this many inputs in one embeddings run. */
export const MAX_EMBEDDING_INPUTS = 5000;
