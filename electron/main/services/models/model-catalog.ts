/**
 * The models of the active connection as the picker shows them: fetched from /v1/models,
 * cached per connection, with the person's own kind overrides and the last model chosen per
 * feature, both kept in `model-preferences.json`.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { FEATURES, MODEL_KINDS } from '../../../shared/ipc/routes/models';
import type { Dialogs } from '../../app-context';
import { AppError } from '../app-error';
import { readJsonFile, writeFileAtomic } from '../data-files';
import type { ModelKind, RelayClient, RelayModel } from '../relay/relay-client';
import { said } from '../words';
import { exportPriceFile, importPriceFile, PriceBook } from './price-book';

export const MODEL_PREFERENCES_FILE = 'model-preferences.json';

export type Feature = (typeof FEATURES)[number];

const preferencesSchema = z.record(
  z.string(),
  z.object({
    overrides: z.record(z.string(), z.enum(MODEL_KINDS)).default({}),
    lastModel: z.partialRecord(z.enum(FEATURES), z.string()).default({}),
    /**
     * Whether each model reads images, as the person said (added after 0.1: a file without it
     * reads as none said, and is written with it at the next change).
     */
    imageInput: z.record(z.string(), z.boolean()).default({}),
  }),
);
type Preferences = z.infer<typeof preferencesSchema>;

export interface ModelListing {
  connectionId: string;
  models: Array<
    Pick<RelayModel, 'id' | 'kind' | 'kindSource' | 'ownedBy'> & {
      acceptsImages: boolean;
      imagesSource: 'hint' | 'override' | 'unknown';
    }
  >;
  fetchedAt: string;
  lastModel: Partial<Record<Feature, string>>;
}

export interface ModelCatalogOptions {
  dataDir: string;
  /** The active connection's id and a client for it; undefined when none is set up. */
  active: () => Promise<{ id: string; client: RelayClient } | undefined>;
  /** A client for any saved connection (its models listed without making it the active one). */
  clientFor?: (connectionId: string) => Promise<RelayClient>;
  /** The file dialogs of price list imports and exports (needed by those only). */
  dialogs?: Dialogs;
  now?: () => Date;
}

