/**
 * Knowledge bases, as sync sees them: each base an entity whose name, embeddings model,
 * connection and list of sources each take the last change. Not their files' text, chunks or
 * vectors: each computer reads the sources it has and builds its own vectors ("rebuild locally",
 * the one way offered: vectors are large, tied to the model's exact build, and a base's files are
 * usually on both computers already).
 *
 * What is a source on another computer? The same file or folder, found where the person keeps
 * it: a path inside the home folder travels relative to it (`~/Documents/notes`, so it is found
 * under another user name or system), any other path as it is. A source that is not there on
 * this computer stays in the list and is shown as missing (`KnowledgeService.get`); it does not
 * stop the sync, and it is read as soon as it appears (a synced folder arriving late) at the
 * base's next indexing.
 *
 * The base's connection travels by its synced id (a connection made here by sync has an id of
 * this computer's: `sync_links`). Writes go through `KnowledgeService`'s own API; a base made
 * here by sync gets an id of this computer's, linked like a connection's. A base whose connection
 * has not arrived yet (another computer's changes came in another order) waits, kept as synced,
 * and is made at the end of the sync that brings the connection (`settle`).
 *
 * The demo relay is not a synced connection: each computer runs its own, on a port of its own.
 * A base on it travels with the connection `demo` (`DEMO_CONNECTION`) and is made on this
 * computer's demo relay (its connection made and the relay started if need be), never kept
 * waiting for the other computer's.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Db } from '../../database';
import type { KnowledgeService } from '../../knowledge/knowledge-service';
import type { FileSource, Fields, JsonValue } from '../source';
import { CONNECTION_KIND } from './connection-source';
import { dropLink, readLinks, saveLink, withHeld } from './links';

export const KNOWLEDGE_KIND = 'knowledge';

/** The connection of a base on the demo relay, as it travels: each computer's own demo relay. */
export const DEMO_CONNECTION = 'demo';

/** This computer's demo relay connection, for bases on it. */
export interface DemoConnection {
  /** Its id, if it has been made here. */
  id(): Promise<string | undefined>;
  /** Its id, made (and its relay started) if need be. */
  ensure(): Promise<string>;
}

type SyncedSource = { path: string; kind: 'file' | 'folder' };

/** A path as it travels: inside the home folder, relative to it with `/`; else as it is. */
export function portablePath(path: string, home = homedir()): string {
  const inside = relative(home, path);
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside))
    return `~/${inside.split(sep).join('/')}`;
  return path;
}

/** A travelled path on this computer. */
export function localPath(path: string, home = homedir()): string {
  return path.startsWith('~/') ? join(home, ...path.slice(2).split('/')) : path;
}

function sourcesOf(value: JsonValue | undefined): SyncedSource[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: SyncedSource[] = [];
  for (const item of value) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    if (typeof item.path !== 'string' || (item.kind !== 'file' && item.kind !== 'folder')) continue;
    out.push({ path: item.path, kind: item.kind });
  }
  return out;
}

export class KnowledgeSource implements FileSource {
  readonly store = 'file' as const;
  readonly kinds = [KNOWLEDGE_KIND] as const;

  readonly #home: string;
  readonly #connectionIds: (() => Promise<ReadonlySet<string>>) | undefined;
  readonly #demo: DemoConnection | undefined;

  constructor(
    private readonly db: Db,
    private readonly knowledge: Promise<KnowledgeService>,
    options: {
      /** The ids of the connections saved here, to tell a base's connection has not arrived. */
      connectionIds?: () => Promise<ReadonlySet<string>>;
      /** The demo relay's connection here. */
      demo?: DemoConnection;
      home?: string;
    } = {},
  ) {
    this.#home = options.home ?? homedir();
    this.#connectionIds = options.connectionIds;
    this.#demo = options.demo;
  }

