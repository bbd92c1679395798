/**
 * The conversation's request settings as typed, read with the relay spec's rules (temperature a
 * number from 0 to 2, max tokens empty or a whole number of at least 1), so nothing main would
 * refuse is sent.
 */
export interface RequestFields {
  temperature: string;
  maxTokens: string;
}

export type RequestFieldErrors = Partial<Record<keyof RequestFields, string>>;

export type ReadRequestFields =
  | { ok: true; temperature: number | null; maxTokens: number | null }
  | { ok: false; errors: RequestFieldErrors };

/** Empty temperature: the default from settings (null). */
export function readRequestFields(fields: RequestFields): ReadRequestFields {
  const errors: RequestFieldErrors = {};
  const temperatureText = fields.temperature.trim();
  let temperature: number | null = null;
  if (temperatureText !== '') {
    temperature = Number(temperatureText);
    if (!/^\d*\.?\d+$/.test(temperatureText) || temperature < 0 || temperature > 2) {
      errors.temperature = 'Temperature must be a number from 0 to 2, such as 0.7.';
    }
  }
  const maxTokensText = fields.maxTokens.trim();
  let maxTokens: number | null = null;
  if (maxTokensText !== '') {
    maxTokens = Number(maxTokensText);
    if (!/^\d+$/.test(maxTokensText) || maxTokens < 1 || !Number.isSafeInteger(maxTokens)) {
      errors.maxTokens = 'Max tokens must be empty (no limit) or a whole number of at least 1.';
    }
  }
  return Object.keys(errors).length > 0
    ? { ok: false, errors }
    : { ok: true, temperature, maxTokens };
}
