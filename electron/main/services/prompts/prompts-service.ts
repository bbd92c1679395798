/**
 * The prompt library (see migrations.ts for its tables): the person's prompts and the built-in
 * ones, their search, which conversation came from which prompt, and the library as a JSON file.
 *
 * Every draft, typed or imported, is checked with `promptDraftSchema`; a mistake is an
 * `AppError('invalid_request')` naming the field and what is wrong, and nothing is written.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import {
  MAX_PROMPT_FILE_BYTES,
  promptDraftSchema,
  type Prompt,
  type PromptDraft,
  type PromptImportResult,
  type PromptKind,
  type PromptOrigin,
} from '../../../shared/ipc/routes/prompts';
import { templateVariables } from '../../../shared/prompt-template';
import { readRegularFile } from '../files/regular-file';
import { AppError, refusal } from '../app-error';
import { writeFileAtomic } from '../data-files';
import { migrate, type Db } from '../database';
import { BUILT_IN_PROMPTS } from './builtins';
import { PROMPTS_DOMAIN, PROMPTS_MIGRATIONS } from './migrations';
import { parsePromptFile, serializePrompts } from './prompt-file';
import { nativeText, said } from '../words';

/** The file dialogs the library's import and export ask through. */
export interface PromptDialogs {
  chooseSavePath(options: {
    title: string;
    defaultName: string;
    filters?: Array<{ name: string; extensions: string[] }>;
  }): Promise<string | undefined>;
  chooseOpenPaths(options: {
    title: string;
    filters?: Array<{ name: string; extensions: string[] }>;
    multiple?: boolean;
  }): Promise<string[]>;
}

export interface PromptsServiceOptions {
  db: Db;
  now?: () => Date;
  /** Told after every change to the library. */
  onChange?: () => void;
  dialogs?: PromptDialogs;
}

/** A row of the prompts table, as `SELECT *` reads it (sync reads the same rows). */
export interface PromptRow {
  id: string;
  kind: PromptKind;
  name: string;
  icon: string;
  description: string;
  tags: string;
  text: string;
  model: string | null;
  temperature: number | null;
  max_tokens: number | null;
  starters: string;
  builtin: string | null;
  hidden: number;
  created_at: string;
  updated_at: string;
}

const FIELD_LABELS: Record<string, string> = {
  kind: 'Kind',
  name: 'Name',
  icon: 'Icon',
  description: 'Description',
  tags: 'Tags',
  text: 'Prompt text',
  model: 'Model',
  temperature: 'Temperature',
  maxTokens: 'Max tokens',
  starters: 'Starter messages',
};

function stringList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Each built-in prompt's columns as shipped, by its key. */
const SHIPPED = new Map(
  BUILT_IN_PROMPTS.map(({ key, ...draft }) => [
    key,
    JSON.stringify(draftValues(promptDraftSchema.parse(draft))),
  ]),
);

/** The key of a built-in prompt still as shipped; null once the person changed anything. */
function asShipped(row: PromptRow): string | null {
  if (row.builtin === null) return null;
  const columns = [
    row.kind,
    row.name,
    row.icon,
    row.description,
    JSON.stringify(stringList(row.tags)),
    row.text,
    row.model,
    row.temperature,
    row.max_tokens,
    JSON.stringify(stringList(row.starters)),
  ];
  return SHIPPED.get(row.builtin) === JSON.stringify(columns) ? row.builtin : null;
}

