/**
 * A screen's words asked for while the page switches language: they arrive in the language the
 * page switches to, not only in the one it is leaving.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale, i18n, loadNamespace, t } from '../../../../renderer/src/i18n/i18n';

// The page sets `lang` on <html> when it switches.
(globalThis as { document?: unknown }).document = { documentElement: {} };

afterEach(async () => {
  await activateLocale('en');
});

describe('namespaces and language switches', () => {
  it('loads a namespace asked for during a switch in the new language', async () => {
    const switching = activateLocale('de');
    const screen = loadNamespace('knowledge');
    await Promise.all([switching, screen]);
    expect(i18n.locale).toBe('de');
    expect(t('knowledge.title')).toBe('Wissen');
  });

  it('ends in the language asked for last when two switches overlap', async () => {
    await loadNamespace('quick-ask');
    const first = activateLocale('fr');
    const second = activateLocale('ja');
    await Promise.all([first, second]);
    expect(i18n.locale).toBe('ja');
    expect(t('quickAsk.title')).toBe('クイック質問');
  });

  it('has the words of a screen that opened while the language was switching', async () => {
    const switching = activateLocale('de');
    // The first-run screen's chunk arrives meanwhile, and asks for its words in the language shown.
    await loadNamespace('connect');
    await switching;
    expect(i18n.locale).toBe('de');
    expect(t('connect.title')).toBe('Mit einem Model Relay verbinden');
    expect(t('screen.models')).toBe('Modelle');
  });

  it('loads a screen asked for later in the language shown', async () => {
    // A screen loaded before the switch follows it; one asked for after it comes in its words.
    await loadNamespace('connect');
    await activateLocale('fr');
    await loadNamespace('models');
    expect(t('models.title')).toBe('Modèles');
    expect(t('connect.demo.try')).toBe('Essayer le relais de démo');
  });
});
