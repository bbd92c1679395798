/**
 * The main window's size and place, remembered between runs in `window-state.json`.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from './data-files';

export const WINDOW_STATE_FILE = 'window-state.json';

const rectangle = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
});
export type Rectangle = z.infer<typeof rectangle>;

const windowStateSchema = z.object({ bounds: rectangle, maximized: z.boolean() });
export type WindowState = z.infer<typeof windowStateSchema>;

/** How much of a window must lie on some display for its saved place to be reused. */
const MIN_VISIBLE = 100;

/**
 * The saved bounds if they still fit the displays there are now (a monitor may have been
 * unplugged), shrunk to the work area they are on; undefined to let the window centre itself.
 */
export function fitToDisplays(
  bounds: Rectangle,
  workAreas: readonly Rectangle[],
): Rectangle | undefined {
  for (const area of workAreas) {
    const overlapX =
      Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const overlapY =
      Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    if (overlapX >= MIN_VISIBLE && overlapY >= MIN_VISIBLE) {
      const width = Math.min(bounds.width, area.width);
      const height = Math.min(bounds.height, area.height);
      const x = Math.min(Math.max(bounds.x, area.x), area.x + area.width - width);
      const y = Math.min(Math.max(bounds.y, area.y), area.y + area.height - height);
      return { x, y, width, height };
    }
  }
  return undefined;
}

export async function loadWindowState(dataDir: string): Promise<WindowState | undefined> {
  const read = await readJsonFile(
    join(dataDir, WINDOW_STATE_FILE),
    windowStateSchema,
    'window position',
  );
  return read.status === 'ok' ? read.value : undefined;
}

export async function saveWindowState(dataDir: string, state: WindowState): Promise<void> {
  await writeFileAtomic(
    join(dataDir, WINDOW_STATE_FILE),
    `${JSON.stringify(windowStateSchema.parse(state))}\n`,
  );
}
