/**
 * Main's words inside the contract's schemas: a zod message is English text (what `message`
 * keeps, for logs and tests), remembered here with its key in main's `errors` catalogue and its
 * values, so main sends the key with it and the page shows it in the person's language.
 *
 * - `worded(key, english, values)`: a schema's fixed message (`.min(1, { error: worded(…) })`).
 * - `wordedIssue(key, english, values)`: an issue a refinement adds, its key in `params` (its
 *   values change from one request to the next, so it is not remembered).
 * - `issueWords(issue)`: the key and values of an issue zod reported, when it has them.
 *
 * The English text is written beside its key, and a test checks it is the catalogue's English.
 */
import type { ErrorMessageKey, MessageRef, PlainValue } from './keys';

const fixedWords = new Map<string, MessageRef>();

/** A schema's message in English, remembered with its key and values. */
export function worded(
  id: ErrorMessageKey,
  english: string,
  values?: Record<string, PlainValue>,
): string {
  fixedWords.set(english, values ? { id, values } : { id });
  return english;
}

/** A custom issue with its key and values, for `ctx.addIssue` in a refinement. */
export function wordedIssue(
  id: ErrorMessageKey,
  english: string,
  values?: Record<string, PlainValue>,
): { code: 'custom'; message: string; params: MessageRef } {
  return { code: 'custom', message: english, params: values ? { id, values } : { id } };
}

/** Every fixed message of the schemas, by its English text (the catalogue test reads them). */
export function fixedWordings(): ReadonlyMap<string, MessageRef> {
  return fixedWords;
}

/** The key and values of an issue zod reported, or undefined for zod's own English. */
export function issueWords(issue: {
  code?: string;
  message: string;
  params?: unknown;
}): MessageRef | undefined {
  if (issue.code === 'custom' && issue.params !== null && typeof issue.params === 'object') {
    const { id, values } = issue.params as { id?: unknown; values?: unknown };
    if (typeof id === 'string') {
      return values !== null && typeof values === 'object'
        ? { id: id as ErrorMessageKey, values: values as Record<string, PlainValue> }
        : { id: id as ErrorMessageKey };
    }
  }
  return fixedWords.get(issue.message);
}
