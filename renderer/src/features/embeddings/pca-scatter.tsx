import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { formatNumber } from '../../i18n/format';
import { useNamespace } from '../../i18n/use-namespace';
import { resolveColour, useThemeKey } from '../../lib/theme-colours';
import { pointerAt, prepareCanvas } from './canvas-size';
import type { EmbeddingRun, ShownAnalysis } from './embeddings-store';
import { calloutAt, placeLabels } from './label-placement';

const SIZE = 420;
const PAD = 24;
/**
 * At most this many labels: each point carries its text where it fits, the first inputs first,
 * and beyond this the map would be more text than points. The point in focus always has its own.
 */
const LABELS_AT_MOST = 60;
/**
 * A label's height and its padding either side (as `.scatter-label` in embeddings.css); the
 * callout for the point in focus comes after the labels in the page, so it stands over them.
 */
const LABEL_HEIGHT = 16;
const LABEL_PADDING = 4;
const PERCENT: Intl.NumberFormatOptions = { style: 'percent', maximumFractionDigits: 0 };

let measurer: CanvasRenderingContext2D | null | undefined;

/** The width a label's text takes, in the page's font at the labels' size. */
function textWidth(text: string, font: string): number {
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return text.length * 7;
  measurer.font = font;
  return measurer.measureText(text).width;
}

/**
 * Every input placed by its first two principal components. Labels sit beside their points
 * where they fit without covering each other or running off the map; the point pointed at, or
 * chosen with the arrow keys, always shows its text.
 */