  /**
   * How a connection's id here syncs: its synced id when sync made it here, `DEMO_CONNECTION` for
   * this computer's demo relay. Read once for all the bases.
   */
  async #connectionSyncIds(): Promise<(localId: string) => string> {
    const synced = new Map<string, string>();
    for (const link of readLinks(this.db, CONNECTION_KIND))
      if (link.localId !== null && !synced.has(link.localId)) synced.set(link.localId, link.syncId);
    const demo = await this.#demo?.id();
    return (localId) =>
      demo !== undefined && localId === demo ? DEMO_CONNECTION : (synced.get(localId) ?? localId);
  }

  /**
   * A synced connection's id here: undefined when this computer refused to make it (the base
   * then uses the connection in use here), 'missing' when it has not arrived yet.
   */
  async #connectionLocalId(syncId: string): Promise<string | undefined | 'missing'> {
    // This computer's demo relay (made, started, here); when it cannot start, the base is kept
    // as synced and tried again at the next sync.
    if (syncId === DEMO_CONNECTION)
      return this.#demo === undefined ? undefined : this.#demo.ensure();
    const link = readLinks(this.db, CONNECTION_KIND).find((l) => l.syncId === syncId);
    if (link !== undefined) return link.localId ?? undefined;
    if (this.#connectionIds === undefined) return syncId;
    return (await this.#connectionIds()).has(syncId) ? syncId : 'missing';
  }

  async readAll() {
    const service = await this.knowledge;
    const links = readLinks(this.db, KNOWLEDGE_KIND);
    const byLocal = new Map(links.filter((l) => l.localId !== null).map((l) => [l.localId, l]));
    const out: Array<{ kind: string; id: string; fields: Fields }> = [];
    const connectionSyncId = await this.#connectionSyncIds();
    for (const base of await service.list()) {
      const link = byLocal.get(base.id);
      const fields: Fields = {
        v: true,
        name: base.name,
        model: base.model,
        connection: connectionSyncId(base.connectionId),
        // By path, so two computers that added them in another order agree.
        sources: (await service.get(base.id)).sources
          .map((s) => ({ path: portablePath(s.path, this.#home), kind: s.kind }))
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      };
      out.push({
        kind: KNOWLEDGE_KIND,
        id: link?.syncId ?? base.id,
        fields: withHeld(fields, link),
      });
    }
    // Bases this computer could not make: as they were synced, so nothing is sent back.
    for (const link of links)
      if (link.localId === null)
        out.push({ kind: KNOWLEDGE_KIND, id: link.syncId, fields: link.fields });
    return out;
  }

  async applyAll(changes: Array<{ kind: string; id: string; won: Record<string, JsonValue> }>) {
    if (changes.length === 0) return;
    const service = await this.knowledge;
    const present = new Map((await service.list()).map((b) => [b.id, b]));
    const links = new Map(readLinks(this.db, KNOWLEDGE_KIND).map((l) => [l.syncId, l]));
    for (const { id, won } of changes) {
      const link = links.get(id);
      const linked = link ? link.localId : present.has(id) ? id : null;
      const local = linked === null ? undefined : present.get(linked);
      const after: Fields = { ...(link?.fields ?? {}), ...won };
      if (won.v === null) {
        if (local !== undefined) await service.delete(local.id).catch(() => undefined);
        dropLink(this.db, KNOWLEDGE_KIND, id);
        continue;
      }
      if (local === undefined) {
        await this.#make(service, id, after, link?.held);
        continue;
      }
      const held = { ...(link?.held ?? {}) };
      for (const field of Object.keys(won)) delete held[field];
      if (typeof won.name === 'string' && won.name !== local.name)
        await service.rename(local.id, won.name).catch(() => (held.name = local.name));
      if (typeof won.model === 'string' && won.model !== local.model)
        // Asks the relay for a vector first; refused (no key here yet, indexing), it is held.
        await service.changeModel(local.id, won.model).catch(() => (held.model = local.model));
      const sources = sourcesOf(won.sources);
      if (sources !== undefined) await this.#setSources(service, local.id, sources);
      if (link !== undefined || Object.keys(held).length > 0)
        saveLink(this.db, KNOWLEDGE_KIND, id, local.id, after, held);
    }
  }

  /**
   * Makes a base another computer synced. Until its connection arrives, or when this computer
   * refuses it (no connection to build it with), it is kept as synced, not sent back.
   */
  async #make(
    service: KnowledgeService,
    id: string,
    after: Fields,
    held: Record<string, JsonValue> | undefined,
  ): Promise<void> {
    if (after.v !== true || typeof after.name !== 'string' || typeof after.model !== 'string')
      return;
    const connection =
      typeof after.connection === 'string'
        ? await this.#connectionLocalId(after.connection)
        : undefined;
    if (connection !== 'missing')
      try {
        const made = await service.create(after.name, after.model, connection);
        saveLink(this.db, KNOWLEDGE_KIND, id, made.id, after);
        await this.#setSources(service, made.id, sourcesOf(after.sources) ?? []);
        return;
      } catch {
        // Refused here: kept as synced below.
      }
    saveLink(this.db, KNOWLEDGE_KIND, id, null, after, held);
  }

  /** Bases kept as synced, made now if they can be (their connection arrived). */
  async settle(): Promise<void> {
    const waiting = readLinks(this.db, KNOWLEDGE_KIND).filter(
      (link) => link.localId === null && link.fields.v === true,
    );
    if (waiting.length === 0) return;
    const service = await this.knowledge;
    for (const link of waiting) await this.#make(service, link.syncId, link.fields, link.held);
  }

  /**
   * Makes the base's sources the list synced: those gone are removed, the new ones added (a
   * source not on this computer is added all the same, and shown as missing). Indexing starts
   * as when the person adds a source; without a key for the connection it stops at once, said
   * on the base, and nothing else waits for it.
   */
  async #setSources(service: KnowledgeService, id: string, synced: SyncedSource[]): Promise<void> {
    const wanted = new Map(synced.map((s) => [localPath(s.path, this.#home), s.kind]));
    const current = (await service.get(id)).sources;
    const have = new Set(current.map((s) => s.path));
    for (const source of current)
      if (!wanted.has(source.path))
        await service.removeSource(id, source.id).catch(() => undefined);
    for (const kind of ['file', 'folder'] as const) {
      const add = [...wanted].filter(([path, k]) => k === kind && !have.has(path)).map(([p]) => p);
      if (add.length > 0) await service.addSources(id, add, kind).catch(() => undefined);
    }
  }
}
