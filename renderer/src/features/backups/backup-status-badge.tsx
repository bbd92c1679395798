import { agoShort } from './backup-format';
import { useBackupsStore } from './backups-store';
import { useNow } from './use-now';
import './backups.css';

/**
 * The sidebar's line about backups: when the last verified one was, amber when something is
 * wrong. Opens the Backups part of Settings.
 */
export function BackupStatusBadge({ onOpen }: { onOpen: () => void }) {
  const status = useBackupsStore((state) => state.status);
  const now = useNow();
  if (!status) return null;
  const tone = status.running ? 'running' : status.tone;
  const text = status.running
    ? status.running.kind === 'restore'
      ? 'Restoring…'
      : 'Backing up…'
    : status.tone === 'off'
      ? 'Backups off'
      : status.problem && status.problem.kind !== 'never'
        ? 'Backup needs attention'
        : status.lastVerified
          ? `Backed up ${agoShort(status.lastVerified.at, now)}`
          : 'No backup yet';
  // The visible words first, so speech and voice control find the button by what it shows.
  const detail = status.problem && status.tone !== 'off' ? ` ${status.problem.message}` : '';
  const label = `${text}.${detail} Show backups`;
  // In the narrow icon rail only the dot shows; the words come as a tooltip, as the screens' do.
  return (
    <div className="nav-entry backup-badge-entry">
      <button
        type="button"
        className={`backup-badge backup-badge-${tone}`}
        onClick={onOpen}
        aria-label={label}
        title={status.problem?.message}
      >
        <span className="backup-badge-dot" aria-hidden="true" />
        <span className="backup-badge-text">{text}</span>
      </button>
      <span className="tooltip" aria-hidden="true">
        {text}
      </span>
    </div>
  );
}