export function PcaScatter({
  run,
  analysis,
}: {
  run: Pick<EmbeddingRun, 'items'>;
  analysis: ShownAnalysis;
}) {
  const t = useNamespace('embeddings');
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hovered, setHovered] = useState<number | undefined>();
  const [focused, setFocused] = useState<number | undefined>();
  const [shown, setShown] = useState<{ width: number; border: number; font: string }>();
  const n = analysis.n;
  const active = hovered ?? focused;
  const themeKey = useThemeKey();

  const place = useMemo(() => {
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = analysis.points[i * 2] as number;
      const y = analysis.points[i * 2 + 1] as number;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const spanX = maxX - minX || 1;
    const spanY = maxY - minY || 1;
    return (i: number): [number, number] => [
      PAD + (((analysis.points[i * 2] as number) - minX) / spanX) * (SIZE - 2 * PAD),
      SIZE - PAD - (((analysis.points[i * 2 + 1] as number) - minY) / spanY) * (SIZE - 2 * PAD),
    ];
  }, [analysis, n]);

  const textOf = (i: number) => run.items[analysis.indexes[i] as number]?.text ?? '';
  const short = (t: string) => (t.length > 24 ? `${t.slice(0, 23)}…` : t);
  const radius = n > 500 ? 2 : 4;

  // The map as drawn (it shrinks in a narrow window): labels are placed in its pixels.
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const measure = () => {
      const styles = getComputedStyle(element);
      setShown({
        width: element.clientWidth,
        border: element.clientLeft,
        font: `12px ${styles.fontFamily}`,
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const labels = useMemo(() => {
    if (!shown || shown.width === 0) return { placed: [], scale: 1 };
    const scale = shown.width / SIZE;
    const points = Array.from({ length: n }, (_, i) => {
      const [x, y] = place(i);
      return [x * scale, y * scale] as const;
    });
    const sizeOf = (i: number) => ({
      width: Math.ceil(textWidth(short(textOf(i)), shown.font)) + 2 * LABEL_PADDING,
      height: LABEL_HEIGHT,
    });
    const bounds = { width: shown.width, height: shown.width };
    const placed = placeLabels(points, sizeOf, bounds, radius * scale, {
      first: active,
      limit: LABELS_AT_MOST,
    });
    // The point in focus with no free place for its label (a crowded spot): a callout over the
    // others, which stand back while it shows.
    const callout =
      active === undefined || placed.some((label) => label.index === active)
        ? undefined
        : calloutAt(
            points[active] as readonly [number, number],
            sizeOf(active),
            bounds,
            radius * scale,
          );
    return { placed, callout, scale };
    // textOf and short read run and analysis, which `place` follows.
  }, [shown, n, place, radius, active]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const context = prepareCanvas(element, SIZE);
    if (!context) return;
    const styles = getComputedStyle(element);
    const ink = styles.color || '#222';
    // The token is a light-dark() pair, which a canvas cannot read: its colour now, resolved.
    const accent = resolveColour(element, '--color-accent') || '#2f6feb';
    context.clearRect(0, 0, SIZE, SIZE);
    context.fillStyle = accent;
    context.globalAlpha = n > 500 ? 0.6 : 0.9;
    context.beginPath();
    for (let i = 0; i < n; i++) {
      const [x, y] = place(i);
      context.moveTo(x + radius, y);
      context.arc(x, y, radius, 0, Math.PI * 2);
    }
    context.fill();
    context.globalAlpha = 1;
    if (active !== undefined) {
      const [x, y] = place(active);
      context.strokeStyle = ink;
      context.lineWidth = 1.5;
      context.beginPath();
      context.arc(x, y, radius + 3, 0, Math.PI * 2);
      context.stroke();
    }
    element.dataset.painted = 'true';
  }, [analysis, active, place, n, radius, themeKey]);

  const onKey = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const last = n - 1;
    const from = focused ?? -1;
    const to: Record<string, number> = {
      ArrowRight: Math.min(last, from + 1),
      ArrowDown: Math.min(last, from + 1),
      ArrowLeft: Math.max(0, from - 1),
      ArrowUp: Math.max(0, from - 1),
      Home: 0,
      End: last,
    };
    const next = to[event.key];
    if (next === undefined || n === 0) return;
    event.preventDefault();
    setFocused(next);
    setHovered(undefined);
  };

  const offset = shown?.border ?? 0;
  return (
    <section className="card embeddings-picture" aria-labelledby="scatter-title">
      <h2 className="card-title" id="scatter-title">
        {t('embeddings.scatter.title')}
      </h2>
      <div className="picture-frame">
        <canvas
          ref={canvas}
          className="picture-canvas scatter-canvas"
          tabIndex={0}
          role="img"
          aria-label={t('embeddings.scatter.label', { count: n })}
          aria-describedby="scatter-value"
          onKeyDown={onKey}
          onBlur={() => setFocused(undefined)}
          onMouseMove={(event) => {
            const { x, y } = pointerAt(event.currentTarget, event);
            const scale = labels.scale || 1;
            let best: number | undefined;
            let bestDistance = 12 * 12;
            for (let i = 0; i < n; i++) {
              const [px, py] = place(i);
              const distance = (px * scale - x) ** 2 + (py * scale - y) ** 2;
              if (distance < bestDistance) {
                bestDistance = distance;
                best = i;
              }
            }
            if (best !== hovered) setHovered(best);
          }}
          onMouseLeave={() => setHovered(undefined)}
        />
        {labels.placed.map((label) => (
          <span
            key={label.index}
            className="scatter-label"
            data-active={label.index === active ? 'true' : undefined}
            aria-hidden="true"
            style={{ left: label.left + offset, top: label.top + offset }}
          >
            {short(textOf(label.index))}
          </span>
        ))}
        {labels.callout && active !== undefined && (
          <span
            className="scatter-callout"
            aria-hidden="true"
            style={{ left: labels.callout.left + offset, top: labels.callout.top + offset }}
          >
            {short(textOf(active))}
          </span>
        )}
      </div>
      <p id="scatter-value" className="picture-readout" aria-live="polite">
        {active !== undefined
          ? t('embeddings.scatter.readout', {
              number: (analysis.indexes[active] as number) + 1,
              text: textOf(active),
            })
          : ''}
      </p>
      <p className="muted small">
        {t('embeddings.scatter.explained', {
          first: formatNumber(analysis.explained[0], PERCENT),
          second: formatNumber(analysis.explained[1], PERCENT),
        })}
      </p>
    </section>
  );
}
