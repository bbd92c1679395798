/**
 * The models part of the IPC contract (see ../contract.ts): the active relay's models, sorted into
 * chat, embeddings and images, with the person's overrides and last choices.
 */
import { z } from 'zod';
import { event, route, type EventSpec, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id } from '../schemas';
import { MAX_PRICE_PER_MILLION } from '../../limits';
import { worded } from '../../messages/worded';

export const MODEL_KINDS = ['chat', 'embedding', 'image'] as const;
export const modelKindSchema = z.enum(MODEL_KINDS);

export const modelSchema = z.object({
  id: z.string(),
  kind: modelKindSchema,
  kindSource: z.enum(['hint', 'id', 'override']),
  ownedBy: z.string().optional(),
  /**
   * Whether the app sends the model images: what the person set (`override`), else what the
   * relay's model list says (`hint`), else no (`unknown`: the person can say it does).
   */
  acceptsImages: z.boolean(),
  imagesSource: z.enum(['hint', 'override', 'unknown']),
});

export const FEATURES = ['chat', 'embeddings', 'images'] as const;

/** A price per million tokens: a number, at least 0, at most `MAX_PRICE_PER_MILLION`. */
function pricePerMillion(notNumber: string) {
  return z
    .number({ error: notNumber })
    .min(0, { error: worded('form.models.priceNegative', 'A price cannot be negative.') })
    .max(MAX_PRICE_PER_MILLION, {
      error: worded(
        'form.models.priceAbove',
        `A price above ${MAX_PRICE_PER_MILLION} is refused.`,
        { max: MAX_PRICE_PER_MILLION },
      ),
    });
}

/** What a model costs, per million tokens sent (input) and written (output). */
export const priceSchema = z.strictObject({
  inputPerMillion: pricePerMillion(
    worded('form.models.inputPrice', 'The input price must be a number.'),
  ),
  outputPerMillion: pricePerMillion(
    worded('form.models.outputPrice', 'The output price must be a number.'),
  ),
});
export type ModelPrice = z.infer<typeof priceSchema>;

/** An ISO 4217 code (USD, EUR…), for showing amounts. */
export const currencySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, {
    error: worded('form.models.currency', 'A currency is a three-letter code, such as USD or EUR.'),
  });

export const priceListSchema = z.object({
  currency: z.string(),
  /** By model id; the relay publishes no prices, so these are the person's own. */
  prices: z.record(z.string(), priceSchema),
});
export type PriceList = z.infer<typeof priceListSchema>;

export const MODELS_ROUTES = {
  /**
   * A connection's models (the one in use unless `connectionId` names another saved one, as the
   * chat's model picker lists every connection's), sorted into kinds, with the last choices.
   */
  listModels: route(
    'models:list',
    z.strictObject({ refresh: z.boolean().optional(), connectionId: id.optional() }).optional(),
    z.object({
      connectionId: id,
      models: z.array(modelSchema),
      fetchedAt: z.string(),
      /** The model last chosen in each feature, to preselect it. */
      lastModel: z.object({
        chat: z.string().optional(),
        embeddings: z.string().optional(),
        images: z.string().optional(),
      }),
    }),
  ),
  setModelKind: route(
    'models:set-kind',
    z.strictObject({ modelId: text(500).min(1), kind: modelKindSchema.nullable() }),
    z.null(),
  ),
  /** Says whether a model reads images (sent image parts), or with null goes back to the relay's hint. */
  setModelImageInput: route(
    'models:set-image-input',
    z.strictObject({ modelId: text(500).min(1), acceptsImages: z.boolean().nullable() }),
    z.null(),
  ),
  setLastModel: route(
    'models:set-last',
    z.strictObject({ feature: z.enum(FEATURES), modelId: text(500).min(1) }),
    z.null(),
  ),
  /** The prices the person entered (or imported), and the currency they are in. */
  listPrices: route('models:prices', z.undefined(), priceListSchema),
  /** Sets a model's price, or with null removes it. */
  setModelPrice: route(
    'models:set-price',
    z.strictObject({ modelId: text(500).min(1), price: priceSchema.nullable() }),
    priceListSchema,
  ),
  setPriceCurrency: route(
    'models:set-currency',
    z.strictObject({ currency: currencySchema }),
    priceListSchema,
  ),
  /**
   * Opens a file dialog for a JSON price list and adds its prices (a model listed replaces its
   * price; the others stay). A file that cannot be read is refused whole, saying where it is wrong.
   */
  importPrices: route(
    'models:import-prices',
    z.undefined(),
    z.object({ cancelled: z.boolean(), imported: z.number().int(), prices: priceListSchema }),
  ),
  /** Saves the prices as a JSON price list (the same format import reads). */
  exportPrices: route(
    'models:export-prices',
    z.undefined(),
    z.object({ saved: z.boolean(), path: z.string().optional() }),
  ),
} as const satisfies Record<string, RouteSpec>;

export const MODELS_EVENTS = {
  /** The prices changed on another computer (sync brought them): the page reads them again. */
  pricesChanged: event('models:prices-changed', priceListSchema),
} satisfies Record<string, EventSpec>;
