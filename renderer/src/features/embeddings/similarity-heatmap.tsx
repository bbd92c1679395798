import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { formatNumber } from '../../i18n/format';
import type { t as translate } from '../../i18n/i18n';
import { useNamespace } from '../../i18n/use-namespace';
import { resolveRgb, useThemeKey } from '../../lib/theme-colours';
import { pointerAt, prepareCanvas } from './canvas-size';
import type { EmbeddingRun, ShownAnalysis } from './embeddings-store';
import { heatmapPixels, type HeatScale } from './vector-math';

const SIZE = 420;
/** The image is at most this many pixels a side; more inputs are sampled. */
const MAX_PIXELS = 600;
/** Up to this many inputs, rows and columns carry the inputs' numbers (cells of 14 px or more). */
const NUMBERED_UP_TO = 30;

interface Cell {
  /** Positions in the shown order. */
  row: number;
  col: number;
}

const VALUE: Intl.NumberFormatOptions = { minimumFractionDigits: 3, maximumFractionDigits: 3 };

function describe(
  t: typeof translate,
  cell: Cell,
  analysis: ShownAnalysis,
  run: Pick<EmbeddingRun, 'items'>,
  ordered: boolean,
) {
  const order = ordered ? analysis.order : null;
  const i = order ? (order[cell.row] as number) : cell.row;
  const j = order ? (order[cell.col] as number) : cell.col;
  const value = analysis.matrix[i * analysis.n + j] as number;
  const a = run.items[analysis.indexes[i] as number]?.text ?? '';
  const b = run.items[analysis.indexes[j] as number]?.text ?? '';
  const short = (t: string) => (t.length > 40 ? `${t.slice(0, 39)}…` : t);
  const text = t('embeddings.heatmap.pair', {
    first: (analysis.indexes[i] as number) + 1,
    second: (analysis.indexes[j] as number) + 1,
    a: short(a),
    b: short(b),
    value: formatNumber(value, VALUE),
  });
  return { value, text };
}

/**
 * The cosine similarity of every pair as a heatmap, in input order or ordered so that similar
 * inputs sit together, its rows and columns numbered as the vectors table numbers the inputs.
 * Pointing at a cell, or moving over it with the arrow keys, says its value. The colours are the
 * theme's (`--color-heat-*`): unrelated pairs are pale in the light theme, dark in the dark one.
 */
