/**
 * The ‹ 2 / 3 › switcher on a message that has other versions (edits of a question, regenerated
 * replies): the buttons, or ← and → while it has focus, show the version before or after; the
 * rest of the path follows that version's most recent reply. Focus stays on the switcher of the
 * version shown, so that the keys can be pressed again.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/i18n';
import { showVersion } from './chat-actions';
import type { ChatMessage } from './chat-types';

type Branch = NonNullable<ChatMessage['branch']>;

/** The version whose switcher takes focus when it appears, and on which button. */
let focusNext: { messageId: string; side: 'previous' | 'next' } | undefined;

export function VersionSwitcher({
  messageId,
  branch,
  disabled,
}: {
  messageId: string;
  branch: Branch;
  disabled: boolean;
}) {
  const t = useT();
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (focusNext?.messageId !== messageId) return;
    const side = focusNext.side;
    focusNext = undefined;
    const wanted = side === 'previous' ? previous.current : next.current;
    const other = side === 'previous' ? next.current : previous.current;
    // At either end its button is disabled: the other one takes focus. After the frame that
    // shows the new path (focusing at once would lay out the rows just mounted before it), and
    // without scrolling: the switcher is where the one pressed was.
    const frame = requestAnimationFrame(() =>
      (wanted && !wanted.disabled ? wanted : other)?.focus({ preventScroll: true }),
    );
    return () => cancelAnimationFrame(frame);
  }, [messageId]);

  function go(side: 'previous' | 'next') {
    const target = side === 'previous' ? branch.previousId : branch.nextId;
    if (target === null || disabled) return;
    focusNext = { messageId: target, side };
    void showVersion(target);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      go(event.key === 'ArrowLeft' ? 'previous' : 'next');
    }
  }

  const place = { index: formatNumber(branch.index + 1), count: formatNumber(branch.count) };
  return (
    <div
      className="chat-versions"
      role="group"
      aria-label={t('chat.versions.label', place)}
      title={t('chat.versions.title', place)}
      onKeyDown={onKeyDown}
    >
      <button
        ref={previous}
        type="button"
        className="chat-versions-button"
        aria-label={t('chat.versions.previous')}
        disabled={disabled || branch.previousId === null}
        onClick={() => go('previous')}
      >
        ‹
      </button>
      <span className="chat-versions-count" aria-hidden="true">
        {t('chat.versions.count', place)}
      </span>
      <button
        ref={next}
        type="button"
        className="chat-versions-button"
        aria-label={t('chat.versions.next')}
        disabled={disabled || branch.nextId === null}
        onClick={() => go('next')}
      >
        ›
      </button>
    </div>
  );
}