function toPrompt(row: PromptRow): Prompt {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    icon: row.icon,
    description: row.description,
    tags: stringList(row.tags),
    text: row.text,
    model: row.model,
    temperature: row.temperature,
    maxTokens: row.max_tokens,
    starters: stringList(row.starters),
    variables: templateVariables(row.text),
    builtIn: row.builtin !== null,
    asShipped: asShipped(row),
    hidden: row.hidden !== 0,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `%` and `_` in a search are the characters themselves, not LIKE's wildcards. */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Checks a draft as the editor or an import gives it; throws for the person on a mistake. */
export function checkDraft(input: unknown): PromptDraft {
  const result = promptDraftSchema.safeParse(input);
  if (result.success) {
    const draft = result.data;
    if (draft.kind === 'snippet' && draft.starters.length > 0)
      throw new AppError('invalid_request', said('prompts.startersAssistantOnly'), {
        param: 'starters',
      });
    return draft;
  }
  const issue = result.error.issues[0];
  const field = typeof issue?.path[0] === 'string' ? issue.path[0] : '';
  const label = FIELD_LABELS[field] ?? field;
  const message =
    issue?.code === 'unrecognized_keys'
      ? `A prompt has no field called ${issue.keys.join(', ')}.`
      : `${label ? `${label}: ` : ''}${issue?.message ?? 'not valid.'}`;
  throw new AppError('invalid_request', message, field ? { param: field } : {});
}

export class PromptsService {
  readonly #db: Db;
  readonly #now: () => Date;
  readonly #onChange: () => void;
  readonly #dialogs: PromptDialogs | undefined;

  private constructor(options: PromptsServiceOptions) {
    this.#db = options.db;
    this.#now = options.now ?? (() => new Date());
    this.#onChange = options.onChange ?? (() => undefined);
    this.#dialogs = options.dialogs;
  }

  /** Brings the library's tables up to date (adding the built-in prompts the first time). */
  static async open(options: PromptsServiceOptions): Promise<PromptsService> {
    await migrate(options.db, PROMPTS_DOMAIN, PROMPTS_MIGRATIONS, options.now);
    return new PromptsService(options);
  }

  list(
    options: {
      query?: string | undefined;
      kind?: PromptKind | undefined;
      includeHidden?: boolean | undefined;
    } = {},
  ): Prompt[] {
    const where: string[] = [];
    const params: string[] = [];
    if (!options.includeHidden) where.push('hidden = 0');
    if (options.kind !== undefined) {
      where.push('kind = ?');
      params.push(options.kind);
    }
    for (const word of (options.query ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 20)) {
      where.push(
        `(name LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\' OR tags LIKE ? ESCAPE '\\' OR text LIKE ? ESCAPE '\\')`,
      );
      const pattern = likePattern(word);
      params.push(pattern, pattern, pattern, pattern);
    }
    const rows = this.#db.all<PromptRow>(
      `SELECT * FROM prompts ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY name COLLATE NOCASE, created_at, id`,
      params,
    );
    return rows.map(toPrompt);
  }

  get(id: string): Prompt {
    const row = this.#db.one<PromptRow>('SELECT * FROM prompts WHERE id = ?', [id]);
    if (row === undefined) throw new AppError('not_found', said('prompts.gone'));
    return toPrompt(row);
  }

  /** Adds a prompt; `options.id` keeps the id it has on another device (sync). */
  create(input: unknown, options: { id?: string; createdAt?: string } = {}): Prompt {
    const draft = checkDraft(input);
    const id = this.#insert(draft, options);
    this.#onChange();
    return this.get(id);
  }

  update(id: string, input: unknown): Prompt {
    this.get(id);
    const d = checkDraft(input);
    this.#db.run(
      `UPDATE prompts SET kind = ?, name = ?, icon = ?, description = ?, tags = ?, text = ?,
         model = ?, temperature = ?, max_tokens = ?, starters = ?, updated_at = ? WHERE id = ?`,
      [...draftValues(d), this.#now().toISOString(), id],
    );
    this.#onChange();
    return this.get(id);
  }

  /** Deletes one of the person's prompts; a built-in one is hidden, so it can come back. */
  delete(id: string): void {
    const prompt = this.get(id);
    if (prompt.builtIn) this.#db.run('UPDATE prompts SET hidden = 1 WHERE id = ?', [id]);
    else this.#db.run('DELETE FROM prompts WHERE id = ?', [id]);
    this.#onChange();
  }

  setHidden(id: string, hidden: boolean): Prompt {
    this.get(id);
    this.#db.run('UPDATE prompts SET hidden = ? WHERE id = ?', [hidden ? 1 : 0, id]);
    this.#onChange();
    return this.get(id);
  }

  linkConversation(promptId: string, conversationId: string): void {
    const prompt = this.get(promptId);
    this.#db.run(
      `INSERT INTO prompt_conversations (conversation_id, prompt_id, name, icon, created_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (conversation_id) DO UPDATE SET
         prompt_id = excluded.prompt_id, name = excluded.name, icon = excluded.icon`,
      [conversationId, prompt.id, prompt.name, prompt.icon, this.#now().toISOString()],
    );
  }

  /** The prompt a conversation came from (by the name it had then if it is gone), or null. */
  conversationPrompt(conversationId: string): PromptOrigin | null {
    const row = this.#db.one<{
      prompt_id: string | null;
      name: string;
      icon: string;
      live: string | null;
    }>(
      `SELECT l.prompt_id, coalesce(p.name, l.name) AS name, coalesce(p.icon, l.icon) AS icon,
         p.id AS live
       FROM prompt_conversations l LEFT JOIN prompts p ON p.id = l.prompt_id
       WHERE l.conversation_id = ?`,
      [conversationId],
    );
    if (row === undefined) return null;
    return { promptId: row.live, name: row.name, icon: row.icon };
  }

  /** The library as the JSON of an export file. */
  exportJson(options: { includeBuiltIn?: boolean | undefined } = {}): {
    json: string;
    count: number;
  } {
    const prompts = this.list({ includeHidden: false }).filter(
      (p) => options.includeBuiltIn === true || !p.builtIn,
    );
    return { json: serializePrompts(prompts), count: prompts.length };
  }

  /**
   * Adds the valid prompts of an export file's text, all in one transaction; an entry already in
   * the library (same kind, name and text) is counted, not added again.
   */
  importJson(text: string, fileName: string): Omit<PromptImportResult, 'chosen'> {
    const parsed = parsePromptFile(text, fileName);
    let added = 0;
    let duplicates = 0;
    const refused = [...parsed.refused];
    this.#db.transaction(() => {
      for (const { draft, ...label } of parsed.drafts) {
        if (draft.kind === 'snippet' && draft.starters.length > 0) {
          const { name: _entry, ...reason } = refusal(
            label.entry,
            said('import.prompts.startersAssistantOnly'),
          );
          refused.push({ ...label, ...reason });
          continue;
        }
        const same = this.#db.one(
          'SELECT 1 AS found FROM prompts WHERE kind = ? AND name = ? AND text = ?',
          [draft.kind, draft.name, draft.text],
        );
        if (same !== undefined) {
          duplicates += 1;
          continue;
        }
        this.#insert(draft);
        added += 1;
      }
    });
    if (added > 0) this.#onChange();
    return { added, duplicates, refused };
  }

  /** Asks where to save, and writes the library there. */
  async exportToFile(options: { includeBuiltIn?: boolean | undefined } = {}): Promise<{
    saved: boolean;
    path?: string;
    count: number;
  }> {
    const { json, count } = this.exportJson(options);
    const path = await this.#dialogs?.chooseSavePath({
      title: nativeText('dialog.exportPrompts'),
      defaultName: 'relay-desktop-prompts.json',
      filters: [{ name: nativeText('dialog.promptLibraryFilter'), extensions: ['json'] }],
    });
    if (path === undefined) return { saved: false, count };
    await writeFileAtomic(path, json, { mode: 0o644 });
    return { saved: true, path, count };
  }

  /** Asks for a library file and imports it. */
  async importFromFile(): Promise<PromptImportResult> {
    const [path] =
      (await this.#dialogs?.chooseOpenPaths({
        title: nativeText('dialog.importPrompts'),
        filters: [{ name: nativeText('dialog.promptLibraryFilter'), extensions: ['json'] }],
        multiple: false,
      })) ?? [];
    if (path === undefined) return { chosen: false, added: 0, duplicates: 0, refused: [] };
    const name = basename(path);
    // A regular file only, and never more than the cap: a pipe or a device is never read.
    const read = await readRegularFile(path, MAX_PROMPT_FILE_BYTES);
    if (!read.ok) {
      switch (read.problem) {
        case 'not_regular':
          throw new AppError('invalid_request', said('import.prompts.notAFile', { name }));
        case 'too_large':
        case 'changed':
          throw new AppError(
            'invalid_request',
            said('import.prompts.tooLarge', {
              name,
              size: (
                (read.problem === 'too_large' ? read.size : MAX_PROMPT_FILE_BYTES + 1) /
                1024 /
                1024
              ).toFixed(1),
              max: MAX_PROMPT_FILE_BYTES / 1024 / 1024,
            }),
          );
        case 'missing':
          throw new AppError(
            'invalid_request',
            said('import.prompts.unreadable', { name, why: 'ENOENT' }),
          );
        case 'unreadable':
          throw new AppError(
            'invalid_request',
            said('import.prompts.unreadable', { name, why: read.code }),
          );
      }
    }
    const text = new TextDecoder('utf-8').decode(read.bytes);
    return { chosen: true, ...this.importJson(text, name) };
  }

  #insert(d: PromptDraft, options: { id?: string; createdAt?: string } = {}): string {
    const id = options.id ?? randomUUID();
    const now = this.#now().toISOString();
    this.#db.run(
      `INSERT INTO prompts (id, kind, name, icon, description, tags, text, model, temperature,
         max_tokens, starters, builtin, hidden, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0, ?, ?)`,
      [id, ...draftValues(d), options.createdAt ?? now, now],
    );
    return id;
  }
}

/** A draft's columns, in the order both the insert and the update name them. */
function draftValues(d: PromptDraft) {
  return [
    d.kind,
    d.name,
    d.icon,
    d.description,
    JSON.stringify(d.tags),
    d.text,
    d.model,
    d.temperature,
    d.maxTokens,
    JSON.stringify(d.starters),
  ];
}
