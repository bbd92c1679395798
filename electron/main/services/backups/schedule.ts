/**
 * When backups are due, on a clock the tests can drive.
 *
 * The scheduler does not sleep until the next backup in one long timer: a computer that sleeps
 * or hibernates lets such a timer fire hours late or not at all. It looks every minute instead,
 * and takes a backup as soon as one is due (so a laptop that wakes up after two days backs up at
 * once).
 */
import type { BackupSchedule } from '../../../shared/ipc/routes/backups';

export interface Clock {
  now(): Date;
  /** Calls `run` after `ms`; returns a function that cancels it. */
  setTimer(ms: number, run: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimer(ms, run) {
    const timer = setTimeout(run, ms);
    // A pending check must never keep the process alive on its own.
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

const HOUR_MS = 3_600_000;

export const SCHEDULE_INTERVAL_MS: Record<Exclude<BackupSchedule, 'off'>, number> = {
  hourly: HOUR_MS,
  daily: 24 * HOUR_MS,
  weekly: 7 * 24 * HOUR_MS,
};

/** How often the scheduler looks whether a backup is due and the folder is still there. */
export const CHECK_EVERY_MS = 60_000;
/** After a backup failed its check, the next try waits this long (or the schedule's interval). */
export const RETRY_AFTER_FAILURE_MS = HOUR_MS;

export function intervalOf(schedule: BackupSchedule): number | undefined {
  return schedule === 'off' ? undefined : SCHEDULE_INTERVAL_MS[schedule];
}

/** When the next backup is due: now if none was ever verified. */
export function nextDueAt(
  schedule: BackupSchedule,
  lastVerifiedAt: Date | undefined,
  lastFailedAt: Date | undefined,
): Date | undefined {
  const interval = intervalOf(schedule);
  if (interval === undefined) return undefined;
  const due = lastVerifiedAt ? lastVerifiedAt.getTime() + interval : 0;
  const retry = lastFailedAt
    ? lastFailedAt.getTime() + Math.min(interval, RETRY_AFTER_FAILURE_MS)
    : 0;
  // A failure after the last success holds the next try back; an older one does not.
  const failedSince = lastFailedAt && (!lastVerifiedAt || lastFailedAt > lastVerifiedAt);
  return new Date(failedSince ? Math.max(due, retry) : due);
}

/** The last verified backup is older than twice the schedule: the person must be told. */
export function isOverdue(schedule: BackupSchedule, lastVerifiedAt: Date | undefined, now: Date) {
  const interval = intervalOf(schedule);
  if (interval === undefined || lastVerifiedAt === undefined) return false;
  return now.getTime() - lastVerifiedAt.getTime() > 2 * interval;
}
