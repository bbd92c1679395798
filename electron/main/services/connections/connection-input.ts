/**
 * What a person typed for a connection, checked by the contract's schemas
 * (`shared/ipc/routes/connections.ts`) and by the relay's own rules for an address and extra
 * headers (`relay/base-url.ts`, `relay/custom-headers.ts`), which need main. The router already
 * ran the schemas for a request from the page; they run again here for callers inside main (a
 * `relay-desktop://connect` link, sync), and every wrong field is reported at once, so a form
 * can mark them all.
 */
import type { z } from 'zod';
import {
  connectionChangesSchema,
  connectionDraftSchema,
  connectionTestDraftSchema,
} from '../../../shared/ipc/routes/connections';
import { AppError, type FieldIssue } from '../app-error';
import { sendsKeyInClear } from '../relay/base-url';
import { headerListProblems } from '../relay/custom-headers';
import { isRelayError, resolveBaseUrl } from '../relay/relay-client';
import { issueSaid, said, wordsOf, type Said } from '../words';
import type { StoredHeader } from './store';

export type ValidDraft = z.output<typeof connectionDraftSchema>;
export type ValidChanges = z.output<typeof connectionChangesSchema>;
export type ValidTestDraft = z.output<typeof connectionTestDraftSchema>;
export type ValidHeaders = NonNullable<ValidDraft['headers']>;

/** The fields in the order a form shows them: the order its issues are reported in. */
const FIELD_ORDER = ['name', 'baseUrl', 'apiKey', 'consoleUrl', 'allowUnencrypted', 'headers'];

interface Problem {
  field: string;
  words: Said | string;
}

/** A new connection's fields, checked; refused with every wrong field. */
export function checkNewConnection(input: unknown): ValidDraft {
  return checked(connectionDraftSchema, input, { address: true });
}

/** An edit's fields, checked like a new connection's; refused with every wrong field. */
export function checkChanges(input: unknown): ValidChanges {
  return checked(connectionChangesSchema, input, { address: true });
}

/** A draft to test: an address that does not read is the test's answer, not a refusal. */
export function checkTestDraft(input: unknown): ValidTestDraft {
  return checked(connectionTestDraftSchema, input, { address: false });
}

/**
 * Why the fields of a new connection would be refused, field by field, as the form would be told
 * (for a `relay-desktop://connect` link, whose fields are checked as if typed).
 */
export function newConnectionProblems(input: {
  name: string;
  baseUrl: string;
  consoleUrl?: string;
}): FieldIssue[] {
  return issuesOf(problemsOf(connectionDraftSchema.safeParse(input), input, { address: true }));
}

function checked<T>(schema: z.ZodType<T>, input: unknown, options: { address: boolean }): T {
  const parsed = schema.safeParse(input);
  const problems = problemsOf(parsed, input, options);
  if (parsed.success && problems.length === 0) return parsed.data;
  throw refusedFields(problems);
}

/** The refusal of every wrong field: one in its own words, several in English, joined. */
function refusedFields(problems: readonly Problem[]): AppError {
  const issues = issuesOf(problems);
  const [only] = problems;
  return new AppError(
    'invalid_request',
    problems.length === 1 && only ? only.words : issues.map((i) => i.message).join(' '),
    { issues },
  );
}

function problemsOf(
  parsed: z.ZodSafeParseResult<unknown>,
  input: unknown,
  { address }: { address: boolean },
): Problem[] {
  const problems: Problem[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.') || 'input',
        words: issue.code === 'unrecognized_keys' ? said('form.unknownFields') : issueSaid(issue),
      }));
  const fields = (typeof input === 'object' && input !== null ? input : {}) as Record<
    string,
    unknown
  >;
  // The relay's reading of the address says more than the schema's (an empty one included).
  const addressProblem =
    address && typeof fields['baseUrl'] === 'string'
      ? baseUrlProblem(fields['baseUrl'])
      : undefined;
  const fromSchema = problems.filter((p) => !(addressProblem && p.field === 'baseUrl'));
  const all = [
    ...fromSchema,
    ...(addressProblem ? [addressProblem] : []),
    ...headerProblems(fields).filter((p) => !fromSchema.some((q) => q.field === p.field)),
  ];
  const rank = (field: string) => {
    const at = FIELD_ORDER.indexOf(field.split('.')[0] ?? field);
    return at < 0 ? FIELD_ORDER.length : at;
  };
  return all.sort((a, b) => rank(a.field) - rank(b.field));
}

