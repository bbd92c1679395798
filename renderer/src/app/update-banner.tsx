import { useEffect } from 'react';
import { installUpdate, watchUpdates } from '../features/settings/updates-actions';
import { useUpdatesStore } from '../features/settings/updates-store';

/**
 * In the sidebar, once an update is downloaded and verified: "Restart to update". Everything
 * else about updates (progress, notes, failures) is in Settings → Updates.
 */
export function UpdateBanner({ onDetails }: { onDetails(): void }) {
  const status = useUpdatesStore((s) => s.status);
  useEffect(() => watchUpdates(), []);
  if (status?.state !== 'ready') return null;
  return (
    <div className="update-banner" role="status">
      <p className="update-banner-text">Version {status.release.version} is ready</p>
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
    </div>
  );
}
