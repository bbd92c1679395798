/**
 * The per-connection request limiter: at most so many requests at once, the person's requests
 * before background work, a relay's 429 wait honoured by every request of the connection, and
 * waiting requests that can be cancelled.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createRequestLimiter,
  type RequestSlot,
} from '../../../../electron/main/services/relay/limiter';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets promise callbacks run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('the request limiter', () => {
  it('runs at most maxConcurrent at once, the rest in the order they asked', async () => {
    const limiter = createRequestLimiter({ maxConcurrent: 2 });
    const order: number[] = [];
    const slots: RequestSlot[] = [];
    for (let i = 0; i < 5; i++)
      void limiter.acquire().then((slot) => {
        order.push(i);
        slots.push(slot);
      });
    await settle();
    expect(order).toEqual([0, 1]);
    expect(limiter.state()).toMatchObject({ active: 2, waiting: 3 });
    slots[0]!.release();
    slots[0]!.release(); // twice frees it once
    await settle();
    expect(order).toEqual([0, 1, 2]);
    expect(limiter.state()).toMatchObject({ active: 2, waiting: 2 });
    slots[1]!.release();
    slots[2]!.release();
    await settle();
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it("lets the person's requests go before background work that waits", async () => {
    const limiter = createRequestLimiter({ maxConcurrent: 1 });
    const first = await limiter.acquire({ priority: 'background' });
    const order: string[] = [];
    const ask = (name: string, priority: 'interactive' | 'background') =>
      limiter.acquire({ priority }).then((slot) => {
        order.push(name);
        slot.release();
      });
    const done = Promise.all([
      ask('batch 2', 'background'),
      ask('batch 3', 'background'),
      ask('chat', 'interactive'),
    ]);
    first.release();
    await settle();
    await done;
    expect(order).toEqual(['chat', 'batch 2', 'batch 3']);
  });

  it('starts nothing during the wait a relay asked for, then fewer at once, growing back', async () => {
    const limiter = createRequestLimiter({ maxConcurrent: 4 });
    const held = await Promise.all([limiter.acquire(), limiter.acquire()]);
    limiter.pause(1000);
    expect(limiter.state()).toMatchObject({ limit: 2, pausedForMs: 1000 });
    let started = 0;
    const slots: RequestSlot[] = [];
    for (let i = 0; i < 4; i++)
      void limiter.acquire().then((slot) => {
        started++;
        slots.push(slot);
      });
    // Requests already running go on; new ones wait, even with slots free.
    held[0]!.release();
    held[1]!.release();
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    // Two releases during the pause let the limit grow back to 4: all four start.
    expect(started).toBe(4);
    for (const slot of slots) slot.release();
    expect(limiter.state()).toMatchObject({ active: 0, limit: 4 });
  });

  it('keeps the longest of two waits, and halves at most down to one at once', async () => {
    const limiter = createRequestLimiter({ maxConcurrent: 2 });
    limiter.pause(500);
    limiter.pause(200);
    limiter.pause(300);
    expect(limiter.state()).toMatchObject({ limit: 1, pausedForMs: 500 });
    const slot = limiter.acquire();
    await vi.advanceTimersByTimeAsync(499);
    expect(limiter.state().active).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    (await slot).release();
  });

  it('drops a waiting request whose signal aborts, and refuses one already aborted', async () => {
    const limiter = createRequestLimiter({ maxConcurrent: 1 });
    const held = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire({ signal: controller.signal });
    const after = limiter.acquire();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ kind: 'aborted' });
    expect(limiter.state().waiting).toBe(1);
    held.release();
    await expect(after).resolves.toBeDefined();
    await expect(limiter.acquire({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      kind: 'aborted',
    });
  });
});
