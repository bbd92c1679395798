import { describe, expect, it } from 'vitest';
import { decodeStamp, HybridClock } from '../../../../electron/main/services/sync/hlc';

describe('the hybrid logical clock', () => {
  it('orders stamps as strings the way it orders them as clocks', () => {
    let wall = 1_000;
    const clock = new HybridClock('aaaa', () => wall);
    const first = clock.now();
    const second = clock.now(); // same millisecond: the counter moves
    wall = 1_000_000_000_000;
    const third = clock.now();
    expect([third, first, second].sort()).toEqual([first, second, third]);
    expect(decodeStamp(second)).toEqual({ wall: 1_000, counter: 1, device: 'aaaa' });
  });

  it('stamps a change made after seeing another later than it, whatever its own wall clock says', () => {
    const fast = new HybridClock('fast', () => Date.parse('2026-01-01T13:00:00Z'));
    const slow = new HybridClock('slow', () => Date.parse('2026-01-01T12:00:00Z'));
    const seen = fast.now();
    slow.receive(seen);
    expect(slow.now() > seen).toBe(true);
  });

  it('never goes backwards when the wall clock is set back, across a restart too', () => {
    let wall = 5_000;
    const clock = new HybridClock('dev', () => wall);
    const before = clock.now();
    wall = 1_000;
    const after = clock.now();
    expect(after > before).toBe(true);
    const restarted = new HybridClock('dev', () => wall, clock.last());
    expect(restarted.now() > after).toBe(true);
  });

  it('stamps a change at the moment it was made, not later', () => {
    const clock = new HybridClock('dev', () => 10_000);
    expect(decodeStamp(clock.now(4_000)).wall).toBe(4_000);
    // But never before what the clock already gave.
    expect(decodeStamp(clock.now(2_000)).wall).toBe(4_000);
  });
});
