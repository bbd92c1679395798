/**
 * The variables of a saved prompt: `{{name}}` placeholders that a small form fills in before the
 * prompt is used. Main checks a prompt with it before saving; the renderer builds the form and
 * the preview from it. Plain data and pure functions: no Electron, Node or DOM.
 *
 * The syntax, inside double braces (spaces around the parts are allowed):
 * - `{{topic}}`: a required field, empty at first;
 * - `{{tone=friendly}}`: a field filled with a default the person may change (still required);
 * - `{{notes?}}`: an optional field, which may be left empty (see `fillTemplate` for what an
 *   empty one takes with it);
 * - `{{notes?=none}}`: optional, with a default.
 *
 * A name starts with a letter and holds letters, digits, `_` and `-`. The same name may appear
 * several times: it is one field, filled once. Braces that are not a placeholder (`{{` with no
 * `}}`, a `}}` with no `{{`, an empty or malformed name) are refused by position, so a typo never
 * reaches a model as a half-filled prompt.
 */

import type { ErrorMessageKey, MessageRef, PlainValue } from './messages/keys';

export const MAX_VARIABLES = 30;
export const MAX_VARIABLE_NAME = 40;
export const MAX_VARIABLE_DEFAULT = 500;

export interface PromptVariable {
  name: string;
  /** The value the field starts with; '' when the placeholder gives none. */
  defaultValue: string;
  required: boolean;
}

/**
 * Why a template's braces are wrong: the English `message`, and `words`, its key in main's
 * `errors` catalogue with its values, so the page says it in the person's language.
 */
interface Wrong {
  ok: false;
  message: string;
  words: MessageRef;
  index: number;
}

export type TemplateCheck = { ok: true; variables: PromptVariable[] } | Wrong;

const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

interface Placeholder {
  start: number;
  end: number;
  name: string;
  optional: boolean;
  defaultValue: string | undefined;
}

type Scan = { ok: true; placeholders: Placeholder[] } | Wrong;

/** The line and column (from 1) of `index`, for messages a person can follow. */
function position(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  return { line: before.split('\n').length, column: index - before.lastIndexOf('\n') };
}

/** `line 2, column 12`, as the English messages say it. */
function where(text: string, index: number): string {
  const { line, column } = position(text, index);
  return `line ${line}, column ${column}`;
}

function wrong(
  index: number,
  message: string,
  id: ErrorMessageKey,
  values: Record<string, PlainValue>,
): Wrong {
  return { ok: false, index, message, words: { id, values } };
}

