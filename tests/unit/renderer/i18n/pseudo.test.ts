import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupI18n, type Messages } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { compileCatalogue } from '../../../../scripts/vite-catalogues';
import { pseudoCatalogue, pseudoText } from '../../../../renderer/src/i18n/pseudo';

const file = join(import.meta.dirname, '../../../../renderer/src/i18n/messages/en/shell.json');
const english = compileCatalogue(readFileSync(file, 'utf8'), file) as Messages;

describe('the pseudo-language', () => {
  it('accents every letter and makes text about 40% longer', () => {
    const text = 'Keyboard shortcuts';
    const pseudo = pseudoText(text);
    expect(pseudo).not.toMatch(/[A-Za-z]/);
    expect(pseudo.length).toBeGreaterThanOrEqual(Math.round(text.length * 1.35));
  });

  it('keeps placeholders, plural arguments and # working', () => {
    const i18n = setupI18n();
    const compiled = compileCatalogue(
      JSON.stringify({ files: '{count, plural, one {# file} other {# files}} in {name}' }),
      'test',
    ) as Messages;
    i18n.load('en-XA', pseudoCatalogue(compiled));
    i18n.activate('en-XA');
    const shown = i18n._('files', { count: 3, name: 'Inbox' });
    expect(shown).toContain('3');
    expect(shown).toContain('Inbox');
    expect(shown).toContain('ƒîļéš');
    expect(i18n._('files', { count: 1, name: 'x' })).toContain('ƒîļé');
  });

  it('has every English key', () => {
    expect(Object.keys(pseudoCatalogue(english)).sort()).toEqual(Object.keys(english).sort());
  });
});