export function SimilarityHeatmap({
  run,
  analysis,
  caption,
}: {
  run: Pick<EmbeddingRun, 'items'>;
  analysis: ShownAnalysis;
  /** The words under the picture where it is shown outside the playground (the X-ray). */
  caption?: string | undefined;
}) {
  const t = useNamespace('embeddings');
  const canvas = useRef<HTMLCanvasElement>(null);
  const [ordered, setOrdered] = useState(true);
  const [cell, setCell] = useState<Cell | undefined>();
  const [tip, setTip] = useState<{ x: number; y: number } | undefined>();
  const n = analysis.n;

  const themeKey = useThemeKey();
  const [scale, setScale] = useState<HeatScale | undefined>();
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    setScale({
      low: resolveRgb(element, '--color-heat-low'),
      mid: resolveRgb(element, '--color-heat-mid'),
      high: resolveRgb(element, '--color-heat-high'),
    });
  }, [themeKey]);

  // Positions in the shown order → indexes of the analysed inputs.
  const shown = useMemo(
    () => (ordered ? analysis.order : Array.from({ length: n }, (_, i) => i)),
    [analysis, ordered, n],
  );
  const image = useMemo(() => {
    if (!scale) return undefined;
    const size = Math.min(n, MAX_PIXELS);
    const pixels = heatmapPixels(analysis.matrix, n, shown, size, scale);
    const painted = document.createElement('canvas');
    painted.width = size;
    painted.height = size;
    painted.getContext('2d')?.putImageData(new ImageData(pixels, size, size), 0, 0);
    return painted;
  }, [analysis, shown, n, scale]);

  useEffect(() => {
    const element = canvas.current;
    if (!element || !image) return;
    const context = prepareCanvas(element, SIZE);
    if (!context) return;
    context.imageSmoothingEnabled = false;
    context.clearRect(0, 0, SIZE, SIZE);
    context.drawImage(image, 0, 0, SIZE, SIZE);
    if (cell) {
      const step = SIZE / n;
      context.strokeStyle = getComputedStyle(element).color || '#111';
      context.lineWidth = 1.5;
      context.strokeRect(cell.col * step, cell.row * step, Math.max(step, 2), Math.max(step, 2));
    }
    element.dataset.painted = 'true';
  }, [image, cell, n]);

  const numbers =
    n <= NUMBERED_UP_TO ? shown.map((i) => (analysis.indexes[i] as number) + 1) : undefined;
  const info = cell ? describe(t, cell, analysis, run, ordered) : undefined;

  const onKey = (event: KeyboardEvent<HTMLCanvasElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const from = cell ?? { row: 0, col: 0 };
    const clamp = (v: number) => Math.max(0, Math.min(n - 1, v));
    setCell(cell ? { row: clamp(from.row + move[0]), col: clamp(from.col + move[1]) } : from);
    setTip(undefined);
  };

  return (
    <section className="card embeddings-picture" aria-labelledby="heatmap-title">
      <div className="picture-header">
        <h2 className="card-title" id="heatmap-title">
          {t('embeddings.heatmap.title')}
        </h2>
        <label className="picture-option">
          <input type="checkbox" checked={ordered} onChange={(e) => setOrdered(e.target.checked)} />
          {t('embeddings.heatmap.order')}
        </label>
      </div>
      <div className="heatmap-grid">
        {numbers && (
          <>
            <div className="heatmap-cols" aria-hidden="true">
              {numbers.map((number) => (
                <span key={number} className="heatmap-number">
                  {number}
                </span>
              ))}
            </div>
            <div className="heatmap-rows" aria-hidden="true">
              {numbers.map((number) => (
                <span key={number} className="heatmap-number">
                  {number}
                </span>
              ))}
            </div>
          </>
        )}
        <div className="picture-frame">
          <canvas
            ref={canvas}
            className="picture-canvas heatmap-canvas"
            tabIndex={0}
            role="img"
            aria-label={t('embeddings.heatmap.label', {
              count: formatNumber(n),
              ordered: ordered ? 'yes' : 'no',
            })}
            aria-describedby="heatmap-value"
            onKeyDown={onKey}
            onMouseMove={(event) => {
              const { x, y } = pointerAt(event.currentTarget, event);
              const col = Math.floor((x / SIZE) * n);
              const row = Math.floor((y / SIZE) * n);
              if (row < 0 || col < 0 || row >= n || col >= n) return;
              if (row !== cell?.row || col !== cell?.col) setCell({ row, col });
              setTip({ x, y });
            }}
            onMouseLeave={() => setTip(undefined)}
          />
          {info && tip && (
            <div
              className="picture-tooltip"
              role="tooltip"
              style={{ left: tip.x + 12, top: tip.y + 12 }}
            >
              {info.text}
            </div>
          )}
        </div>
      </div>
      <p id="heatmap-value" className="picture-readout" aria-live="polite">
        {info ? info.text : t('embeddings.heatmap.hint')}
      </p>
      <p className="muted small heat-legend">
        <span>{t('embeddings.heatmap.opposite')}</span>
        <span className="heat-legend-scale" aria-hidden="true" />
        <span>{t('embeddings.heatmap.alike')}</span>
      </p>
      <p className="muted small">
        {caption ?? (
          <>
            {numbers ? `${t('embeddings.heatmap.numbered')} ` : ''}
            {t('embeddings.heatmap.middle')}
          </>
        )}
      </p>
    </section>
  );
}
