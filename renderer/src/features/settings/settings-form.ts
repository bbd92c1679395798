/**
 * The settings form's text fields, read into settings with a clear message for each mistake.
 * The ranges are the contract's own (`shared/limits.ts`, max tokens a whole number of at least 1),
 * so what passes here is not refused by main. Mistakes are said in the app's language at the
 * moment the fields are read.
 */
import { formatNumber } from '../../i18n/format';
import { t, type MessageKey } from '../../i18n/i18n';
import type { Settings } from '../../lib/relay-bridge';
import { SETTINGS_RANGES, TEMPERATURE_RANGE, type Range } from '../../../../electron/shared/limits';

export interface SettingsFields {
  temperature: string;
  maxTokens: string;
  requestSeconds: string;
  idleSeconds: string;
  /** The largest file attached to a message, in MB. */
  attachmentMb: string;
  /** The tokens a message with its files may hold where the model list does not say. */
  contextTokens: string;
  /** The longest side an attached image is scaled down to, in pixels. */
  imageMaxSide: string;
  /** The tokens the tool list may cost a request. */
  toolTokenBudget: string;
  /** Model replies that call tools in one turn. */
  toolMaxSteps: string;
  /** The characters of a tool's result kept. */
  toolMaxResultChars: string;
}

export type SettingsErrors = Partial<Record<keyof SettingsFields, string>>;

export type ReadResult =
  | { ok: true; changes: Pick<Settings, 'chatDefaults' | 'timeouts' | 'attachments' | 'tools'> }
  | { ok: false; errors: SettingsErrors };

/** A whole number in a range, or the sentence (`mistake`, given the range) that says what it must be. */
function readWhole(text: string, range: Range, mistake: MessageKey) {
  const value = text.trim();
  const number = Number(value);
  if (!WHOLE.test(value) || number < range.min || number > range.max)
    return t(mistake, { min: formatNumber(range.min), max: formatNumber(range.max) });
  return number;
}

export function fieldsOf(settings: Settings): SettingsFields {
  return {
    temperature: String(settings.chatDefaults.temperature),
    maxTokens:
      settings.chatDefaults.maxTokens === null ? '' : String(settings.chatDefaults.maxTokens),
    requestSeconds: String(settings.timeouts.requestSeconds),
    idleSeconds: String(settings.timeouts.idleSeconds),
    attachmentMb: String(settings.attachments.maxFileMb),
    contextTokens: String(settings.attachments.contextTokens),
    imageMaxSide: String(settings.attachments.imageMaxSide),
    toolTokenBudget: String(settings.tools.tokenBudget),
    toolMaxSteps: String(settings.tools.maxSteps),
    toolMaxResultChars: String(settings.tools.maxResultChars),
  };
}

const WHOLE = /^\d+$/;

function readSeconds(text: string, mistake: MessageKey): number | string {
  const value = text.trim();
  const seconds = Number(value);
  if (
    !WHOLE.test(value) ||
    seconds < SETTINGS_RANGES.timeoutSeconds.min ||
    seconds > SETTINGS_RANGES.timeoutSeconds.max
  ) {
    return t(mistake, {
      min: formatNumber(SETTINGS_RANGES.timeoutSeconds.min, { useGrouping: false }),
      max: formatNumber(SETTINGS_RANGES.timeoutSeconds.max, { useGrouping: false }),
    });
  }
  return seconds;
}

export function readSettingsFields(fields: SettingsFields): ReadResult {
  const errors: SettingsErrors = {};

  const temperatureText = fields.temperature.trim();
  const temperature = Number(temperatureText);
  if (temperatureText === '') {
    errors.temperature = t('defaults.error.temperatureEmpty');
  } else if (
    !/^\d*\.?\d+$/.test(temperatureText) ||
    temperature < TEMPERATURE_RANGE.min ||
    temperature > TEMPERATURE_RANGE.max
  ) {
    errors.temperature = t('defaults.error.temperature', {
      min: formatNumber(TEMPERATURE_RANGE.min),
      max: formatNumber(TEMPERATURE_RANGE.max),
    });
  }

  const maxTokensText = fields.maxTokens.trim();
  let maxTokens: number | null = null;
  if (maxTokensText !== '') {
    maxTokens = Number(maxTokensText);
    if (!WHOLE.test(maxTokensText) || maxTokens < 1 || !Number.isSafeInteger(maxTokens)) {
      errors.maxTokens = t('defaults.error.maxTokens');
    }
  }

  const requestSeconds = readSeconds(fields.requestSeconds, 'defaults.error.requestSeconds');
  if (typeof requestSeconds === 'string') errors.requestSeconds = requestSeconds;
  const idleSeconds = readSeconds(fields.idleSeconds, 'defaults.error.idleSeconds');
  if (typeof idleSeconds === 'string') errors.idleSeconds = idleSeconds;

  const maxFileMb = readWhole(
    fields.attachmentMb,
    SETTINGS_RANGES.attachmentMb,
    'defaults.error.attachmentMb',
  );
  if (typeof maxFileMb === 'string') errors.attachmentMb = maxFileMb;
  const contextTokens = readWhole(
    fields.contextTokens,
    SETTINGS_RANGES.contextTokens,
    'defaults.error.contextTokens',
  );
  if (typeof contextTokens === 'string') errors.contextTokens = contextTokens;
  const imageMaxSide = readWhole(
    fields.imageMaxSide,
    SETTINGS_RANGES.imageMaxSide,
    'defaults.error.imageMaxSide',
  );
  if (typeof imageMaxSide === 'string') errors.imageMaxSide = imageMaxSide;
  const tokenBudget = readWhole(
    fields.toolTokenBudget,
    SETTINGS_RANGES.toolTokenBudget,
    'defaults.error.toolTokenBudget',
  );
  if (typeof tokenBudget === 'string') errors.toolTokenBudget = tokenBudget;
  const maxSteps = readWhole(
    fields.toolMaxSteps,
    SETTINGS_RANGES.toolSteps,
    'defaults.error.toolMaxSteps',
  );
  if (typeof maxSteps === 'string') errors.toolMaxSteps = maxSteps;
  const maxResultChars = readWhole(
    fields.toolMaxResultChars,
    SETTINGS_RANGES.toolResultChars,
    'defaults.error.toolMaxResultChars',
  );
  if (typeof maxResultChars === 'string') errors.toolMaxResultChars = maxResultChars;

  if (
    Object.keys(errors).length > 0 ||
    typeof requestSeconds === 'string' ||
    typeof idleSeconds === 'string' ||
    typeof maxFileMb === 'string' ||
    typeof contextTokens === 'string' ||
    typeof imageMaxSide === 'string' ||
    typeof tokenBudget === 'string' ||
    typeof maxSteps === 'string' ||
    typeof maxResultChars === 'string'
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    changes: {
      chatDefaults: { temperature, maxTokens },
      timeouts: { requestSeconds, idleSeconds },
      attachments: { maxFileMb, contextTokens, imageMaxSide },
      tools: { tokenBudget, maxSteps, maxResultChars },
    },
  };
}
