import { useEffect } from 'react';
import { Icon } from '../components/icon';
import { useT } from '../i18n/i18n';
import { installUpdate, watchUpdates } from '../features/settings/updates-actions';
import { useUpdatesStore } from '../features/settings/updates-store';

/**
 * In the sidebar, once an update is downloaded and verified: "Restart to update". Everything
 * else about updates (progress, notes, failures) is in Settings → Updates. In the narrow icon
 * rail, where the words and two buttons do not fit, it is one icon (its words as a tooltip) that
 * opens Settings → Updates, where "Restart to update" is.
 */
export function UpdateBanner({ onDetails }: { onDetails(): void }) {
  const status = useUpdatesStore((s) => s.status);
  const t = useT();
  useEffect(() => watchUpdates(), []);
  if (status?.state !== 'ready') return null;
  const version = status.release.version;
  return (
    <div className="update-banner" role="status">
      <p className="update-banner-text">{t('update.ready', { version })}</p>
      <div className="update-banner-actions">
        <button
          type="button"
          className="button button-small button-primary"
          onClick={() => void installUpdate()}
        >
          {t('update.restart')}
        </button>
        <button type="button" className="button button-small" onClick={onDetails}>
          {t('update.whatsNew')}
        </button>
      </div>
      <div className="nav-entry update-banner-compact">
        <button
          type="button"
          className="nav-item update-banner-icon"
          aria-label={t('update.compactLabel', { version })}
          onClick={onDetails}
        >
          <Icon name="download" />
        </button>
        <span className="tooltip" aria-hidden="true">
          {t('update.compactTip', { version })}
        </span>
      </div>
    </div>
  );
}
