import type { Messages } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { titleParts } from '../../../electron/shared/conversation-titles';
import { DEFAULT_TITLE, forkTitle } from '../../../electron/main/services/chat/store';
import { shownTitle } from '../../../renderer/src/features/chat/conversation-title';
import { i18n } from '../../../renderer/src/i18n/i18n';
import de from '../../../renderer/src/i18n/messages/de/chat.json';
import en from '../../../renderer/src/i18n/messages/en/chat.json';
import es from '../../../renderer/src/i18n/messages/es/chat.json';
import fr from '../../../renderer/src/i18n/messages/fr/chat.json';
import ja from '../../../renderer/src/i18n/messages/ja/chat.json';
import zh from '../../../renderer/src/i18n/messages/zh-CN/chat.json';

const CATALOGUES: Record<string, unknown> = { en, de, es, fr, ja, 'zh-CN': zh };

/** The page's `t` in `locale`, with the chat's catalogue loaded. */
function tIn(locale: string) {
  i18n.load(locale, CATALOGUES[locale] as Messages);
  i18n.activate(locale);
  return (key: string, values?: Record<string, string | number | Date>) => i18n._(key, values);
}

afterEach(() => i18n.activate('en'));

describe('conversation titles main writes, shown in the person’s language', () => {
  it('shows the default title and a branch’s mark translated, in every language', () => {
    const expected: Record<string, [string, string, string]> = {
      en: ['New conversation', 'Tide pools (branch)', 'New conversation (branch)'],
      de: ['Neue Unterhaltung', 'Tide pools (Zweig)', 'Neue Unterhaltung (Zweig)'],
      es: ['Nueva conversación', 'Tide pools (rama)', 'Nueva conversación (rama)'],
      fr: ['Nouvelle conversation', 'Tide pools (branche)', 'Nouvelle conversation (branche)'],
      ja: ['新しい会話', 'Tide pools（分岐）', '新しい会話（分岐）'],
      'zh-CN': ['新对话', 'Tide pools（分支）', '新对话（分支）'],
    };
    const forkedFrom = { conversationId: 'a', messageId: 'b', title: 'Tide pools' };
    for (const [locale, [untitled, branch, untitledBranch]] of Object.entries(expected)) {
      const t = tIn(locale);
      expect(shownTitle({ title: DEFAULT_TITLE }, t), locale).toBe(untitled);
      expect(shownTitle({ title: forkTitle('Tide pools'), forkedFrom }, t), locale).toBe(branch);
      expect(shownTitle({ title: forkTitle(DEFAULT_TITLE), forkedFrom }, t), locale).toBe(
        untitledBranch,
      );
    }
  });

  it('leaves the titles people wrote as they are, the stored ones unchanged', () => {
    const t = tIn('de');
    // Only exactly the default is translated; a person's own "(branch)" on a conversation that
    // is not a branch stays theirs.
    expect(shownTitle({ title: 'New conversation about tides' }, t)).toBe(
      'New conversation about tides',
    );
    expect(shownTitle({ title: 'Plan (branch)' }, t)).toBe('Plan (branch)');
    expect(shownTitle({ title: 'Gezeiten' }, t)).toBe('Gezeiten');
    // What main stores stays the English it always wrote (a sync peer or an older release reads it).
    expect(DEFAULT_TITLE).toBe('New conversation');
    expect(forkTitle('Tide pools')).toBe('Tide pools (branch)');
    expect(titleParts('Tide pools (branch) (branch)', true)).toEqual({
      kind: 'branch',
      of: { kind: 'branch', of: { kind: 'named', title: 'Tide pools' } },
    });
  });

  it('shows the default for a stored title that is empty or only spaces, and leaves it stored so', () => {
    const t = tIn('fr');
    expect(shownTitle({ title: '' }, t)).toBe('Nouvelle conversation');
    expect(shownTitle({ title: '   ' }, t)).toBe('Nouvelle conversation');
    const forkedFrom = { conversationId: 'a', messageId: 'b', title: '' };
    expect(shownTitle({ title: ' (branch)', forkedFrom }, t)).toBe(
      'Nouvelle conversation (branche)',
    );
    expect(titleParts('', false)).toEqual({ kind: 'untitled' });
  });
});
