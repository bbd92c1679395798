/**
 * Which backups to keep: the standard rotation. Every backup from today; the newest of each of
 * the seven days before; the newest of each week for a month; nothing older, except that the
 * newest backup is always kept, whatever its age, and a backup taken before a restore is kept a
 * month (it is the way back from that restore).
 *
 * Days and weeks are the person's local calendar days and weeks (Monday first), fixed to the
 * backup's date, so a backup kept as "the newest of its day" stays kept as the days go by.
 */

export interface RotationEntry {
  name: string;
  createdAt: Date;
  reason: 'scheduled' | 'manual' | 'before-restore' | 'quit';
}

const DAY_MS = 86_400_000;
/** Backups older than this many days are removed (the newest one excepted). */
export const KEEP_DAYS = 31;
/** How many days back one backup a day is kept; older ones keep one a week. */
export const DAILY_DAYS = 7;

function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/** Whole calendar days from `date`'s day to `now`'s (0 today; daylight saving rounded away). */
export function daysBefore(date: Date, now: Date): number {
  return Math.round((startOfDay(now).getTime() - startOfDay(date).getTime()) / DAY_MS);
}

function dayKey(date: Date): string {
  const d = startOfDay(date);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

/** The Monday of the date's week. */
function weekKey(date: Date): string {
  const d = startOfDay(date);
  const sinceMonday = (d.getDay() + 6) % 7;
  return dayKey(new Date(d.getFullYear(), d.getMonth(), d.getDate() - sinceMonday));
}

/** The names to remove; everything else in `entries` is kept. */
export function planRotation(entries: readonly RotationEntry[], now: Date): string[] {
  const newestFirst = [...entries].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.name < b.name ? 1 : -1),
  );
  const keep = new Set<string>();
  const newest = newestFirst[0];
  if (newest) keep.add(newest.name);
  const days = new Set<string>();
  const weeks = new Set<string>();
  for (const entry of newestFirst) {
    const age = daysBefore(entry.createdAt, now);
    if (age <= 0) keep.add(entry.name);
    else if (entry.reason === 'before-restore' && age <= KEEP_DAYS) keep.add(entry.name);
    else if (age <= DAILY_DAYS) {
      const key = dayKey(entry.createdAt);
      if (!days.has(key)) {
        days.add(key);
        keep.add(entry.name);
      }
    } else if (age <= KEEP_DAYS) {
      const key = weekKey(entry.createdAt);
      if (!weeks.has(key)) {
        weeks.add(key);
        keep.add(entry.name);
      }
    }
  }
  return newestFirst.filter((e) => !keep.has(e.name)).map((e) => e.name);
}
