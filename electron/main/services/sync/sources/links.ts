/**
 * `sync_links`: a connection or knowledge base made here from another computer's has an id of
 * this computer's (its service chooses it); the link keeps the synced id, the local one (null when
 * this computer could not make it), and the fields as last synced.
 *
 * A field this computer could not write (an address or a model its service refused here) is
 * "held": the link keeps the value it had here when that happened, and while it still has that
 * value, the source reports the synced one. So a change refused here is not sent back to the
 * other computers as the old value winning over it; a change the person makes here afterwards
 * is theirs, and syncs.
 */
import type { Db } from '../../database';
import { hashValue } from '../sync-engine';
import type { Fields, JsonValue } from '../source';

export interface Link {
  syncId: string;
  localId: string | null;
  /** The fields as last synced. */
  fields: Fields;
  /** Fields not written here, by the value they kept here. */
  held: Record<string, JsonValue>;
  asked: boolean;
}

interface LinkRow {
  sync_id: string;
  local_id: string | null;
  fields: string;
  asked: number;
}

export function readLinks(db: Db, kind: string): Link[] {
  return db
    .all<LinkRow>('SELECT sync_id, local_id, fields, asked FROM sync_links WHERE kind = ?', [kind])
    .map((row) => {
      const stored = JSON.parse(row.fields) as {
        fields?: Fields;
        held?: Record<string, JsonValue>;
      };
      return {
        syncId: row.sync_id,
        localId: row.local_id,
        fields: stored.fields ?? {},
        held: stored.held ?? {},
        asked: row.asked !== 0,
      };
    });
}

export function saveLink(
  db: Db,
  kind: string,
  syncId: string,
  localId: string | null,
  fields: Fields,
  held: Record<string, JsonValue> = {},
): void {
  db.run(
    `INSERT INTO sync_links (kind, sync_id, local_id, fields) VALUES (?, ?, ?, ?)
      ON CONFLICT (kind, sync_id) DO UPDATE SET local_id = excluded.local_id,
        fields = excluded.fields`,
    [kind, syncId, localId, JSON.stringify({ fields, held })],
  );
}

export function dropLink(db: Db, kind: string, syncId: string): void {
  db.run('DELETE FROM sync_links WHERE kind = ? AND sync_id = ?', [kind, syncId]);
}

/** The fields to report for a linked entity: the synced value of a field still held here. */
export function withHeld(now: Fields, link: Link | undefined): Fields {
  if (link === undefined) return now;
  const out = { ...now };
  for (const [field, kept] of Object.entries(link.held))
    if (field in link.fields && hashValue(now[field] ?? null) === hashValue(kept))
      out[field] = link.fields[field]!;
  return out;
}
