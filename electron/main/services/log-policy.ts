/**
 * What the support log may hold, decided in one place: every line written goes through here.
 *
 * - Never a key: the keys of the connections in use are removed wherever they appear, and so is
 *   anything shaped like one (`sk-…`, `Bearer …`, `api_key=…`), with the relay client's own
 *   redactor plus the shapes only a log meets. Addresses are logged as their origin and path,
 *   read by `URL`: their user name, password, query and fragment, which may hold one, never are.
 * - Never what a person wrote or a model replied (prompts, messages, embedding inputs) unless the
 *   person turned on "Include prompts in logs"; when it is off, a relay error that echoes the
 *   prompt has the prompt cut out too.
 * - Files rotate: `main.log` up to a size cap, then `main.1.log`, `main.2.log`; the oldest goes.
 */
import { renameSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';
import { inspect } from 'node:util';
import { makeRedactor } from './relay/http-errors';

export const LOGS_FOLDER = 'logs';
export const LOG_FILE = 'main.log';
/** A file is rotated once it passes this size… */
export const LOG_MAX_BYTES = 1024 * 1024;
/** …and this many files are kept, `main.log` included. */
export const LOG_FILES = 3;

/** Where the log files live: `logs/` in the user data folder. */
export function logsFolder(userDataDir: string): string {
  return join(userDataDir, LOGS_FOLDER);
}

export type Redact = (text: string) => string;

const BEARER = /\bBearer\s+[^\s"',;]+/gi;
const SECRET_PARAMETER = /\b(api[_-]?key|access[_-]?token|token|key|secret|password)=[^&\s"',;]+/gi;

/** Where an address starts: its scheme and `://`. */
const ADDRESS = /\b([a-z][a-z0-9+.-]*):\/\//gi;

/** The first index from `from` (up to `to`) whose character `test` accepts; `to` if none. */
function firstIndex(text: string, from: number, to: number, test: (char: string) => boolean) {
  for (let i = from; i < to; i++) if (test(text[i]!)) return i;
  return to;
}

const endsAddress = (char: string) => /[\s"'<>`]/.test(char);
const endsAuthority = (char: string) => /[\s/?#\\]/.test(char);

/** An address as the log shows it: its origin and path, or undefined when it does not parse. */
function originAndPath(address: string): string | undefined {
  try {
    const url = new URL(address);
    if (url.host === '' && url.protocol !== 'file:') return undefined;
    const origin = url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host}`;
    return `${origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * Every address in the text as its origin and path, read by `URL` as a browser reads it: the
 * user name and password (whatever they hold: quotes, spaces, backslashes), the query and the
 * fragment never reach the log. An address that does not read is logged as its scheme alone.
 */
function redactAddresses(text: string): string {
  let out = '';
  let copied = 0;
  ADDRESS.lastIndex = 0;
  for (let match = ADDRESS.exec(text); match !== null; match = ADDRESS.exec(text)) {
    const start = match.index;
    if (start < copied) continue;
    const scheme = match[1]!.toLowerCase();
    const after = start + match[0].length;
    // One address never runs into the next one, nor past the end of its line.
    const lineEnd = firstIndex(text, after, text.length, (c) => c === '\n' || c === '\r');
    ADDRESS.lastIndex = after;
    const next = ADDRESS.exec(text);
    const limit = next !== null && next.index < lineEnd ? next.index : lineEnd;
    ADDRESS.lastIndex = after;
    // The user name and password end at the last @ before the host (the authority's end).
    const authorityEnd = firstIndex(text, after, limit, endsAuthority);
    const at = text.lastIndexOf('@', authorityEnd - 1);
    let hostStart = at >= after ? at + 1 : after;
    let end = firstIndex(text, hostStart, limit, endsAddress);
    let shown = originAndPath(`${scheme}://${text.slice(hostStart, end)}`);
    if (shown === undefined) {
      // A password with a space or a backslash in it: the host follows the last @ of the line.
      const later = text.lastIndexOf('@', limit - 1);
      if (later >= hostStart) {
        hostStart = later + 1;
        end = firstIndex(text, hostStart, limit, endsAddress);
        shown = originAndPath(`${scheme}://${text.slice(hostStart, end)}`);
      }
    }
    out += `${text.slice(copied, start)}${shown ?? `${scheme}://[redacted]`}`;
    copied = end;
  }
  ADDRESS.lastIndex = 0;
  return out + text.slice(copied);
}

/**
 * Removes the given keys, and anything shaped like a key, from text bound for the log; every
 * address is logged as its origin and path only.
 */
export function makeLogRedactor(keys: () => Iterable<string>): Redact {
  const relayRedact = makeRedactor(() => [...keys()]);
  return (text) =>
    redactAddresses(relayRedact(text))
      .replace(BEARER, 'Bearer [redacted]')
      .replace(SECRET_PARAMETER, '$1=[redacted]');
}

/** An error as a log line: its name, message, relay details and stack; never a reply fragment. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return describeValue(error);
  // RelayError carries `partialText` (reply text) and other errors may hold request data in
  // their own properties: only the fields below are ever written.
  const { kind, status, code, param } = error as Error & Record<string, unknown>;
  const details = Object.entries({ kind, status, code, param })
    .filter(([, value]) => typeof value === 'string' || typeof value === 'number')
    .map(([name, value]) => `${name}=${String(value)}`);
  const head = `${error.name}: ${error.message}${details.length ? ` (${details.join(', ')})` : ''}`;
  const stack = error.stack?.split('\n').slice(1).join('\n');
  const cause = error.cause === undefined ? '' : `\n  cause: ${describeError(error.cause)}`;
  return `${head}${stack ? `\n${stack}` : ''}${cause}`;
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return inspect(value, { depth: 4, breakLength: Infinity, maxStringLength: 2000 });
}

/** Whatever was passed to one log call, as one line of text with every key removed. */
export function logText(data: readonly unknown[], redact: Redact): string {
  return redact(
    data
      .map((part) => (part instanceof Error ? describeError(part) : describeValue(part)))
      .join(' '),
  );
}

export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Readonly<Record<string, LogValue>>;

/** `event key=value …`: easy to read and to grep. Values with spaces or quotes are JSON-quoted. */
export function formatEvent(event: string, fields: LogFields = {}): string {
  const parts = [event];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = String(value);
    parts.push(`${name}=${/^[^\s"'=]+$/.test(text) ? text : JSON.stringify(text)}`);
  }
  return parts.join(' ');
}

/** Text a person wrote or a model replied, by field name; logged only when the person allows it. */
export type LogContent = Readonly<Record<string, string | readonly string[] | undefined>>;

const CONTENT_MAX_CHARS = 2000;
const CONTENT_MAX_ITEMS = 5;

function clip(text: string): string {
  return text.length > CONTENT_MAX_CHARS
    ? `${text.slice(0, CONTENT_MAX_CHARS)}… (${text.length} characters)`
    : text;
}

/** The content as log fields when the person allows it (clipped), and nothing otherwise. */
export function contentFields(content: LogContent | undefined, include: boolean): LogFields {
  if (!include || content === undefined) return {};
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(content)) {
    if (value === undefined) continue;
    if (typeof value === 'string') fields[name] = clip(value);
    else {
      const shown = value.slice(0, CONTENT_MAX_ITEMS).map(clip);
      const more = value.length > shown.length ? ` (+${value.length - shown.length} more)` : '';
      fields[name] = `${JSON.stringify(shown)}${more}`;
    }
  }
  return fields;
}

/** Below this length a text is too common to cut out of other text without mangling it. */
const MIN_WITHHELD_CHARS = 4;
/** A relay that echoes a long prompt often cuts it: its opening is cut out on its own too. */
const WITHHELD_PREFIX_CHARS = 32;

/** Cuts the content's texts out of `text` (an error message that may echo the prompt). */
export function withholdContent(text: string, content: LogContent | undefined): string {
  if (content === undefined) return text;
  const pieces = Object.values(content)
    .flatMap((value) => (value === undefined ? [] : typeof value === 'string' ? [value] : value))
    .flatMap((piece) =>
      piece.length > WITHHELD_PREFIX_CHARS
        ? [piece, piece.slice(0, WITHHELD_PREFIX_CHARS)]
        : [piece],
    )
    .map((piece) => piece.trim())
    .filter((piece) => piece.length >= MIN_WITHHELD_CHARS)
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const piece of pieces) out = out.split(piece).join('[content withheld]');
  return out;
}

/**
 * Rotates `main.log`: `main.1.log` becomes `main.2.log` and so on, the oldest of `files` goes,
 * and `main.log` becomes `main.1.log`. Synchronous, as the log transport calls it between writes.
 */
export function rotateLogFiles(path: string, files: number = LOG_FILES): void {
  const { dir, name, ext } = parse(path);
  const archived = (n: number) => join(dir, `${name}.${n}${ext}`);
  if (files <= 1) {
    rmSync(path, { force: true });
    return;
  }
  rmSync(archived(files - 1), { force: true });
  for (let n = files - 2; n >= 1; n--) {
    try {
      renameSync(archived(n), archived(n + 1));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  renameSync(path, archived(1));
}
