/**
 * The built-in prompts in the person's language: shown from the catalogue while they are as the
 * app ships them, as the person wrote them once edited; every language keeps their variables.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_IN_PROMPTS } from '../../../electron/main/services/prompts/builtins';
import { promptDraftSchema } from '../../../electron/shared/ipc/routes/prompts';
import { LOCALES } from '../../../electron/shared/locales';
import { templateVariables } from '../../../electron/shared/prompt-template';
import {
  BUILT_IN_PROMPT_KEYS,
  promptMatches,
  shownPrompt,
  variableLabels,
} from '../../../renderer/src/lib/built-in-prompts';
import { visiblePrompts } from '../../../renderer/src/features/prompts/prompts-actions';
import { inLocale } from './i18n/compiled-catalogue';

/** A built-in prompt as main lists it while it is as shipped (or `asShipped: null` once edited). */
function listed(key: string, asShipped: string | null = key) {
  const { key: _key, ...draft } = BUILT_IN_PROMPTS.find((b) => b.key === key)!;
  const parsed = promptDraftSchema.parse(draft);
  return {
    ...parsed,
    id: `id-${key}`,
    variables: templateVariables(parsed.text),
    builtIn: true,
    asShipped,
    hidden: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

afterEach(() => inLocale('en', 'prompts'));

describe('built-in prompts in the language shown', () => {
  it('has catalogue keys for every built-in prompt, and English says exactly what main ships', () => {
    inLocale('en', 'prompts');
    expect(Object.keys(BUILT_IN_PROMPT_KEYS).sort()).toEqual(
      BUILT_IN_PROMPTS.map((b) => b.key).sort(),
    );
    for (const { key } of BUILT_IN_PROMPTS) {
      const stored = listed(key);
      const shown = shownPrompt(stored);
      expect(shown, key).toEqual(stored);
      expect(Object.keys(variableLabels(shown)), key).toEqual(stored.variables.map((v) => v.name));
    }
  });

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`shows them in ${locale}, with the same variables, labelled in ${locale}`, () => {
      inLocale(locale, 'prompts');
      for (const { key } of BUILT_IN_PROMPTS) {
        const stored = listed(key);
        const shown = shownPrompt(stored);
        expect(shown.name, key).not.toBe(stored.name);
        expect(shown.text, key).not.toBe(stored.text);
        expect(shown.starters, key).toHaveLength(stored.starters.length);
        expect(
          shown.variables.map((v) => [v.name, v.required]),
          key,
        ).toEqual(stored.variables.map((v) => [v.name, v.required]));
        const labels = variableLabels(shown);
        for (const variable of stored.variables)
          expect(labels[variable.name], `${key} ${variable.name}`).toBeTruthy();
      }
    });
  }

  it('shows an edited built-in prompt as the person wrote it', () => {
    inLocale('de', 'prompts');
    const text = 'In {{n}} Sätzen:';
    const edited = {
      ...listed('summarize', null),
      name: 'Kurz fassen',
      text,
      variables: templateVariables(text),
    };
    expect(shownPrompt(edited)).toEqual(edited);
    expect(variableLabels(edited)).toEqual({ n: 'n' });
  });

  it('keeps the shipped text when a translation lost a variable', () => {
    inLocale('de', 'prompts');
    const stored = listed('translate');
    const renamed = { ...stored, variables: [{ name: 'other', defaultValue: '', required: true }] };
    expect(shownPrompt(renamed).text).toBe(stored.text);
  });

  it('finds and sorts them by the words shown', () => {
    inLocale('de', 'prompts');
    const all = BUILT_IN_PROMPTS.map((b) => listed(b.key));
    expect(promptMatches(shownPrompt(listed('summarize')), 'zusammen', 'de')).toBe(true);
    expect(visiblePrompts(all, 'übersetze', 'de').map((p) => p.name)).toEqual(['Übersetzen']);
    expect(visiblePrompts(all, '', 'de').map((p) => p.name)).toEqual([
      'Code-Reviewer',
      'Geduldiger Erklärer',
      'Lektor',
      'Übersetzen',
      'Zusammenfassen',
    ]);
  });
});
