import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressPacer } from '../../../../electron/main/services/knowledge/progress-pacer';

describe('ProgressPacer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first update at once, then at most one per interval, always the latest', () => {
    const sent: number[] = [];
    const pacer = new ProgressPacer<number>((value) => sent.push(value), 100);
    pacer.update(1);
    expect(sent).toEqual([1]);
    for (let i = 2; i <= 50; i++) pacer.update(i);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([1, 50]);
    // Nothing new: nothing sent.
    vi.advanceTimersByTime(1_000);
    expect(sent).toEqual([1, 50]);
    // After a quiet interval, the next one goes at once again.
    pacer.update(51);
    expect(sent).toEqual([1, 50, 51]);
  });

  it('sends what is pending when flushed, and nothing twice', () => {
    const sent: string[] = [];
    const pacer = new ProgressPacer<string>((value) => sent.push(value), 100);
    pacer.update('a');
    pacer.update('b');
    pacer.update('c');
    pacer.flush();
    expect(sent).toEqual(['a', 'c']);
    vi.advanceTimersByTime(500);
    pacer.flush();
    expect(sent).toEqual(['a', 'c']);
  });
});
