import { RailBadge } from '../../components/rail-badge';
import { useT } from '../../i18n/i18n';
import { useMainMessageText } from '../../lib/errors';
import { useSyncStore } from './sync-store';
import '../backups/backups.css';

/**
 * The rail's line about sync: synced, syncing N changes, offline, needs attention (and the
 * first sync's progress on a computer that just joined). Hidden while sync is off. Opens the
 * Sync part of Settings.
 */
export function SyncStatusBadge({ onOpen }: { onOpen: () => void }) {
  const status = useSyncStore((state) => state.status);
  const t = useT();
  const mainText = useMainMessageText();
  if (!status || status.state === 'off') return null;
  const progress = status.progress;
  const text =
    status.state === 'syncing'
      ? !status.firstSyncDone && progress && progress.total > 0
        ? t('syncRail.first', { percent: Math.floor((progress.done / progress.total) * 100) })
        : status.pendingChanges > 0
          ? t('syncRail.syncingCount', { count: status.pendingChanges })
          : t('syncRail.syncing')
      : status.state === 'offline'
        ? t('syncRail.offline')
        : status.state === 'attention'
          ? t('syncRail.attention')
          : status.state === 'paused'
            ? t('syncRail.paused')
            : t('syncRail.synced');
  const tone =
    status.state === 'syncing'
      ? 'running'
      : status.state === 'offline' || status.state === 'attention'
        ? 'warning'
        : status.state === 'paused'
          ? 'off'
          : 'ok';
  const problem = status.problem ? mainText(status.problem) : undefined;
  const label = problem
    ? t('syncRail.labelProblem', { text, problem })
    : t('syncRail.label', { text });
  return (
    <RailBadge
      tone={tone}
      text={text}
      label={label}
      problem={problem}
      onOpen={onOpen}
      data-testid="sync-badge"
    />
  );
}
