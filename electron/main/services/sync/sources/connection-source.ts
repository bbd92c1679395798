/**
 * Saved connections, as sync sees them: each one an entity whose name, address, console address
 * and extra headers each take the last change (by the clock, like every other field). Never its
 * key, and never a secret header's value: each computer asks for its own once, by the
 * connection's name (`keysNeeded`). Whether the connection had a key where it was set up travels
 * (`keyed`), so a computer without one can tell "needs its key" from a local service that takes
 * none. Which connection is in use, the demo relay and the choice to send a key over plain http
 * belong to each computer and do not sync.
 *
 * Everything goes through `ConnectionsService`'s own API (list, create, update, delete), which
 * checks each change and keeps the keys bound to their origin: an address moved to another
 * origin by another computer drops the key here, as the same change made here would.
 *
 * A connection made here by sync gets an id of this computer's (`create` chooses it); the link
 * from the synced id to it is kept in `sync_links`, with the fields last applied, so a
 * connection this computer could not make (an address this version refuses) is neither sent
 * back as deleted nor asked for again.
 */
import type { Db } from '../../database';
import type {
  ConnectionChanges,
  ConnectionSummary,
  ConnectionsService,
  HeaderDraft,
} from '../../connections/connections';
import type { FileSource, Fields, JsonValue } from '../source';
import { dropLink, readLinks, saveLink, withHeld, type Link } from './links';

export const CONNECTION_KIND = 'connection';

/** A connection that came from another computer and has no key here yet. */
export interface KeyNeeded {
  id: string;
  name: string;
  /** Its key (it had one where it was set up). */
  key: boolean;
  /** The names of its secret headers, whose values are asked for with the key. */
  headers: string[];
}

type SyncedHeader = { name: string; secret: boolean; value?: string };

function headersOf(summary: ConnectionSummary): SyncedHeader[] {
  return summary.headers.map((h) =>
    h.secret
      ? { name: h.name, secret: true }
      : { name: h.name, secret: false, value: h.value ?? '' },
  );
}

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function headerDrafts(value: JsonValue | undefined): HeaderDraft[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const drafts: HeaderDraft[] = [];
  for (const item of value) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const name = str(item.name);
    if (name === undefined) continue;
    // A secret header comes without its value: the value saved here (if any) is kept.
    if (item.secret === true) drafts.push({ name, secret: true });
    else drafts.push({ name, secret: false, value: str(item.value) ?? '' });
  }
  return drafts;
}

export class ConnectionSource implements FileSource {
  readonly store = 'file' as const;
  readonly kinds = [CONNECTION_KIND] as const;

  constructor(
    private readonly db: Db,
    private readonly connections: ConnectionsService,
    /** Tells the page the list changed. */
    private readonly onChange: () => void = () => undefined,
  ) {}

  async readAll() {
    const list = (await this.connections.list()).filter((c) => c.isDemo !== true);
    const links = readLinks(this.db, CONNECTION_KIND);
    const byLocal = new Map(links.filter((l) => l.localId !== null).map((l) => [l.localId, l]));
    const out: Array<{ kind: string; id: string; fields: Fields }> = [];
    for (const c of list) {
      const link = byLocal.get(c.id);
      const fields: Fields = {
        v: true,
        name: c.name,
        baseUrl: c.baseUrl,
        consoleUrl: c.consoleUrl ?? null,
        headers: headersOf(c),
        // No key here yet is not "takes no key": what the other computer said stands.
        keyed: c.hasKey || link?.fields.keyed === true,
      };
      out.push({ kind: CONNECTION_KIND, id: link?.syncId ?? c.id, fields: withHeld(fields, link) });
    }
    // Connections this computer could not make: as they were synced, so nothing is sent back.
    for (const link of links)
      if (link.localId === null)
        out.push({ kind: CONNECTION_KIND, id: link.syncId, fields: link.fields });
    return out;
  }

