import { Notice } from '../../components/notice';
import { useT } from '../../i18n/i18n';
import type { ConnectLink } from '../../lib/relay-bridge';

/**
 * What a `relay-desktop://connect` link brought: a form to check and save (the key is never in a
 * link), or why the link could not be used.
 */
export function LinkNotice({ link, onDismiss }: { link: ConnectLink; onDismiss(): void }) {
  const t = useT();
  const dismiss = (
    <button type="button" className="button button-small" onClick={onDismiss}>
      {t('connect.link.dismiss')}
    </button>
  );
  if (!link.ok) {
    return (
      <Notice tone="error" title={t('connect.link.unusable')} actions={dismiss}>
        <p className="failure-message" data-source="main">
          {link.message}
        </p>
      </Notice>
    );
  }
  return (
    <Notice
      tone="info"
      title={t('connect.link.opened')}
      actions={link.notes.length > 0 ? dismiss : undefined}
    >
      <p>{t('connect.link.check')}</p>
      {link.notes.map((note) => (
        <p key={note} data-source="main">
          {note}
        </p>
      ))}
    </Notice>
  );
}
