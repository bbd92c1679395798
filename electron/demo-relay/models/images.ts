/**
 * The demo image model: a picture drawn from the prompt and a seed. A hash of both picks the
 * colours, the direction of a gradient and a few discs. The relay gives each request a seed of its
 * own, as a real image model samples afresh each time: asking twice for one prompt gives two
 * pictures, while a prompt and seed always give the same bytes (tests can rely on that).
 */
import { encodePng } from '../png';
import { fnv1a } from './hash';

interface Disc {
  x: number;
  y: number;
  radius: number;
  colour: [number, number, number];
}

/**
 * The PNG for `prompt`; `variant` tells apart the images of one request with `n` > 1, `seed` the
 * requests (the relay counts them).
 */
export function renderDemoImage(
  prompt: string,
  width: number,
  height: number,
  variant = 0,
  seed = '',
): Buffer {
  const random = seededRandom(fnv1a(`${seed}:${variant}:${prompt}`));
  const from = colourFromHue(random() * 360, 0.55, 0.35);
  const to = colourFromHue(random() * 360, 0.7, 0.65);
  const angle = random() * Math.PI * 2;
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const size = Math.min(width, height);
  const discs: Disc[] = Array.from({ length: 3 }, () => ({
    x: random() * width,
    y: random() * height,
    radius: size * (0.08 + random() * 0.22),
    colour: colourFromHue(random() * 360, 0.8, 0.55),
  }));

  // Project the corners to normalise the gradient to 0..1 over the whole picture.
  const projections = [0, width * dx, height * dy, width * dx + height * dy];
  const low = Math.min(...projections);
  const span = Math.max(...projections) - low || 1;

  // Clamped: rounds and keeps blends in 0..255 instead of wrapping around.
  const rgb = new Uint8ClampedArray(width * height * 3);
  let offset = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x * dx + y * dy - low) / span;
      let r = from[0] + (to[0] - from[0]) * t;
      let g = from[1] + (to[1] - from[1]) * t;
      let b = from[2] + (to[2] - from[2]) * t;
      for (const disc of discs) {
        const ox = x - disc.x;
        const oy = y - disc.y;
        if (ox * ox + oy * oy < disc.radius * disc.radius) {
          // Half-transparent discs, so overlaps show as a third colour.
          r = (r + disc.colour[0]) / 2;
          g = (g + disc.colour[1]) / 2;
          b = (b + disc.colour[2]) / 2;
        }
      }
      rgb[offset++] = r;
      rgb[offset++] = g;
      rgb[offset++] = b;
    }
  }
  return encodePng(width, height, new Uint8Array(rgb.buffer));
}

/** mulberry32: a tiny deterministic generator, enough for picking demo colours. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function colourFromHue(
  hue: number,
  saturation: number,
  lightness: number,
): [number, number, number] {
  const c = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const h = hue / 60;
  const x = c * (1 - Math.abs((h % 2) - 1));
  const m = lightness - c / 2;
  const [r, g, b] =
    h < 1
      ? [c, x, 0]
      : h < 2
        ? [x, c, 0]
        : h < 3
          ? [0, c, x]
          : h < 4
            ? [0, x, c]
            : h < 5
              ? [x, 0, c]
              : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}
