/**
 * The limits the page checks before it sends (`electron/shared/limits.ts`) are the ones the
 * contract's schemas refuse at: each bound is taken, and one step past it is refused.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { embeddingInputsSchema } from '../../../electron/shared/ipc/routes/embeddings';
import { IMAGES_ROUTES, imageSizeSchema } from '../../../electron/shared/ipc/routes/images';
import {
  KNOWLEDGE_ROUTES,
  conversationKnowledgeSchema,
} from '../../../electron/shared/ipc/routes/knowledge';
import { priceSchema } from '../../../electron/shared/ipc/routes/models';
import { promptDraftSchema } from '../../../electron/shared/ipc/routes/prompts';
import { DEFAULT_PROXY_SETTINGS } from '../../../electron/shared/ipc/routes/network';
import { settingsSchema } from '../../../electron/shared/ipc/routes/settings';
import {
  IMAGE_SIZE_PRESETS,
  KNOWLEDGE_LIMITS,
  MAX_EMBEDDING_INPUTS,
  MAX_IMAGE_COUNT,
  MAX_IMAGE_SIDE,
  MAX_PRICE_PER_MILLION,
  PROMPT_LIMITS,
  RETRIEVAL_LIMITS,
  SETTINGS_RANGES,
  TEMPERATURE_RANGE,
  type Range,
} from '../../../electron/shared/limits';
import { imageRequestSchema, temperatureSchema } from '../../../electron/shared/relay-requests';

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

/** `schema` of `value(n)` takes both ends of `range` and refuses `step` past either. */
function expectBounds(
  schema: z.ZodType,
  value: (n: number) => unknown,
  range: Range,
  step = 1,
): void {
  expect(accepts(schema, value(range.min)), `min ${range.min}`).toBe(true);
  expect(accepts(schema, value(range.max)), `max ${range.max}`).toBe(true);
  expect(accepts(schema, value(range.min - step)), `below ${range.min}`).toBe(false);
  expect(accepts(schema, value(range.max + step)), `above ${range.max}`).toBe(false);
}

const SETTINGS = settingsSchema.parse({
  theme: 'system',
  chatDefaults: { temperature: 1, maxTokens: null },
  timeouts: { requestSeconds: 60, idleSeconds: 30 },
  proxy: DEFAULT_PROXY_SETTINGS,
});

/** The settings with one group's field changed. */
function settingsWith(group: 'timeouts' | 'attachments' | 'tools', field: string) {
  return (n: number) => ({ ...SETTINGS, [group]: { ...SETTINGS[group], [field]: n } });
}

describe('the contract refuses where the page does', () => {
  it('settings: every range the Settings form checks', () => {
    const cases: [keyof typeof SETTINGS_RANGES, 'timeouts' | 'attachments' | 'tools', string][] = [
      ['timeoutSeconds', 'timeouts', 'requestSeconds'],
      ['timeoutSeconds', 'timeouts', 'idleSeconds'],
      ['attachmentMb', 'attachments', 'maxFileMb'],
      ['contextTokens', 'attachments', 'contextTokens'],
      ['imageMaxSide', 'attachments', 'imageMaxSide'],
      ['toolTokenBudget', 'tools', 'tokenBudget'],
      ['toolSteps', 'tools', 'maxSteps'],
      ['toolResultChars', 'tools', 'maxResultChars'],
    ];
    expect(new Set(cases.map(([range]) => range))).toEqual(new Set(Object.keys(SETTINGS_RANGES)));
    for (const [range, group, field] of cases)
      expectBounds(settingsSchema, settingsWith(group, field), SETTINGS_RANGES[range]);
  });

  it('temperature, in the settings and in a request', () => {
    expectBounds(temperatureSchema, (n) => n, TEMPERATURE_RANGE, 0.01);
    expectBounds(
      settingsSchema,
      (n) => ({ ...SETTINGS, chatDefaults: { ...SETTINGS.chatDefaults, temperature: n } }),
      TEMPERATURE_RANGE,
      0.01,
    );
  });

  it('prices', () => {
    const price = (n: number) => ({ inputPerMillion: n, outputPerMillion: 1 });
    expectBounds(priceSchema, price, { min: 0, max: MAX_PRICE_PER_MILLION }, 0.01);
  });

  it('images: the presets, the widest side and the count', () => {
    for (const preset of IMAGE_SIZE_PRESETS) expect(accepts(imageSizeSchema, preset)).toBe(true);
    const side = (n: number) => `${n}x${n}`;
    expectBounds(imageSizeSchema, side, { min: 1, max: MAX_IMAGE_SIDE });
    expectBounds(imageRequestSchema, (n) => ({ model: 'm', prompt: 'p', size: side(n) }), {
      min: 1,
      max: MAX_IMAGE_SIDE,
    });
    const generate = (count: number) => ({
      requestId: 'r',
      model: 'm',
      prompt: 'a cat',
      size: '1024x1024',
      count,
    });
    expectBounds(IMAGES_ROUTES.generateImages.request, generate, { min: 1, max: MAX_IMAGE_COUNT });
  });

  it('prompts: the lengths the editor holds its fields to', () => {
    const draft = { kind: 'assistant', name: 'n', text: 't' };
    const long = (field: 'name' | 'icon' | 'description' | 'text', n: number) => ({
      ...draft,
      [field]: 'x'.repeat(n),
    });
    for (const field of ['name', 'icon', 'description', 'text'] as const) {
      expect(accepts(promptDraftSchema, long(field, PROMPT_LIMITS[field])), field).toBe(true);
      expect(accepts(promptDraftSchema, long(field, PROMPT_LIMITS[field] + 1)), field).toBe(false);
    }
  });

  it('knowledge: retrieval settings and the question', () => {
    const knowledge = {
      conversationId: 'c',
      bases: [],
      topK: 6,
      minScore: 0.1,
      budgetTokens: 3000,
      pinned: [],
      excluded: [],
    };
    expectBounds(
      conversationKnowledgeSchema,
      (n) => ({ ...knowledge, topK: n }),
      RETRIEVAL_LIMITS.topK,
    );
    expectBounds(
      conversationKnowledgeSchema,
      (n) => ({ ...knowledge, minScore: n }),
      RETRIEVAL_LIMITS.minScore,
      0.01,
    );
    expectBounds(
      conversationKnowledgeSchema,
      (n) => ({ ...knowledge, budgetTokens: n }),
      RETRIEVAL_LIMITS.budgetTokens,
    );
    const search = KNOWLEDGE_ROUTES.searchKnowledgeBase.request;
    expectBounds(search, (n) => ({ id: 'k', question: 'q', topK: n }), RETRIEVAL_LIMITS.topK);
    expect(accepts(search, { id: 'k', question: 'q'.repeat(KNOWLEDGE_LIMITS.question) })).toBe(
      true,
    );
    expect(accepts(search, { id: 'k', question: 'q'.repeat(KNOWLEDGE_LIMITS.question + 1) })).toBe(
      false,
    );
  });

  it('embeddings: the inputs of one run', () => {
    const inputs = (n: number) => Array.from({ length: n }, () => 'a');
    expectBounds(embeddingInputsSchema, inputs, { min: 1, max: MAX_EMBEDDING_INPUTS });
  });
});
