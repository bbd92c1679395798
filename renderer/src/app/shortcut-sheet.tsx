import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import {
  SHORTCUTS,
  chordKeys,
  chordText,
  keysFor,
  type Shortcut,
  type ShortcutPlatform,
} from '../../../electron/shared/shortcuts';
import { useT, type MessageKey } from '../i18n/i18n';

/** The message key of a key's English name in the shortcut sheet. */
const KEY_MESSAGES: Record<string, MessageKey> = {
  Ctrl: 'key.Ctrl',
  Shift: 'key.Shift',
  Alt: 'key.Alt',
  Enter: 'key.Enter',
  Esc: 'key.Esc',
  Command: 'key.Command',
  Option: 'key.Option',
  Return: 'key.Return',
  Escape: 'key.Escape',
  Comma: 'key.Comma',
  Slash: 'key.Slash',
  'Question mark': 'key.Question mark',
};

const GROUPS: Shortcut['group'][] = ['General', 'Screens', 'Chat'];

/**
 * Every shortcut of the app with this platform's key names, in a modal dialog: focus moves into
 * it and stays there, Escape closes it, and focus goes back to where it was.
 */
export function ShortcutSheet({
  open,
  platform,
  onClose,
}: {
  open: boolean;
  platform: ShortcutPlatform;
  onClose(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const t = useT();
  const keyName = (english: string) => {
    const key = KEY_MESSAGES[english];
    return key ? t(key) : english;
  };

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnTo.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    }
    if (!open && dialog.open) {
      dialog.close();
      if (returnTo.current?.isConnected) returnTo.current.focus();
      returnTo.current = null;
    }
  }, [open]);

  // Tab and Shift+Tab go round the dialog's own controls, never out to the page behind.
  function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const focusable = [
      ...event.currentTarget.querySelectorAll<HTMLElement>('button, [tabindex="0"]'),
    ];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={ref}
      className="dialog shortcut-sheet"
      aria-labelledby={titleId}
      onKeyDown={keepFocusInside}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="shortcut-sheet-header">
        <h2 className="dialog-title" id={titleId}>
          {t('sheet.title')}
        </h2>
        <button type="button" className="button button-small" onClick={onClose}>
          {t('sheet.close')}
        </button>
      </div>
      {open && (
        <div className="shortcut-groups">
          {GROUPS.map((group) => (
            <section key={group} className="shortcut-group" aria-labelledby={`${titleId}-${group}`}>
              <h3 className="shortcut-group-title" id={`${titleId}-${group}`}>
                {t(`sheet.group.${group}`)}
              </h3>
              <dl className="shortcut-list">
                {SHORTCUTS.filter((shortcut) => shortcut.group === group).map((shortcut) => (
                  <div key={shortcut.id} className="shortcut-row" data-shortcut={shortcut.id}>
                    <dt>{t(`shortcut.${shortcut.id}`)}</dt>
                    <dd>
                      {keysFor(shortcut, platform).map((chord, index) => (
                        <span key={index} className="shortcut-chord">
                          {index > 0 && <span className="muted"> {t('sheet.or')} </span>}
                          <span className="visually-hidden">
                            {chordText(chord, platform, keyName)}
                          </span>
                          <span aria-hidden="true" className="shortcut-caps">
                            {chordKeys(chord, platform, keyName).map((cap) => (
                              <kbd key={cap}>{cap}</kbd>
                            ))}
                          </span>
                        </span>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      )}
    </dialog>
  );
}
