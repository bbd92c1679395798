import { Notice } from '../../components/notice';
import type { ConnectLink } from '../../lib/relay-bridge';

/**
 * What a `relay-desktop://connect` link brought: a form to check and save (the key is never in a
 * link), or why the link could not be used.
 */
export function LinkNotice({ link, onDismiss }: { link: ConnectLink; onDismiss(): void }) {
  const dismiss = (
    <button type="button" className="button button-small" onClick={onDismiss}>
      Dismiss
    </button>
  );
  if (!link.ok) {
    return (
      <Notice tone="error" title="This link could not be used" actions={dismiss}>
        <p className="failure-message">{link.message}</p>
      </Notice>
    );
  }
  return (
    <Notice
      tone="info"
      title="Opened from a link"
      actions={link.notes.length > 0 ? dismiss : undefined}
    >
      <p>
        Check the name and the address below, paste your API key, then save. A link never carries a
        key.
      </p>
      {link.notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </Notice>
  );
}
