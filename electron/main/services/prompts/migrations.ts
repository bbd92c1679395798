/**
 * The prompt library's tables.
 *
 * `prompts` holds the person's prompts and the app's built-in ones (marked by their `builtin`
 * key, which an edit keeps and a hide sets `hidden` on, so they are never lost to an edit).
 * Tags and starter messages are JSON lists of strings. `prompt_conversations` remembers which
 * prompt a conversation was started from, with the prompt's name and icon as they were, so the
 * link still reads well after the prompt is renamed or deleted.
 */
import { randomUUID } from 'node:crypto';
import { promptDraftSchema } from '../../../shared/ipc/routes/prompts';
import type { Migration } from '../database';
import { BUILT_IN_PROMPTS } from './builtins';

export const PROMPTS_DOMAIN = 'prompts';

export const PROMPTS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'the prompt library and the built-in prompts',
    up(db) {
      db.exec(`CREATE TABLE prompts (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('assistant', 'snippet')),
        name TEXT NOT NULL,
        icon TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        tags TEXT NOT NULL DEFAULT '[]',
        text TEXT NOT NULL,
        model TEXT,
        temperature REAL,
        max_tokens INTEGER,
        starters TEXT NOT NULL DEFAULT '[]',
        builtin TEXT UNIQUE,
        hidden INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`);
      db.exec('CREATE INDEX prompts_by_name ON prompts (name COLLATE NOCASE)');
      db.exec(`CREATE TABLE prompt_conversations (
        conversation_id TEXT PRIMARY KEY,
        prompt_id TEXT,
        name TEXT NOT NULL,
        icon TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      )`);
      const now = new Date().toISOString();
      for (const { key, ...draft } of BUILT_IN_PROMPTS) {
        const p = promptDraftSchema.parse(draft);
        db.run(
          `INSERT INTO prompts (id, kind, name, icon, description, tags, text, model, temperature,
             max_tokens, starters, builtin, hidden, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
          [
            randomUUID(),
            p.kind,
            p.name,
            p.icon,
            p.description,
            JSON.stringify(p.tags),
            p.text,
            p.model,
            p.temperature,
            p.maxTokens,
            JSON.stringify(p.starters),
            key,
            now,
            now,
          ],
        );
      }
    },
  },
];