function baseUrlProblem(baseUrl: string): Problem | undefined {
  try {
    resolveBaseUrl(baseUrl);
    return undefined;
  } catch (error) {
    if (!isRelayError(error)) throw error;
    return { field: 'baseUrl', words: wordsOf(error) };
  }
}

/** The relay client's rules for extra headers, on the trimmed names and values sent. */
function headerProblems(fields: Record<string, unknown>): Problem[] {
  const headers = fields['headers'];
  if (!Array.isArray(headers)) return [];
  const readable = headers.map((h: unknown) => {
    const { name, value } = (typeof h === 'object' && h !== null ? h : {}) as {
      name?: unknown;
      value?: unknown;
    };
    const trimmed = typeof value === 'string' ? value.trim() : undefined;
    return {
      name: typeof name === 'string' ? name.trim() : '',
      ...(trimmed ? { value: trimmed } : {}),
    };
  });
  return headerListProblems(readable).map(({ index, message }) => ({
    field: `headers.${index}`,
    words: message,
  }));
}

/** The problems as a form's issues, in English. */
function issuesOf(problems: readonly Problem[]): FieldIssue[] {
  return problems.map(({ field, words }) => ({
    field,
    message: typeof words === 'string' ? words : words.english,
  }));
}

/**
 * The headers to keep in the file, and the secret values to keep in the key store, from what a
 * form sent: a secret header without a value takes `saved[name]`, or is refused.
 */
export function splitHeaders(
  drafts: ValidHeaders,
  saved: Readonly<Record<string, string>>,
  withheld?: 'moved' | { origin: string },
): { stored: StoredHeader[]; secrets: Record<string, string> } {
  const stored: StoredHeader[] = [];
  const secrets: Record<string, string> = {};
  const problems: Problem[] = [];
  const refuse = (index: number, words: Said) => {
    problems.push({ field: `headers.${index}`, words });
  };
  drafts.forEach((draft, index) => {
    const value = draft.value === '' ? undefined : draft.value;
    if (draft.secret === true) {
      const kept = value ?? saved[draft.name];
      if (kept === undefined) {
        refuse(
          index,
          withheld === undefined
            ? said('form.headerValue', { name: draft.name })
            : withheld === 'moved'
              ? said('form.headerValueMoved', { name: draft.name })
              : said('form.headerValueElsewhere', { name: draft.name, origin: withheld.origin }),
        );
        return;
      }
      secrets[draft.name] = kept;
      stored.push({ name: draft.name, secret: true });
    } else if (value === undefined) {
      refuse(index, said('form.headerValue', { name: draft.name }));
    } else {
      stored.push({ name: draft.name, secret: false, value });
    }
  });
  if (problems.length > 0) throw refusedFields(problems);
  return { stored, secrets };
}

/**
 * The origin (scheme, host, port) a key given for this address belongs to. An address that no
 * longer reads (a file edited by hand) is an origin of its own, matching nothing else.
 */
export function originOf(baseUrl: string): string {
  try {
    return resolveBaseUrl(baseUrl).origin;
  } catch {
    return `invalid:${baseUrl}`;
  }
}

/** The address is plain http to a host outside this machine and the local network. */
export function keyInClear(baseUrl: string): boolean {
  try {
    return sendsKeyInClear(resolveBaseUrl(baseUrl));
  } catch {
    return false;
  }
}

/** The refusal of a key for an http address the person has not agreed to send it to. */
export function unencryptedRefused(baseUrl: string): AppError {
  const message = said('connections.unencryptedRefused', { origin: originOf(baseUrl) });
  return new AppError('invalid_request', message, {
    issues: [{ field: 'allowUnencrypted', message: message.english }],
  });
}

/** Last four characters only for keys of 12 or more, so a short key is not half shown. */
export function keyLast4(key: string): string | undefined {
  return key.length >= 12 ? key.slice(-4) : undefined;
}
