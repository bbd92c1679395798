/**
 * The prompt library, as sync sees it: each prompt an entity whose fields (kind, name, icon,
 * description, tags, text, model, temperature, max tokens, starters, hidden, deleted) each take
 * the last change. The app's built-in prompts have an id of their own on each computer, so they
 * sync by their key ("builtin:translator"): editing or hiding one on one computer does so on the
 * others, and they are never made twice. Writes go through `PromptsService`, which checks each
 * draft and tells the page.
 */
import { AppError } from '../../app-error';
import type { Db } from '../../database';
import type { PromptRow, PromptsService } from '../../prompts/prompts-service';
import type {
  ApplyResult,
  Change,
  DbSource,
  EntityState,
  Fields,
  JsonValue,
  ReadResult,
} from '../source';

const BUILTIN = 'builtin:';

function list(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

const DRAFT_FIELDS = [
  'kind',
  'name',
  'icon',
  'description',
  'tags',
  'text',
  'model',
  'temperature',
  'maxTokens',
  'starters',
] as const;

export class PromptSource implements DbSource {
  readonly store = 'db' as const;
  readonly kinds = ['prompt'] as const;

  constructor(
    private readonly db: Db,
    private readonly prompts: PromptsService,
  ) {}

  #row(id: string): PromptRow | undefined {
    return id.startsWith(BUILTIN)
      ? this.db.one<PromptRow>('SELECT * FROM prompts WHERE builtin = ?', [
          id.slice(BUILTIN.length),
        ])
      : this.db.one<PromptRow>('SELECT * FROM prompts WHERE id = ? AND builtin IS NULL', [id]);
  }

  read(_kind: string, ids: readonly string[]): Array<[string, ReadResult]> {
    return ids.map((id) => {
      const row = this.#row(id);
      if (row === undefined) return [id, undefined];
      const fields: Fields = {
        kind: row.kind,
        name: row.name,
        icon: row.icon,
        description: row.description,
        tags: list(row.tags),
        text: row.text,
        model: row.model,
        temperature: row.temperature,
        maxTokens: row.max_tokens,
        starters: list(row.starters),
        hidden: row.hidden !== 0,
        deleted: false,
        createdAt: row.created_at,
      };
      return [id, fields];
    });
  }

  /** A built-in prompt as shipped, not hidden, is the app's default on every computer. */
  isDefault(_kind: string, id: string, field: string, value: JsonValue): boolean {
    if (!id.startsWith(BUILTIN)) return false;
    const row = this.#row(id);
    if (row === undefined) return false;
    if (field === 'hidden' || field === 'deleted') return value === false;
    if (field === 'createdAt') return true;
    return this.prompts.get(row.id).asShipped !== null;
  }

  allIds(): string[] {
    return this.db
      .all<{ id: string; builtin: string | null }>('SELECT id, builtin FROM prompts ORDER BY rowid')
      .map((row) => (row.builtin === null ? row.id : `${BUILTIN}${row.builtin}`));
  }

  gone(_kind: string, _id: string, state: EntityState): Fields | undefined {
    return state.deleted?.v === true ? undefined : { deleted: true };
  }

  apply(_kind: string, id: string, change: Change): ApplyResult {
    const view: Fields = {};
    for (const [field, entry] of Object.entries(change.merged))
      if ('v' in entry) view[field] = entry.v!;
    const row = this.#row(id);
    if (view.deleted === true) {
      if (row === undefined) return 'applied';
      if (row.builtin !== null) this.prompts.setHidden(row.id, true);
      else this.prompts.delete(row.id);
      return 'applied';
    }
    const current = row === undefined ? undefined : (this.read('prompt', [id])[0]![1] as Fields);
    const draft = Object.fromEntries(
      DRAFT_FIELDS.map((field) => [field, field in view ? view[field] : current?.[field]]),
    );
    try {
      if (row === undefined) {
        // A built-in prompt this version does not ship is left out.
        if (id.startsWith(BUILTIN)) return 'dropped';
        this.prompts.create(draft, {
          id,
          ...(typeof view.createdAt === 'string' ? { createdAt: view.createdAt } : {}),
        });
      } else if (DRAFT_FIELDS.some((field) => field in change.won)) {
        this.prompts.update(row.id, draft);
      }
      const created = this.#row(id);
      if (
        created !== undefined &&
        typeof view.hidden === 'boolean' &&
        (created.hidden !== 0) !== view.hidden
      )
        this.prompts.setHidden(created.id, view.hidden);
    } catch (error) {
      // A prompt this version cannot take (a newer field's value) stays as it is here.
      if (error instanceof AppError) return 'dropped';
      throw error;
    }
    return 'applied';
  }
}
