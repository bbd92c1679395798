/** How backups are written for people: dates, ages, sizes and what a backup holds. */
import type { BackupEntry, BackupSchedule, BackupStatus } from './backups-store';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 minutes ago", "2 hours ago", "3 days ago". */
export function ago(iso: string, now: number): string {
  const ms = Math.max(0, now - new Date(iso).getTime());
  if (ms < MINUTE) return 'just now';
  const [value, unit] =
    ms < HOUR
      ? [Math.floor(ms / MINUTE), 'minute']
      : ms < DAY
        ? [Math.floor(ms / HOUR), 'hour']
        : [Math.floor(ms / DAY), 'day'];
  return `${value} ${unit}${value === 1 ? '' : 's'} ago`;
}

const DATE_TIME = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function dateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}

export function size(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000))} KB`;
  return `${(bytes / 1_000_000).toLocaleString(undefined, { maximumFractionDigits: 1 })} MB`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

export function countsText(counts: NonNullable<BackupEntry['counts']>): string {
  return [
    plural(counts.conversations, 'conversation'),
    plural(counts.messages, 'message'),
    plural(counts.embeddingRuns, 'embeddings run'),
    plural(counts.images, 'image'),
  ].join(' · ');
}

export const SCHEDULE_LABELS: Record<BackupSchedule, string> = {
  off: 'Only when I ask',
  hourly: 'Every hour',
  daily: 'Every day',
  weekly: 'Every week',
};

const STAGE_LABELS: Record<NonNullable<BackupStatus['running']>['stage'], string> = {
  checking: 'Checking the folder…',
  copying: 'Copying your data…',
  verifying: 'Verifying the copy…',
  rotating: 'Removing old backups…',
  'saving-current': 'Backing up your current data first…',
  restoring: 'Restoring…',
};

export function stageLabel(running: NonNullable<BackupStatus['running']>): string {
  return STAGE_LABELS[running.stage];
}

/** The one line that says how safe the data is, as the person would ask it. */
export function headline(status: BackupStatus, now: number): string {
  if (status.tone === 'off') return 'Backups are off';
  if (status.lastVerified) return `Last verified backup: ${ago(status.lastVerified.at, now)}`;
  return 'No verified backup yet';
}
