import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DAILY_DAYS,
  daysBefore,
  KEEP_DAYS,
  planRotation,
  type RotationEntry,
} from '../../../../electron/main/services/backups/rotation';

const DAY = 86_400_000;
const NOW = new Date(2025, 2, 20, 15, 30);

/** Backups at random moments of the last 60 days (and a few from the clock's future). */
const entries = fc
  .array(
    fc.record({
      ageMs: fc.integer({ min: -2 * 3_600_000, max: 60 * DAY }),
      beforeRestore: fc.boolean(),
    }),
    { maxLength: 80 },
  )
  .map((list) =>
    list.map(({ ageMs, beforeRestore }, index): RotationEntry => ({
      name: `backup-${index}`,
      createdAt: new Date(NOW.getTime() - ageMs),
      reason: beforeRestore ? 'before-restore' : 'scheduled',
    })),
  );

function kept(list: RotationEntry[], now = NOW): RotationEntry[] {
  const removed = new Set(planRotation(list, now));
  return list.filter((e) => !removed.has(e.name));
}

const dayOf = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;

describe('the rotation', () => {
  it('never removes the newest backup, whatever its age', () => {
    fc.assert(
      fc.property(entries, (list) => {
        if (list.length === 0) return;
        const newest = [...list].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
        expect(planRotation(list, NOW)).not.toContain(newest?.name);
      }),
    );
  });

  it('keeps every backup from today, and the newest of each of the seven days before', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const left = kept(list);
        for (const entry of list.filter((e) => daysBefore(e.createdAt, NOW) <= 0))
          expect(left).toContain(entry);
        for (let day = 1; day <= DAILY_DAYS; day++) {
          const that = list
            .filter((e) => daysBefore(e.createdAt, NOW) === day)
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
          if (that[0]) expect(left).toContain(that[0]);
        }
      }),
    );
  });

  it('keeps one a week for a month, a backup before a restore for a month, and nothing older', () => {
    fc.assert(
      fc.property(entries, (list) => {
        const left = kept(list);
        const newest = [...list].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
        for (const entry of left) {
          if (entry === newest) continue;
          expect(daysBefore(entry.createdAt, NOW)).toBeLessThanOrEqual(KEEP_DAYS);
        }
        for (const entry of list)
          if (entry.reason === 'before-restore' && daysBefore(entry.createdAt, NOW) <= KEEP_DAYS)
            expect(left).toContain(entry);
        // Outside today and the restores, one a day for a week and one a week after that.
        const others = left.filter(
          (e) => daysBefore(e.createdAt, NOW) > 0 && e.reason !== 'before-restore' && e !== newest,
        );
        const perDay = new Map<string, number>();
        for (const e of others)
          perDay.set(dayOf(e.createdAt), (perDay.get(dayOf(e.createdAt)) ?? 0) + 1);
        expect(Math.max(0, ...perDay.values())).toBeLessThanOrEqual(1);
        expect(others.length).toBeLessThanOrEqual(DAILY_DAYS + 5);
        // Every calendar week (Monday first) with backups in the month keeps one of them.
        const inMonth = (e: RotationEntry) => {
          const age = daysBefore(e.createdAt, NOW);
          return age > DAILY_DAYS && age <= KEEP_DAYS;
        };
        const monday = (d: Date) =>
          dayOf(new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7)));
        const weeksWithBackups = new Set(list.filter(inMonth).map((e) => monday(e.createdAt)));
        const weeksKept = new Set(left.filter(inMonth).map((e) => monday(e.createdAt)));
        expect(weeksKept).toEqual(weeksWithBackups);
      }),
    );
  });

  it('removes nothing more when run again, and what it keeps stays kept as the days go by', () => {
    fc.assert(
      fc.property(entries, fc.integer({ min: 1, max: 6 }), (list, days) => {
        const left = kept(list);
        expect(planRotation(left, NOW)).toEqual([]);
        // A day later, a backup kept as the newest of its day (still within the week) stays.
        const later = new Date(NOW.getTime() + days * DAY);
        const stillDaily = left.filter((e) => {
          const age = daysBefore(e.createdAt, later);
          return age >= 1 && age <= DAILY_DAYS && daysBefore(e.createdAt, NOW) >= 1;
        });
        const after = kept(left, later);
        for (const entry of stillDaily) expect(after).toContain(entry);
      }),
    );
  });
});
