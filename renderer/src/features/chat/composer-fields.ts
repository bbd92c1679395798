/**
 * The conversation's request settings as typed, read with the relay spec's rules (temperature a
 * number from 0 to 2, max tokens empty or a whole number of at least 1), so nothing main would
 * refuse is sent. A temperature may be written with a decimal comma ("0,7"), as most of Europe
 * writes it. Errors are message keys: the composer shows them in the language of the moment.
 */
import type { MessageKey } from '../../i18n/i18n';

export interface RequestFields {
  temperature: string;
  maxTokens: string;
}

export type RequestFieldErrors = Partial<Record<keyof RequestFields, MessageKey>>;

export type ReadRequestFields =
  | { ok: true; temperature: number | null; maxTokens: number | null }
  | { ok: false; errors: RequestFieldErrors };

/** Empty temperature: the default from settings (null). */
export function readRequestFields(fields: RequestFields): ReadRequestFields {
  const errors: RequestFieldErrors = {};
  const temperatureText = fields.temperature.trim().replace(',', '.');
  let temperature: number | null = null;
  if (temperatureText !== '') {
    temperature = Number(temperatureText);
    if (!/^\d*\.?\d+$/.test(temperatureText) || temperature < 0 || temperature > 2) {
      errors.temperature = 'chat.fields.temperature.invalid';
    }
  }
  const maxTokensText = fields.maxTokens.trim();
  let maxTokens: number | null = null;
  if (maxTokensText !== '') {
    maxTokens = Number(maxTokensText);
    if (!/^\d+$/.test(maxTokensText) || maxTokens < 1 || !Number.isSafeInteger(maxTokens)) {
      errors.maxTokens = 'chat.fields.maxTokens.invalid';
    }
  }
  return Object.keys(errors).length > 0
    ? { ok: false, errors }
    : { ok: true, temperature, maxTokens };
}
