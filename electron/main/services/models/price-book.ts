/**
 * What each model costs, as the person entered it: relays publish no prices, so the person types
 * them on the Models screen or imports a price list. Kept in `model-prices.json`, by model id (the
 * same model is priced the same on every connection); costs are worked out from the prices as they
 * are now, whenever they are shown.
 *
 * A price list file is our own format (what Export writes):
 *   { "format": "relay-desktop-prices", "version": 1, "currency": "USD",
 *     "prices": { "gpt-4o": { "inputPerMillion": 2.5, "outputPerMillion": 10 } } }
 * or, written by hand, a plain object of models: { "gpt-4o": { "input": 2.5, "output": 10 } }.
 */
import { basename, join } from 'node:path';
import { z } from 'zod';
import {
  currencySchema,
  priceSchema,
  type ModelPrice,
  type PriceList,
} from '../../../shared/ipc/routes/models';
import { issuePathToParam } from '../../../shared/relay-requests';
import { AppError } from '../app-error';
import type { Dialogs } from '../../app-context';
import { readJsonFile, writeFileAtomic } from '../data-files';
import { readRegularFile } from '../files/regular-file';
import { issueSaid, nativeText, said } from '../words';

export const MODEL_PRICES_FILE = 'model-prices.json';
export const PRICE_LIST_FORMAT = 'relay-desktop-prices';
export const DEFAULT_CURRENCY = 'USD';
/** Bigger price lists are refused before they are read. */
export const MAX_PRICE_LIST_BYTES = 5 * 1024 * 1024;
const MAX_MODELS = 10_000;

const storedSchema = z.object({
  currency: z.string().default(DEFAULT_CURRENCY),
  prices: z.record(z.string(), priceSchema).default({}),
});

/** One model's price as a hand-written list may put it. */
const shortPriceSchema = z
  .strictObject({
    input: priceSchema.shape.inputPerMillion,
    output: priceSchema.shape.outputPerMillion,
  })
  .transform(({ input, output }) => ({ inputPerMillion: input, outputPerMillion: output }));

const modelIdSchema = z.string().min(1).max(500);
const anyPriceSchema = z.union([priceSchema, shortPriceSchema], {
  error: 'each model needs an input and an output price per million tokens',
});

const priceFileSchema = z.union([
  z.object({
    format: z.literal(PRICE_LIST_FORMAT),
    version: z.literal(1, {
      error: 'it was written by a newer version of the app (this one reads version 1)',
    }),
    currency: currencySchema.optional(),
    prices: z.record(modelIdSchema, anyPriceSchema),
  }),
  z.record(modelIdSchema, anyPriceSchema),
]);

/** Reads a price list file's text; throws an AppError naming the file and what is wrong where. */
export function parsePriceList(
  name: string,
  text: string,
): { currency?: string; prices: Record<string, ModelPrice> } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', said('import.prices.notJson', { name }));
  }
  const isOurs = typeof data === 'object' && data !== null && 'format' in data && 'prices' in data;
  const checked = isOurs
    ? priceFileSchema.options[0].safeParse(data)
    : priceFileSchema.options[1].safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const reason = issue ? issueSaid(issue) : said('import.prices.why.notPriceList');
    throw new AppError(
      'invalid_request',
      issue && issue.path.length > 0
        ? said('import.prices.invalidAt', { name, reason, param: issuePathToParam(issue.path) })
        : said('import.prices.invalid', { name, reason }),
    );
  }
  const value = checked.data;
  const prices = (
    'format' in value && value.format === PRICE_LIST_FORMAT ? value.prices : value
  ) as Record<string, ModelPrice>;
  if (Object.keys(prices).length > MAX_MODELS)
    throw new AppError('invalid_request', said('import.prices.tooMany', { name, max: MAX_MODELS }));
  const currency =
    'format' in value && typeof value.currency === 'string' ? value.currency : undefined;
  return currency === undefined ? { prices } : { currency, prices };
}

