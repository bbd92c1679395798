/**
 * Namespaces and a language switch: a screen's words asked for while the page is switching to
 * another language are there in that language once it shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { activateLocale, i18n, loadNamespace, t } from '../../../../renderer/src/i18n/i18n';

beforeAll(() => {
  // The switch names the page's language on <html>; the tests run without a DOM.
  (globalThis as { document?: unknown }).document = { documentElement: { lang: 'en' } };
});

describe('namespaces across a language switch', () => {
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
    await activateLocale('fr');
    await loadNamespace('models');
    expect(t('models.title')).toBe('Modèles');
    expect(t('connect.demo.try')).toBe('Essayer le relais de démo');
  });
});
