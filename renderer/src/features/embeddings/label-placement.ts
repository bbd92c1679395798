/** Where the map's labels go: beside their point, never over another label, a point or the edge. */

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface PlacedLabel extends Rect {
  /** The point (its index) the label names. */
  index: number;
}

const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** The places tried for a label of `width`×`height` beside a point at (x, y), best first. */
function candidates(x: number, y: number, width: number, height: number, gap: number): Rect[] {
  const at = (left: number, top: number) => ({
    left,
    top,
    right: left + width,
    bottom: top + height,
  });
  return [
    at(x + gap, y - height / 2),
    at(x - gap - width, y - height / 2),
    at(x - width / 2, y - gap - height),
    at(x - width / 2, y + gap),
    at(x + gap * 0.7, y - gap * 0.7 - height),
    at(x + gap * 0.7, y + gap * 0.7),
    at(x - gap * 0.7 - width, y - gap * 0.7 - height),
    at(x - gap * 0.7 - width, y + gap * 0.7),
  ];
}

/**
 * Places a label beside each point where one fits inside `width`×`height` without covering
 * another label or point; a point with no such place gets none (its text shows on hover and
 * focus instead). `sizeOf` gives a label's width and height. `first` (the point in focus or
 * under the pointer) is placed before all others, so theirs make way for it; at most `limit`
 * labels are placed.
 */
export function placeLabels(
  points: ReadonlyArray<readonly [number, number]>,
  sizeOf: (index: number) => { width: number; height: number },
  bounds: { width: number; height: number },
  radius: number,
  options: { first?: number | undefined; limit?: number } = {},
): PlacedLabel[] {
  const taken: Rect[] = points.map(([x, y]) => ({
    left: x - radius,
    top: y - radius,
    right: x + radius,
    bottom: y + radius,
  }));
  const placed: PlacedLabel[] = [];
  const limit = options.limit ?? Infinity;
  const first = options.first;
  const order = points.map((_, index) => index);
  if (first !== undefined && first >= 0 && first < points.length) {
    order.splice(first, 1);
    order.unshift(first);
  }
  for (const index of order) {
    if (placed.length >= limit) break;
    const [x, y] = points[index] as readonly [number, number];
    const { width, height } = sizeOf(index);
    const spot = candidates(x, y, width, height, radius + 3).find(
      (rect) =>
        rect.left >= 0 &&
        rect.top >= 0 &&
        rect.right <= bounds.width &&
        rect.bottom <= bounds.height &&
        !taken.some((other) => overlaps(rect, other)),
    );
    if (!spot) continue;
    taken.push(spot);
    placed.push({ index, ...spot });
  }
  return placed;
}

/** The first place beside the point that stays inside the bounds, overlaps allowed (a callout). */
export function calloutAt(
  [x, y]: readonly [number, number],
  size: { width: number; height: number },
  bounds: { width: number; height: number },
  radius: number,
): Rect {
  const all = candidates(x, y, size.width, size.height, radius + 3);
  const inside = all.find(
    (rect) =>
      rect.left >= 0 && rect.top >= 0 && rect.right <= bounds.width && rect.bottom <= bounds.height,
  );
  if (inside) return inside;
  const first = all[0] as Rect;
  const left = Math.max(0, Math.min(bounds.width - size.width, first.left));
  const top = Math.max(0, Math.min(bounds.height - size.height, first.top));
  return { left, top, right: left + size.width, bottom: top + size.height };
}