export class PriceBook {
  readonly #path: string;
  #list: Promise<PriceList> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.#path = join(dataDir, MODEL_PRICES_FILE);
  }

  get(): Promise<PriceList> {
    this.#list ??= readJsonFile(this.#path, storedSchema, 'model prices').then((read) =>
      read.status === 'ok' ? read.value : { currency: DEFAULT_CURRENCY, prices: {} },
    );
    return this.#list;
  }

  setPrice(modelId: string, price: ModelPrice | null): Promise<PriceList> {
    return this.#write((list) => {
      if (price === null) delete list.prices[modelId];
      else list.prices[modelId] = price;
    });
  }

  setCurrency(currency: string): Promise<PriceList> {
    return this.#write((list) => {
      list.currency = currency;
    });
  }

  /** Adds a price list's prices (replacing those of the models it lists); returns how many. */
  async import(name: string, text: string): Promise<{ imported: number; prices: PriceList }> {
    const read = parsePriceList(name, text);
    const prices = await this.#write((list) => {
      Object.assign(list.prices, read.prices);
      if (read.currency !== undefined) list.currency = read.currency;
    });
    return { imported: Object.keys(read.prices).length, prices };
  }

  /** The prices as a price list file. */
  async exportText(): Promise<string> {
    const list = await this.get();
    return `${JSON.stringify({ format: PRICE_LIST_FORMAT, version: 1, ...list }, null, 2)}\n`;
  }

  #write(edit: (list: PriceList) => void): Promise<PriceList> {
    const run = this.#queue.then(async () => {
      const list = structuredClone(await this.get());
      edit(list);
      await writeFileAtomic(this.#path, `${JSON.stringify(list, null, 2)}\n`);
      this.#list = Promise.resolve(list);
      return list;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/** What `promptTokens` in and `completionTokens` out cost at `price`. */
export function costAt(price: ModelPrice, promptTokens: number, completionTokens: number): number {
  return (promptTokens * price.inputPerMillion + completionTokens * price.outputPerMillion) / 1e6;
}

/** Asks for a price list file and imports it; refuses a file that is not one, whole. */
export async function importPriceFile(
  book: PriceBook,
  dialogs: Dialogs,
): Promise<{ cancelled: boolean; imported: number; prices: PriceList }> {
  const [path] = await dialogs.chooseOpenPaths({
    title: nativeText('dialog.importPrices'),
    filters: [{ name: nativeText('dialog.priceListFilter'), extensions: ['json'] }],
  });
  if (path === undefined) return { cancelled: true, imported: 0, prices: await book.get() };
  const name = basename(path);
  const read = await readRegularFile(path, MAX_PRICE_LIST_BYTES);
  if (!read.ok) {
    const why =
      read.problem === 'too_large' || read.problem === 'changed'
        ? said('import.prices.why.tooLarge', { megabytes: MAX_PRICE_LIST_BYTES / 1024 / 1024 })
        : read.problem === 'missing'
          ? said('import.prices.why.missing')
          : read.problem === 'not_regular'
            ? said('import.prices.why.notAFile')
            : said('import.prices.why.unreadable', { code: read.code });
    throw new AppError('invalid_request', said('import.prices.refused', { name, why }));
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new AppError('invalid_request', said('import.prices.notUtf8', { name }));
  }
  return { cancelled: false, ...(await book.import(name, text)) };
}

/** Saves the prices to a file the person chooses. */
export async function exportPriceFile(
  book: PriceBook,
  dialogs: Dialogs,
): Promise<{ saved: boolean; path?: string }> {
  const path = await dialogs.chooseSavePath({
    title: nativeText('dialog.exportPrices'),
    defaultName: 'model-prices.json',
    filters: [{ name: 'JSON', extensions: ['json'] }],
  });
  if (path === undefined) return { saved: false };
  try {
    await writeFileAtomic(path, await book.exportText(), { mode: 0o666 });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    throw new AppError('internal', said('export.prices.notWritten', { path, code }));
  }
  return { saved: true, path };
}
