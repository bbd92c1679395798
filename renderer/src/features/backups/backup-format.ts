/**
 * How backups are written for people, in the app's language: dates, ages, sizes and what a
 * backup holds. Called while a component that uses `useT` renders, so a new language shows at
 * once.
 */
import { formatDate, formatFileSize } from '../../i18n/format';
import { i18n, t, type MessageKey } from '../../i18n/i18n';
import type { BackupEntry, BackupSchedule, BackupStatus } from './backups-store';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const relative = new Map<string, Intl.RelativeTimeFormat>();

/** "just now", "5 minutes ago", "2 hours ago", "3 days ago" (whole units, never "yesterday"). */
export function ago(iso: string, now: number): string {
  const ms = Math.max(0, now - new Date(iso).getTime());
  if (ms < MINUTE) return t('backups.justNow');
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    ms < HOUR
      ? [Math.floor(ms / MINUTE), 'minute']
      : ms < DAY
        ? [Math.floor(ms / HOUR), 'hour']
        : [Math.floor(ms / DAY), 'day'];
  let format = relative.get(i18n.locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(i18n.locale, { numeric: 'always' });
    relative.set(i18n.locale, format);
  }
  return format.format(-value, unit);
}

export function dateTime(iso: string): string {
  return formatDate(iso, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** A backup's size: at least "1 kB", since even an empty one holds its tables. */
export function size(bytes: number): string {
  return formatFileSize(Math.max(1000, bytes));
}

export function countsText(counts: NonNullable<BackupEntry['counts']>): string {
  return t('backups.counts', {
    conversations: counts.conversations,
    messages: counts.messages,
    runs: counts.embeddingRuns,
    images: counts.images,
  });
}

export const SCHEDULE_LABELS: Record<BackupSchedule, MessageKey> = {
  off: 'backups.schedule.off',
  hourly: 'backups.schedule.hourly',
  daily: 'backups.schedule.daily',
  weekly: 'backups.schedule.weekly',
};

const STAGE_LABELS: Record<NonNullable<BackupStatus['running']>['stage'], MessageKey> = {
  checking: 'backups.stage.checking',
  copying: 'backups.stage.copying',
  verifying: 'backups.stage.verifying',
  rotating: 'backups.stage.rotating',
  'saving-current': 'backups.stage.savingCurrent',
  restoring: 'backups.stage.restoring',
};

export function stageLabel(running: NonNullable<BackupStatus['running']>): string {
  return t(STAGE_LABELS[running.stage]);
}

/** The one line that says how safe the data is, as the person would ask it. */
export function headline(status: BackupStatus, now: number): string {
  if (status.tone === 'off') return t('backups.headline.off');
  if (status.lastVerified)
    return t('backups.headline.last', { ago: ago(status.lastVerified.at, now) });
  return t('backups.headline.none');
}
