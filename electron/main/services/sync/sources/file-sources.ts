/**
 * The person's settings and model prices, kept in files of their own (settings.json,
 * model-prices.json): read whole at each sync and compared with what was synced, written through
 * their services. Only the settings that mean the same on every computer sync (the theme, the
 * language, chat defaults, timeouts, attachment limits); what belongs to one computer stays on
 * it (its shortcut, tray, start at login, proxy, updates, where keys are kept).
 */
import type { Settings } from '../../../../shared/ipc/routes/settings';
import { priceSchema } from '../../../../shared/ipc/routes/models';
import { DEFAULT_CURRENCY, type PriceBook } from '../../models/price-book';
import { DEFAULT_SETTINGS, type SettingsService } from '../../settings/settings';
import { hashValue } from '../sync-engine';
import type { FileSource, JsonValue } from '../source';

/** The settings that sync; the rest belong to one computer. */
export const SYNCED_SETTINGS = [
  'theme',
  'language',
  'chatDefaults',
  'timeouts',
  'attachments',
] as const satisfies ReadonlyArray<keyof Settings>;

export class SettingsSource implements FileSource {
  readonly store = 'file' as const;
  readonly kinds = ['setting'] as const;

  constructor(private readonly settings: SettingsService) {}

  isDefault(_kind: string, id: string, _field: string, value: JsonValue): boolean {
    const key = id as (typeof SYNCED_SETTINGS)[number];
    return hashValue(DEFAULT_SETTINGS[key]) === hashValue(value);
  }

  async readAll() {
    const now = await this.settings.get();
    return SYNCED_SETTINGS.map((key) => ({
      kind: 'setting',
      id: key,
      fields: { v: now[key] as unknown as JsonValue },
    }));
  }

  async applyAll(changes: Array<{ kind: string; id: string; won: Record<string, JsonValue> }>) {
    const update: Record<string, unknown> = {};
    for (const change of changes)
      if ((SYNCED_SETTINGS as readonly string[]).includes(change.id) && change.won.v !== null)
        update[change.id] = change.won.v;
    if (Object.keys(update).length === 0) return;
    try {
      await this.settings.update(update as Partial<Settings>);
    } catch {
      // A value this version does not know (a newer theme) leaves the settings as they are.
    }
  }
}

const CURRENCY = '#currency';

export class PricesSource implements FileSource {
  readonly store = 'file' as const;
  readonly kinds = ['price'] as const;

  constructor(private readonly prices: PriceBook) {}

  isDefault(_kind: string, id: string, _field: string, value: JsonValue): boolean {
    return id === CURRENCY && value === DEFAULT_CURRENCY;
  }

  async readAll() {
    const list = await this.prices.get();
    return [
      { kind: 'price', id: CURRENCY, fields: { v: list.currency } },
      ...Object.entries(list.prices).map(([model, price]) => ({
        kind: 'price',
        id: model,
        fields: { v: price as unknown as JsonValue },
      })),
    ];
  }

  async applyAll(changes: Array<{ kind: string; id: string; won: Record<string, JsonValue> }>) {
    for (const change of changes) {
      if (!('v' in change.won)) continue;
      const value = change.won.v;
      try {
        if (change.id === CURRENCY) {
          if (typeof value === 'string') await this.prices.setCurrency(value);
        } else if (value === null) await this.prices.setPrice(change.id, null);
        else {
          const price = priceSchema.safeParse(value);
          if (price.success) await this.prices.setPrice(change.id, price.data);
        }
      } catch {
        // A price this version cannot read stays as it is here.
      }
    }
  }
}