function scan(text: string): Scan {
  const placeholders: Placeholder[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{{', at);
    const close = text.indexOf('}}', at);
    if (close !== -1 && (open === -1 || close < open)) {
      return wrong(
        close,
        `A closing }} at ${where(text, close)} has no opening {{ before it.`,
        'form.prompts.template.unopened',
        position(text, close),
      );
    }
    if (open === -1) break;
    const end = text.indexOf('}}', open + 2);
    const nextOpen = text.indexOf('{{', open + 2);
    if (end === -1 || (nextOpen !== -1 && nextOpen < end)) {
      return wrong(
        open,
        `The {{ at ${where(text, open)} is not closed with }}.`,
        'form.prompts.template.unclosed',
        position(text, open),
      );
    }
    const inner = text.slice(open + 2, end);
    const eq = inner.indexOf('=');
    let head = (eq === -1 ? inner : inner.slice(0, eq)).trim();
    const defaultValue = eq === -1 ? undefined : inner.slice(eq + 1).trim();
    const optional = head.endsWith('?');
    if (optional) head = head.slice(0, -1).trim();
    if (head.length === 0) {
      return wrong(
        open,
        `The placeholder at ${where(text, open)} has no name: write it like {{topic}}.`,
        'form.prompts.template.noName',
        position(text, open),
      );
    }
    if (!NAME.test(head) || head.length > MAX_VARIABLE_NAME) {
      return wrong(
        open,
        `"${head.slice(0, 60)}" at ${where(text, open)} is not a variable name: use a letter first, then letters, digits, _ or - (at most ${MAX_VARIABLE_NAME}).`,
        'form.prompts.template.badName',
        { name: head.slice(0, 60), ...position(text, open), max: MAX_VARIABLE_NAME },
      );
    }
    if (defaultValue !== undefined && defaultValue.length > MAX_VARIABLE_DEFAULT) {
      return wrong(
        open,
        `The default of {{${head}}} at ${where(text, open)} is longer than ${MAX_VARIABLE_DEFAULT} characters.`,
        'form.prompts.template.defaultTooLong',
        { name: head, ...position(text, open), max: MAX_VARIABLE_DEFAULT },
      );
    }
    placeholders.push({ start: open, end: end + 2, name: head, optional, defaultValue });
    at = end + 2;
  }
  return { ok: true, placeholders };
}

/** The variables of `text`, in order of first appearance, or why its braces are wrong. */
export function checkTemplate(text: string): TemplateCheck {
  const scanned = scan(text);
  if (!scanned.ok) return scanned;
  const byName = new Map<string, PromptVariable & { defaultAt?: number }>();
  for (const p of scanned.placeholders) {
    const known = byName.get(p.name);
    if (known === undefined) {
      byName.set(p.name, {
        name: p.name,
        defaultValue: p.defaultValue ?? '',
        required: !p.optional,
        ...(p.defaultValue !== undefined ? { defaultAt: p.start } : {}),
      });
      if (byName.size > MAX_VARIABLES) {
        return wrong(
          p.start,
          `A prompt can have at most ${MAX_VARIABLES} variables; {{${p.name}}} at ${where(text, p.start)} is one more.`,
          'form.prompts.template.tooManyVariables',
          { max: MAX_VARIABLES, name: p.name, ...position(text, p.start) },
        );
      }
      continue;
    }
    if (p.optional) known.required = false;
    if (p.defaultValue !== undefined) {
      if (known.defaultAt !== undefined && p.defaultValue !== known.defaultValue) {
        const first = known.defaultValue.slice(0, 40);
        const second = p.defaultValue.slice(0, 40);
        return wrong(
          p.start,
          `{{${p.name}}} has two different defaults ("${first}" and "${second}"); give it one.`,
          'form.prompts.template.twoDefaults',
          { name: p.name, first, second },
        );
      }
      known.defaultValue = p.defaultValue;
      known.defaultAt = p.start;
    }
  }
  return {
    ok: true,
    variables: [...byName.values()].map(({ name, defaultValue, required }) => ({
      name,
      defaultValue,
      required,
    })),
  };
}

/** The variables of a template already known to be valid (an empty list if it is not). */
export function templateVariables(text: string): PromptVariable[] {
  const checked = checkTemplate(text);
  return checked.ok ? checked.variables : [];
}

/** The required variables left empty in `values`, by name. */
export function missingValues(
  variables: readonly PromptVariable[],
  values: Readonly<Record<string, string>>,
): string[] {
  return variables
    .filter((v) => v.required && (values[v.name] ?? v.defaultValue).trim() === '')
    .map((v) => v.name);
}

type Piece = string | { placeholder: Placeholder; value: string; dropped: boolean };

/** A line that is only a label ("Severity:", "- **Area:**") and punctuation, or only punctuation. */
const LABEL_ONLY = /^(?:[^:\n]*:)?[\s\p{P}\p{S}]*$/u;
/** A lead-in ending in a colon, back to the comma or semicolon before it (or the line's start). */
const LEAD_IN = /(?:[,;][ \t]*|^)[^,;:\n]*:[ \t]*$/;

/** The text of one line, an empty optional placeholder at a time taking its phrase with it. */
function joinLine(pieces: readonly Piece[]): string {
  let out = '';
  for (const [index, piece] of pieces.entries()) {
    if (typeof piece === 'string') {
      out += out === '' && index > 0 ? piece.replace(/^[ \t]+/, '') : piece;
      continue;
    }
    if (!piece.dropped) {
      out += piece.value;
      continue;
    }
    if (LEAD_IN.test(out)) {
      out = out.replace(LEAD_IN, '');
      continue;
    }
    const next = pieces[index + 1];
    const after = typeof next === 'string' ? next : '';
    if (after === '' || /^[\s,.;:!?)\]]/.test(after)) out = out.replace(/[ \t]+$/, '');
  }
  return out;
}

/**
 * The text with each placeholder replaced by its value (the default where `values` has none).
 * A value is inserted as it is: braces in it are not read as placeholders again.
 *
 * An optional variable left empty (or only spaces) takes with it, so that no "Severity: ." is
 * left behind:
 * - its whole line, when every placeholder of the line is an empty optional one and the rest of
 *   the line is a label ending in a colon ("Severity:", "- **Area:**") or punctuation;
 * - otherwise, when it follows a colon, the lead-in it ends, back to the comma or semicolon
 *   before it or the start of the line ("Dear {{name}}, in plain words: {{extra?}}." gives
 *   "Dear Ada.");
 * - otherwise itself and the space before it, when a space or punctuation follows, so that no
 *   double space or space before a full stop is left ("a {{style?}} poem" gives "a poem").
 */
export function fillTemplate(text: string, values: Readonly<Record<string, string>>): string {
  const scanned = scan(text);
  if (!scanned.ok) return text;
  const variables = new Map(templateVariables(text).map((v) => [v.name, v]));
  const lines: Piece[][] = [[]];
  let at = 0;
  const addText = (chunk: string) => {
    const [first = '', ...rest] = chunk.split('\n');
    lines[lines.length - 1]!.push(first);
    for (const line of rest) lines.push([line]);
  };
  for (const p of scanned.placeholders) {
    addText(text.slice(at, p.start));
    const value = values[p.name] ?? variables.get(p.name)?.defaultValue ?? '';
    lines[lines.length - 1]!.push({
      placeholder: p,
      value,
      dropped: p.optional && value.trim() === '',
    });
    at = p.end;
  }
  addText(text.slice(at));
  const kept: string[] = [];
  for (const line of lines) {
    const holders = line.filter((piece) => typeof piece !== 'string');
    const onlyEmpty = holders.length > 0 && holders.every((piece) => piece.dropped);
    const rest = line.filter((piece) => typeof piece === 'string').join('');
    if (onlyEmpty && LABEL_ONLY.test(rest)) continue;
    kept.push(joinLine(line));
  }
  return kept.join('\n');
}