export class ModelCatalog {
  /** The person's prices per model (`price-book.ts`). */
  readonly prices: PriceBook;
  readonly #path: string;
  readonly #active: ModelCatalogOptions['active'];
  readonly #clientFor: ModelCatalogOptions['clientFor'];
  readonly #dialogs: Dialogs | undefined;
  readonly #now: () => Date;
  readonly #cache = new Map<string, { models: RelayModel[]; fetchedAt: string }>();
  #preferences: Promise<Preferences> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: ModelCatalogOptions) {
    this.#path = join(options.dataDir, MODEL_PREFERENCES_FILE);
    this.prices = new PriceBook(options.dataDir);
    this.#active = options.active;
    this.#clientFor = options.clientFor;
    this.#dialogs = options.dialogs;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * The active connection's models, or those of `connectionId` (another saved connection); from
   * the cache unless `refresh` or never fetched.
   */
  async list({
    refresh = false,
    signal,
    connectionId,
  }: { refresh?: boolean; signal?: AbortSignal; connectionId?: string } = {}): Promise<
    ModelListing | undefined
  > {
    const active = await this.#connection(connectionId);
    if (active === undefined) return undefined;
    let cached = this.#cache.get(active.id);
    if (cached === undefined || refresh) {
      // Overrides are applied below, on every read, so a changed override needs no refetch.
      cached = {
        models: await active.client.listModels({ signal }),
        fetchedAt: this.#now().toISOString(),
      };
      this.#cache.set(active.id, cached);
    }
    const prefs = (await this.#load())[active.id];
    const overrides = prefs?.overrides ?? {};
    const imageInput = prefs?.imageInput ?? {};
    return {
      connectionId: active.id,
      fetchedAt: cached.fetchedAt,
      lastModel: prefs?.lastModel ?? {},
      models: cached.models.map((model) => {
        const override = Object.hasOwn(overrides, model.id) ? overrides[model.id] : undefined;
        const { id, kind, kindSource, ownedBy } = override
          ? { ...model, kind: override, kindSource: 'override' as const }
          : model;
        const images = Object.hasOwn(imageInput, id)
          ? { acceptsImages: imageInput[id]!, imagesSource: 'override' as const }
          : model.acceptsImages !== undefined
            ? { acceptsImages: model.acceptsImages, imagesSource: 'hint' as const }
            : { acceptsImages: false, imagesSource: 'unknown' as const };
        return ownedBy === undefined
          ? { id, kind, kindSource, ...images }
          : { id, kind, kindSource, ownedBy, ...images };
      }),
    };
  }

  /** Like `list`, for the person: with no connection set up, says to connect first. */
  async listing(request: { refresh?: boolean; connectionId?: string } = {}): Promise<ModelListing> {
    const listing = await this.list(request);
    if (listing === undefined) throw new AppError('not_found', said('app.connectFirst'));
    return listing;
  }

  /** Asks for a price list file and imports it (`price-book.ts`). */
  importPrices(): ReturnType<typeof importPriceFile> {
    return importPriceFile(this.prices, this.#fileDialogs());
  }

  /** Saves the prices to a file the person chooses. */
  exportPrices(): ReturnType<typeof exportPriceFile> {
    return exportPriceFile(this.prices, this.#fileDialogs());
  }

  #fileDialogs(): Dialogs {
    if (this.#dialogs === undefined) throw new Error('The model catalog has no file dialogs.');
    return this.#dialogs;
  }

  /** The connection named (a client made only when its list must be fetched), or the active one. */
  async #connection(
    connectionId: string | undefined,
  ): Promise<{ id: string; client: RelayClient } | undefined> {
    const clientFor = this.#clientFor;
    if (connectionId === undefined || clientFor === undefined) return this.#active();
    const active = await this.#active();
    if (active?.id === connectionId) return active;
    return { id: connectionId, client: await clientFor(connectionId) };
  }

  /** Sets (or with null, clears) the person's kind for a model of the active connection. */
  setKind(modelId: string, kind: ModelKind | null): Promise<void> {
    return this.#change((entry) => {
      if (kind === null) delete entry.overrides[modelId];
      else entry.overrides[modelId] = kind;
    });
  }

  /** Sets (or with null, clears) whether a model of the active connection reads images. */
  setImageInput(modelId: string, acceptsImages: boolean | null): Promise<void> {
    return this.#change((entry) => {
      if (acceptsImages === null) delete entry.imageInput[modelId];
      else entry.imageInput[modelId] = acceptsImages;
    });
  }

  /**
   * Whether the active connection's model reads images, as the list says it (cached; fetched
   * once if never): undefined when the model is not in the list or no list can be had.
   */
  async acceptsImages(modelId: string): Promise<boolean | undefined> {
    try {
      return (await this.list())?.models.find((m) => m.id === modelId)?.acceptsImages;
    } catch {
      return undefined;
    }
  }

  setLastModel(feature: Feature, modelId: string): Promise<void> {
    return this.#change((entry) => {
      entry.lastModel[feature] = modelId;
    });
  }

  /** Forgets a deleted connection's cache and preferences. */
  forget(connectionId: string): Promise<void> {
    this.#cache.delete(connectionId);
    return this.#write((prefs) => {
      delete prefs[connectionId];
    });
  }

  async #change(edit: (entry: Preferences[string]) => void): Promise<void> {
    const active = await this.#active();
    if (active === undefined) throw new Error('No connection is active.');
    await this.#write((prefs) => {
      const entry = (prefs[active.id] ??= { overrides: {}, lastModel: {}, imageInput: {} });
      edit(entry);
    });
  }

  #load(): Promise<Preferences> {
    this.#preferences ??= readJsonFile(this.#path, preferencesSchema, 'model preferences').then(
      (read) => (read.status === 'ok' ? read.value : {}),
    );
    return this.#preferences;
  }

  #write(edit: (prefs: Preferences) => void): Promise<void> {
    const run = this.#queue.then(async () => {
      const prefs = structuredClone(await this.#load());
      edit(prefs);
      await writeFileAtomic(this.#path, `${JSON.stringify(prefs, null, 2)}\n`);
      this.#preferences = Promise.resolve(prefs);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
