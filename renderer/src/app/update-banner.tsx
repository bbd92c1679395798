import { useEffect } from 'react';
import { Icon } from '../components/icon';
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
  useEffect(() => watchUpdates(), []);
  if (status?.state !== 'ready') return null;
  const version = status.release.version;
  return (
    <div className="update-banner" role="status">
      <p className="update-banner-text">Version {version} is ready</p>
      <div className="update-banner-actions">
        <button
          type="button"
          className="button button-small button-primary"
          onClick={() => void installUpdate()}
        >
          Restart to update
        </button>
        <button type="button" className="button button-small" onClick={onDetails}>
          What’s new
        </button>
      </div>
      <div className="nav-entry update-banner-compact">
        <button
          type="button"
          className="nav-item update-banner-icon"
          aria-label={`Update ${version} ready: restart or see what’s new`}
          onClick={onDetails}
        >
          <Icon name="download" />
        </button>
        <span className="tooltip" aria-hidden="true">
          Update {version} ready
        </span>
      </div>
    </div>
  );
}
