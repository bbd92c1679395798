/**
 * The prompt library as a JSON file: what export writes and the only thing import reads.
 *
 * ```json
 * { "format": "relay-desktop.prompts", "version": 1, "prompts": [ { "kind": "snippet", … } ] }
 * ```
 *
 * Each entry is checked on its own with the same rules as the editor (`promptDraftSchema`): a bad
 * entry is refused by its name (or its place in the file, when it has no usable name) with the
 * reason, and the good ones are still imported. A file that is not such a library at all (not
 * JSON, another format, a newer version) is refused as a whole, before anything changes.
 */
import { z } from 'zod';
import {
  MAX_PROMPTS_PER_FILE,
  PROMPT_FILE_FORMAT,
  PROMPT_FILE_VERSION,
  promptDraftSchema,
  type Prompt,
  type PromptDraft,
} from '../../../shared/ipc/routes/prompts';
import { AppError, refusal, type Refusal } from '../app-error';
import type { ErrorMessageKey, MessageValues } from '../../../shared/messages/keys';
import { issueSaid, said, type Said } from '../words';

export interface PromptFileEntry {
  kind: Prompt['kind'];
  name: string;
  icon: string;
  description: string;
  tags: string[];
  text: string;
  model: string | null;
  temperature: number | null;
  maxTokens: number | null;
  starters: string[];
}

export function serializePrompts(prompts: readonly Prompt[]): string {
  const entries: PromptFileEntry[] = prompts.map((p) => ({
    kind: p.kind,
    name: p.name,
    icon: p.icon,
    description: p.description,
    tags: p.tags,
    text: p.text,
    model: p.model,
    temperature: p.temperature,
    maxTokens: p.maxTokens,
    starters: p.starters,
  }));
  return `${JSON.stringify(
    { format: PROMPT_FILE_FORMAT, version: PROMPT_FILE_VERSION, prompts: entries },
    null,
    2,
  )}\n`;
}

const envelope = z.object({
  format: z.literal(PROMPT_FILE_FORMAT),
  version: z.number().int(),
  prompts: z.array(z.unknown()),
});

/** An entry's label ("entry 3"): in English, with its key and values for the page's language. */
export interface EntryLabel {
  entry: string;
  entryId: ErrorMessageKey;
  entryValues: MessageValues;
}

export interface ParsedPromptFile {
  drafts: Array<EntryLabel & { draft: PromptDraft }>;
  refused: Array<EntryLabel & { reason: string } & Omit<Refusal, 'name' | 'reason'>>;
}

/** Where a zod issue points, as a field name a person knows. */
function fieldOf(path: readonly PropertyKey[]): string {
  const first = path[0];
  return typeof first === 'string' ? first : '';
}

/** The name an entry is refused by: its own name when it has a usable one, else its place. */
function labelOf(raw: unknown, index: number): EntryLabel {
  const name = (raw as { name?: unknown } | null)?.name;
  const label =
    typeof name === 'string' && name.trim() !== ''
      ? said('import.prompts.entryNamed', { name: name.trim().slice(0, 80), index: index + 1 })
      : said('import.prompts.entry', { index: index + 1 });
  return { entry: label.english, entryId: label.id, entryValues: label.values ?? {} };
}

/** Why the schema refused an entry: its words (by key when they have one), after the field. */
function issueReason(field: string, issue: Parameters<typeof issueSaid>[0] | undefined): Said {
  const detail = issue ? issueSaid(issue) : said('import.prompts.notValid');
  if (!field)
    return typeof detail === 'string' ? said('import.prompts.problem', { detail }) : detail;
  return said('import.prompts.fieldProblem', { field, detail });
}

export function parsePromptFile(text: string, fileName: string): ParsedPromptFile {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new AppError('invalid_request', said('import.prompts.notJson', { name: fileName, why }));
  }
  const file = envelope.safeParse(json);
  if (!file.success) {
    throw new AppError(
      'invalid_request',
      said('import.prompts.notLibrary', { name: fileName, format: PROMPT_FILE_FORMAT }),
    );
  }
  if (file.data.version > PROMPT_FILE_VERSION) {
    throw new AppError(
      'invalid_request',
      said('import.prompts.newer', { name: fileName, version: file.data.version }),
    );
  }
  if (file.data.prompts.length > MAX_PROMPTS_PER_FILE) {
    throw new AppError(
      'invalid_request',
      said('import.prompts.tooMany', {
        name: fileName,
        count: file.data.prompts.length,
        max: MAX_PROMPTS_PER_FILE,
      }),
    );
  }
  const parsed: ParsedPromptFile = { drafts: [], refused: [] };
  file.data.prompts.forEach((raw, index) => {
    const label = labelOf(raw, index);
    const { entry } = label;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      const { name: _entry, ...reason } = refusal(entry, said('import.prompts.notAPrompt'));
      parsed.refused.push({ ...label, ...reason });
      return;
    }
    const result = promptDraftSchema.safeParse(raw);
    if (result.success) {
      parsed.drafts.push({ ...label, draft: result.data });
      return;
    }
    const issue = result.error.issues[0];
    const field = issue ? fieldOf(issue.path) : '';
    if (issue?.code === 'unrecognized_keys') {
      const { name: _entry, ...reason } = refusal(
        entry,
        said('import.prompts.unknownField', { fields: issue.keys.join(', ') }),
      );
      parsed.refused.push({ ...label, ...reason });
      return;
    }
    const { name: _entry, ...reason } = refusal(entry, issueReason(field, issue));
    parsed.refused.push({ ...label, ...reason });
  });
  return parsed;
}
