import { describe, expect, it } from 'vitest';
import {
  isOverdue,
  nextDueAt,
  RETRY_AFTER_FAILURE_MS,
} from '../../../../electron/main/services/backups/schedule';

const HOUR = 3_600_000;
const at = (hours: number) => new Date(Date.UTC(2025, 0, 1) + hours * HOUR);

describe('when a backup is due', () => {
  it('is at once when none was ever verified, then one interval after the last one', () => {
    expect(nextDueAt('daily', undefined, undefined)?.getTime()).toBe(0);
    expect(nextDueAt('hourly', at(10), undefined)).toEqual(at(11));
    expect(nextDueAt('daily', at(10), undefined)).toEqual(at(34));
    expect(nextDueAt('weekly', at(10), undefined)).toEqual(at(10 + 168));
    expect(nextDueAt('off', at(10), undefined)).toBeUndefined();
  });

  it('after a failure waits an hour (or the interval) before trying again', () => {
    expect(nextDueAt('weekly', at(0), at(200))).toEqual(
      new Date(at(200).getTime() + RETRY_AFTER_FAILURE_MS),
    );
    // A failure older than the last success holds nothing back.
    expect(nextDueAt('daily', at(10), at(5))).toEqual(at(34));
  });

  it('is overdue when the last verified backup is older than twice the schedule', () => {
    expect(isOverdue('daily', at(0), at(48))).toBe(false);
    expect(isOverdue('daily', at(0), at(49))).toBe(true);
    expect(isOverdue('hourly', at(0), at(2.5))).toBe(true);
    expect(isOverdue('off', at(0), at(1000))).toBe(false);
    expect(isOverdue('daily', undefined, at(1000))).toBe(false);
  });
});
