import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fitToDisplays,
  loadWindowState,
  saveWindowState,
  WINDOW_STATE_FILE,
} from '../../../electron/main/services/window-state';

const laptop = { x: 0, y: 0, width: 1440, height: 900 };
const external = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('fitToDisplays', () => {
  it('keeps bounds that are on a display', () => {
    expect(fitToDisplays({ x: 100, y: 50, width: 1200, height: 800 }, [laptop])).toEqual({
      x: 100,
      y: 50,
      width: 1200,
      height: 800,
    });
    expect(
      fitToDisplays({ x: 1600, y: 100, width: 1200, height: 800 }, [laptop, external]),
    ).toEqual({ x: 1600, y: 100, width: 1200, height: 800 });
  });

  it('forgets a place on a display that is gone', () => {
    expect(fitToDisplays({ x: 1600, y: 100, width: 1200, height: 800 }, [laptop])).toBeUndefined();
  });

  it('pulls a window hanging off the edge back, and shrinks one larger than the screen', () => {
    expect(fitToDisplays({ x: 1000, y: -50, width: 1200, height: 800 }, [laptop])).toEqual({
      x: 240,
      y: 0,
      width: 1200,
      height: 800,
    });
    expect(fitToDisplays({ x: 0, y: 0, width: 3000, height: 2000 }, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 900,
    });
  });
});

describe('window state file', () => {
  it('round-trips, and ignores a damaged file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'relay-window-'));
    try {
      expect(await loadWindowState(dir)).toBeUndefined();
      await saveWindowState(dir, {
        bounds: { x: 1, y: 2, width: 800, height: 600 },
        maximized: true,
      });
      expect(await loadWindowState(dir)).toEqual({
        bounds: { x: 1, y: 2, width: 800, height: 600 },
        maximized: true,
      });
      await writeFile(join(dir, WINDOW_STATE_FILE), '{"bounds":');
      expect(await loadWindowState(dir)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
