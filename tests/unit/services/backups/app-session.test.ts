import { describe, expect, it } from 'vitest';
import { AppSession } from '../../../../electron/main/app-session';

/** Services that say which generation they are and whether they were closed. */
function generations(failAt?: number) {
  let made = 0;
  const closed: number[] = [];
  const open = async () => {
    made++;
    const generation = made;
    if (generation === failAt) throw new Error(`generation ${generation} would not open`);
    return { generation, close: async () => void closed.push(generation) };
  };
  return { open, closed, made: () => made };
}

describe('AppSession', () => {
  it('holds calls made during a reopen until the new services are open, and runs them there', async () => {
    const g = generations();
    const session = await AppSession.start(g.open);
    let release!: () => void;
    const swapping = new Promise<void>((resolve) => (release = resolve));
    const reopened = session.reopen(() => swapping);
    const during = session.use((s) => s.generation);
    await new Promise((r) => setTimeout(r, 10));
    expect(() => session.current).toThrow(/reopening its data/);
    release();
    await reopened;
    expect(await during).toBe(2);
    expect(g.closed).toEqual([1]);
  });

  it('waits for calls still running when the services close', async () => {
    const g = generations();
    const session = await AppSession.start(g.open);
    const steps: string[] = [];
    const call = session.use(async () => {
      await new Promise((r) => setTimeout(r, 30));
      steps.push('call ended');
    });
    await session.reopen(async () => void steps.push('swapped'));
    await call;
    expect(steps).toEqual(['call ended', 'swapped']);
  });

  it('opens the old data again when the swap fails, and says why', async () => {
    const g = generations();
    const session = await AppSession.start(g.open);
    await expect(
      session.reopen(async () => {
        throw new Error('no room for the marker');
      }),
    ).rejects.toThrow('no room for the marker');
    expect(session.current.generation).toBe(2);
  });

  it('stays closed when the data will not open, and calls say so', async () => {
    const g = generations(2);
    const session = await AppSession.start(g.open);
    await expect(session.reopen(async () => undefined)).rejects.toThrow(/would not open/);
    await expect(session.use((s) => s.generation)).rejects.toThrow(/could not be opened again/);
    // A second reopen (putting the old data back) brings it up again.
    await session.reopen(async () => undefined);
    expect(session.current.generation).toBe(3);
  });
});
