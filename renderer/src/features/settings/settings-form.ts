/**
 * The settings form's text fields, read into settings with a clear message for each mistake.
 * The rules match the contract's (temperature 0 to 2, max tokens a whole number of at least 1,
 * timeouts 5 to 3600 seconds), so what passes here is not refused by main.
 */
import type { Settings } from '../../lib/relay-bridge';

export interface SettingsFields {
  temperature: string;
  maxTokens: string;
  requestSeconds: string;
  idleSeconds: string;
}

export type SettingsErrors = Partial<Record<keyof SettingsFields, string>>;

export type ReadResult =
  | { ok: true; changes: Pick<Settings, 'chatDefaults' | 'timeouts'> }
  | { ok: false; errors: SettingsErrors };

export const TIMEOUT_RANGE = { min: 5, max: 3600 } as const;

export function fieldsOf(settings: Settings): SettingsFields {
  return {
    temperature: String(settings.chatDefaults.temperature),
    maxTokens:
      settings.chatDefaults.maxTokens === null ? '' : String(settings.chatDefaults.maxTokens),
    requestSeconds: String(settings.timeouts.requestSeconds),
    idleSeconds: String(settings.timeouts.idleSeconds),
  };
}

const WHOLE = /^\d+$/;

function readSeconds(text: string, what: string): number | string {
  const value = text.trim();
  const seconds = Number(value);
  if (!WHOLE.test(value) || seconds < TIMEOUT_RANGE.min || seconds > TIMEOUT_RANGE.max) {
    return `${what} must be a whole number of seconds from ${TIMEOUT_RANGE.min} to ${TIMEOUT_RANGE.max}.`;
  }
  return seconds;
}

export function readSettingsFields(fields: SettingsFields): ReadResult {
  const errors: SettingsErrors = {};

  const temperatureText = fields.temperature.trim();
  const temperature = Number(temperatureText);
  if (temperatureText === '') {
    errors.temperature = 'Enter a temperature from 0 to 2 (1 is the usual default).';
  } else if (!/^\d*\.?\d+$/.test(temperatureText) || temperature < 0 || temperature > 2) {
    errors.temperature = 'Temperature must be a number from 0 to 2, such as 0.7.';
  }

  const maxTokensText = fields.maxTokens.trim();
  let maxTokens: number | null = null;
  if (maxTokensText !== '') {
    maxTokens = Number(maxTokensText);
    if (!WHOLE.test(maxTokensText) || maxTokens < 1 || !Number.isSafeInteger(maxTokens)) {
      errors.maxTokens = 'Max tokens must be empty (no limit) or a whole number of at least 1.';
    }
  }

  const requestSeconds = readSeconds(fields.requestSeconds, 'The request timeout');
  if (typeof requestSeconds === 'string') errors.requestSeconds = requestSeconds;
  const idleSeconds = readSeconds(fields.idleSeconds, 'The idle timeout');
  if (typeof idleSeconds === 'string') errors.idleSeconds = idleSeconds;

  if (
    Object.keys(errors).length > 0 ||
    typeof requestSeconds === 'string' ||
    typeof idleSeconds === 'string'
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    changes: {
      chatDefaults: { temperature, maxTokens },
      timeouts: { requestSeconds, idleSeconds },
    },
  };
}
