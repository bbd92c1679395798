import { RailBadge } from '../../components/rail-badge';
import { formatRelativeTime } from '../../i18n/format';
import { useT } from '../../i18n/i18n';
import { useMainMessageText } from '../../lib/errors';
import { useBackupsStore } from './backups-store';
import { useNow } from './use-now';
import './backups.css';

/**
 * The sidebar's line about backups: when the last verified one was, amber when something is
 * wrong. Opens the Backups part of Settings.
 */
/** "5 min. ago" in the sidebar's short form, "just now" under a minute. */
function ago(iso: string, now: number, justNow: () => string): string {
  return now - new Date(iso).getTime() < 60_000
    ? justNow()
    : formatRelativeTime(iso, now, 'narrow');
}

export function BackupStatusBadge({ onOpen }: { onOpen: () => void }) {
  const status = useBackupsStore((state) => state.status);
  const now = useNow();
  const t = useT();
  const mainText = useMainMessageText();
  if (!status) return null;
  const problem = status.problem ? mainText(status.problem) : undefined;
  const tone = status.running ? 'running' : status.tone;
  const text = status.running
    ? status.running.kind === 'restore'
      ? t('backup.restoring')
      : t('backup.running')
    : status.tone === 'off'
      ? t('backup.off')
      : status.problem && status.problem.kind !== 'never'
        ? t('backup.attention')
        : status.lastVerified
          ? t('backup.done', { ago: ago(status.lastVerified.at, now, () => t('backup.justNow')) })
          : t('backup.none');
  const label =
    status.problem && status.tone !== 'off'
      ? t('backup.labelProblem', { text, problem: problem ?? '' })
      : t('backup.label', { text });
  return <RailBadge tone={tone} text={text} label={label} problem={problem} onOpen={onOpen} />;
}
