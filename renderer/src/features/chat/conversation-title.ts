/**
 * A conversation's title as the person reads it: main's default ("New conversation") and a
 * branch's mark (" (branch)") are stored in English and shown in the active language; a title a
 * person wrote, or one taken from their first message, is shown as it is.
 */
import { titleParts, type TitleParts } from '../../../../electron/shared/conversation-titles';
import type { useT } from '../../i18n/i18n';

type T = ReturnType<typeof useT>;

function worded(parts: TitleParts, t: T): string {
  if (parts.kind === 'untitled') return t('chat.title.untitled');
  if (parts.kind === 'branch') return t('chat.title.branch', { title: worded(parts.of, t) });
  return parts.title;
}

/** The title shown for `conversation` (a search hit has no `forkedFrom`: only the default). */
export function shownTitle(conversation: { title: string; forkedFrom?: unknown }, t: T): string {
  return worded(titleParts(conversation.title, conversation.forkedFrom != null), t);
}
