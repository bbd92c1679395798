/**
 * How the app's stores meet the engine: each kind of synced thing (a conversation, a message, a
 * prompt, a setting, a price) has a source that reads its fields as they are now and writes the
 * fields another device changed, through the store's own API, so what the store keeps in step
 * (search indexes, counts, the page's events) stays right.
 *
 * A thing is an entity: a kind, an id, and named fields, each a JSON value. The engine keeps, per
 * field, the clock stamp of the change that set it and (small fields) the value itself
 * (`sync_meta`); comparing what a source reads with that tells it what changed here since.
 */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type Fields = Record<string, JsonValue>;

/** A field as the engine knows it: the stamp that set it, and the value where it is kept. */
export interface FieldState {
  h: string;
  /** A hash of the value, to tell a change here from the value last synced. */
  hash: string;
  /** The value itself, for fields small enough to keep (all but a message's record). */
  v?: JsonValue;
}

export type EntityState = Record<string, FieldState>;

/** What `read` found for an entity. */
export type ReadResult =
  /** Its fields now. */
  | Fields
  /** Not there (deleted for good, or never made). */
  | undefined
  /** There, but not to be synced yet (a reply still streaming). */
  | 'skip';

/** What became of fields given to `apply`. */
export type ApplyResult = 'applied' | 'waiting' | 'dropped';

export interface Change {
  /** The fields that won, with their values and stamps. */
  won: Record<string, { v: JsonValue; h: string }>;
  /** Every field of the entity as it now stands, after the winners. */
  merged: EntityState;
  /** The latest stamp of any message in it (conversations only; see ChatSource). */
  activity?: string | undefined;
  /**
   * For an entity that belongs to another (a message, its conversation, as `activityOf` names
   * it): that one's synced state here, if it has any (read when asked).
   */
  owner?: (() => { state: EntityState; activity: string | undefined } | undefined) | undefined;
}

interface SourceBase {
  /** The kinds it handles, in the order their changes are made and applied. */
  readonly kinds: readonly string[];
  /**
   * Whether a field first seen with this value holds the app's default (a setting never
   * changed, a built-in prompt as shipped): it is stamped as older than any change, so the
   * first sync of a new computer never overrules what the person set on another.
   */
  isDefault?(kind: string, id: string, field: string, value: JsonValue): boolean;
  /** Fields whose value the engine does not keep (only its hash): large ones. */
  readonly unkeptFields?: ReadonlySet<string>;
}

/** A source in the app's SQLite file: read and written inside the engine's transactions. */
export interface DbSource extends SourceBase {
  readonly store: 'db';
  /** The fields of these entities now, in the order the ids should be sent in. */
  read(kind: string, ids: readonly string[]): Array<[string, ReadResult]>;
  /** Every id of a kind, for the first upload. */
  allIds(kind: string): string[];
  /** What the entity's rows should look like, given its synced state (defaults to the values). */
  localView?(kind: string, state: EntityState, activity: string | undefined): Fields;
  /** The fields to send when an entity that was synced is gone here (its tombstone), if any. */
  gone?(kind: string, id: string, state: EntityState): Fields | undefined;
  /** Writes another device's changes. */
  apply(kind: string, id: string, change: Change): ApplyResult;
  /** Called for each message applied: the conversation whose activity it moves, and its stamp. */
  activityOf?(
    kind: string,
    fields: Record<string, { v: JsonValue; h: string }>,
  ): string | undefined;
}

/** A source in a file of its own (settings, prices): read in full at each sync, written before the engine's transaction. */
export interface FileSource extends SourceBase {
  readonly store: 'file';
  /** Every entity of every kind it handles, as it is now. */
  readAll(): Promise<Array<{ kind: string; id: string; fields: Fields }>>;
  /** Writes another device's changes (the fields that won, per entity). */
  applyAll(
    changes: Array<{ kind: string; id: string; won: Record<string, JsonValue> }>,
  ): Promise<void>;
  /**
   * After a sync applied every device's changes: what waited for another entity (a knowledge
   * base for its connection) is made now that it may have arrived.
   */
  settle?(): Promise<void>;
}

export type SyncSource = DbSource | FileSource;