  async applyAll(changes: Array<{ kind: string; id: string; won: Record<string, JsonValue> }>) {
    if (changes.length === 0) return;
    const byId = new Map((await this.connections.list()).map((c) => [c.id, c]));
    const links = new Map(readLinks(this.db, CONNECTION_KIND).map((l) => [l.syncId, l]));
    let changed = false;
    for (const { id, won } of changes) {
      const link = links.get(id);
      const localId = link ? link.localId : byId.has(id) ? id : null;
      const local = localId === null ? undefined : byId.get(localId);
      const after: Fields = { ...(link?.fields ?? {}), ...won };
      if (won.v === null) {
        // Deleted on another computer, by a change later than any made here.
        if (local !== undefined) await this.connections.delete(local.id).catch(() => undefined);
        dropLink(this.db, CONNECTION_KIND, id);
        changed = true;
        continue;
      }
      if (local === undefined) {
        changed = (await this.#make(id, after, link)) || changed;
        continue;
      }
      const update: ConnectionChanges = {};
      const name = str(won.name);
      if (name !== undefined) update.name = name;
      const baseUrl = str(won.baseUrl);
      if (baseUrl !== undefined) update.baseUrl = baseUrl;
      if ('consoleUrl' in won) update.consoleUrl = str(won.consoleUrl) ?? null;
      const headers = headerDrafts(won.headers);
      if (headers !== undefined) update.headers = headers;
      const held = { ...(link?.held ?? {}) };
      for (const field of Object.keys(won)) delete held[field];
      if (Object.keys(update).length > 0) {
        try {
          await this.connections.update(local.id, update);
          changed = true;
        } catch {
          // Refused here: the fields keep their value here, held (see links.ts).
          const now: Fields = {
            name: local.name,
            baseUrl: local.baseUrl,
            consoleUrl: local.consoleUrl ?? null,
            headers: headersOf(local),
          };
          for (const field of Object.keys(update)) held[field] = now[field] ?? null;
        }
      }
      // A connection of this computer's own, synced back unchanged, needs no link.
      if (link !== undefined || Object.keys(held).length > 0)
        saveLink(this.db, CONNECTION_KIND, id, local.id, after, held);
    }
    if (changed) this.onChange();
  }

  /** Makes a connection another computer synced; false when this computer refuses it. */
  async #make(id: string, after: Fields, link: Link | undefined): Promise<boolean> {
    const name = str(after.name);
    const baseUrl = str(after.baseUrl);
    if (after.v !== true || name === undefined || baseUrl === undefined) return false;
    const consoleUrl = str(after.consoleUrl);
    const all = headerDrafts(after.headers) ?? [];
    const plain = all.filter((h) => h.secret !== true);
    try {
      const made = await this.connections.create({
        name,
        baseUrl,
        ...(consoleUrl ? { consoleUrl } : {}),
        ...(plain.length > 0 ? { headers: plain } : {}),
      });
      // A secret header cannot be saved without its value: it is asked for with the key, and
      // until then the synced list is held (not sent back without it).
      const held: Record<string, JsonValue> =
        plain.length < all.length
          ? { headers: plain.map((h) => ({ name: h.name, secret: false, value: h.value ?? '' })) }
          : {};
      saveLink(this.db, CONNECTION_KIND, id, made.id, after, held);
      return true;
    } catch {
      // Refused here (an address this version does not take): kept as synced, not sent back.
      saveLink(this.db, CONNECTION_KIND, id, null, after, link?.held);
      return false;
    }
  }

  /**
   * The connections that came from another computer with a key there and have none here, not
   * yet asked about: the page asks for each key once, by the connection's name.
   */
  async keysNeeded(): Promise<KeyNeeded[]> {
    const list = await this.connections.list();
    const byId = new Map(list.map((c) => [c.id, c]));
    const out: KeyNeeded[] = [];
    for (const link of readLinks(this.db, CONNECTION_KIND)) {
      if (link.localId === null || link.asked) continue;
      const local = byId.get(link.localId);
      if (local === undefined) continue;
      const have = new Set(local.headers.filter((h) => h.hasValue).map((h) => h.name));
      const headers = (headerDrafts(link.fields.headers) ?? [])
        .filter((h) => h.secret === true && !have.has(h.name))
        .map((h) => h.name);
      const key = link.fields.keyed === true && !local.hasKey;
      if (key || headers.length > 0) out.push({ id: local.id, name: local.name, key, headers });
    }
    return out;
  }

  /** The person gave the key, or chose not to: not asked again. */
  asked(localId: string): void {
    this.db.run('UPDATE sync_links SET asked = 1 WHERE kind = ? AND local_id = ?', [
      CONNECTION_KIND,
      localId,
    ]);
  }
}
