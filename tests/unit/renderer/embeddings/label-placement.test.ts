import { describe, expect, it } from 'vitest';
import {
  calloutAt,
  placeLabels,
  type Rect,
} from '../../../../renderer/src/features/embeddings/label-placement';

const apart = (a: Rect, b: Rect) =>
  a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
const bounds = { width: 200, height: 200 };
const size = () => ({ width: 60, height: 16 });

describe('map label placement', () => {
  it('puts a label right of its point when there is room', () => {
    const [label] = placeLabels([[50, 100]], size, bounds, 4);
    expect(label).toEqual({ index: 0, left: 57, top: 92, right: 117, bottom: 108 });
  });

  it('turns a label at the right edge to the left, never past the edge', () => {
    const [label] = placeLabels([[195, 100]], size, bounds, 4);
    expect(label!.right).toBeLessThanOrEqual(195);
    expect(label!.left).toBeGreaterThanOrEqual(0);
  });

  it('keeps labels of crowded points apart and off the points, leaving out what does not fit', () => {
    const points = Array.from({ length: 30 }, (_, i) => [90 + (i % 5) * 4, 90 + i] as const);
    const placed = placeLabels(points, size, bounds, 4);
    expect(placed.length).toBeGreaterThan(0);
    expect(placed.length).toBeLessThan(points.length);
    for (const [i, a] of placed.entries()) {
      expect(a.left >= 0 && a.top >= 0 && a.right <= 200 && a.bottom <= 200).toBe(true);
      for (const b of placed.slice(i + 1)) expect(apart(a, b)).toBe(true);
      for (const [x, y] of points)
        expect(apart(a, { left: x - 4, top: y - 4, right: x + 4, bottom: y + 4 })).toBe(true);
    }
  });

  it('always labels the point in focus, the others making way for it', () => {
    // Two points side by side: only one label fits right of them; the one in focus gets it.
    const points = [
      [60, 100],
      [60, 104],
      [60, 108],
    ] as const;
    const before = placeLabels(points, size, bounds, 4);
    expect(before.some((label) => label.index === 2)).toBe(false);
    const placed = placeLabels(points, size, bounds, 4, { first: 2 });
    expect(placed[0]?.index).toBe(2);
    for (const [i, a] of placed.entries())
      for (const b of placed.slice(i + 1)) expect(apart(a, b)).toBe(true);
  });

  it('places at most the labels asked for, the point in focus among them', () => {
    const points = Array.from(
      { length: 100 },
      (_, i) => [10 + (i % 10) * 19, 10 + Math.floor(i / 10) * 19] as const,
    );
    const placed = placeLabels(points, () => ({ width: 8, height: 6 }), bounds, 1, {
      first: 99,
      limit: 5,
    });
    expect(placed).toHaveLength(5);
    expect(placed[0]?.index).toBe(99);
  });

  it('a callout for a point in a corner stays inside the map', () => {
    const rect = calloutAt([2, 2], { width: 300, height: 16 }, bounds, 4);
    expect(rect.left).toBeGreaterThanOrEqual(0);
    expect(rect.top).toBeGreaterThanOrEqual(0);
  });
});
