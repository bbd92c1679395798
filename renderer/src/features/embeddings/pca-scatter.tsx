import { useEffect, useMemo, useRef, useState } from 'react';
import { pointerAt, prepareCanvas } from './canvas-size';
import type { EmbeddingRun, ShownAnalysis } from './embeddings-store';

const SIZE = 420;
const PAD = 24;
/** Up to this many inputs, every point carries its text; above, only the one pointed at. */
const LABEL_ALL_UP_TO = 40;

/** Every input placed by its first two principal components, labelled with its text. */
export function PcaScatter({ run, analysis }: { run: EmbeddingRun; analysis: ShownAnalysis }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hovered, setHovered] = useState<number | undefined>();
  const n = analysis.n;

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

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const context = prepareCanvas(element, SIZE);
    if (!context) return;
    const styles = getComputedStyle(element);
    const ink = styles.color || '#222';
    const accent = styles.getPropertyValue('--color-accent').trim() || '#2f6feb';
    context.clearRect(0, 0, SIZE, SIZE);
    context.fillStyle = accent;
    context.globalAlpha = n > 500 ? 0.6 : 0.9;
    context.beginPath();
    const radius = n > 500 ? 2 : 4;
    for (let i = 0; i < n; i++) {
      const [x, y] = place(i);
      context.moveTo(x + radius, y);
      context.arc(x, y, radius, 0, Math.PI * 2);
    }
    context.fill();
    context.globalAlpha = 1;
    context.fillStyle = ink;
    context.font = '11px system-ui, sans-serif';
    const label = (i: number) => {
      const [x, y] = place(i);
      context.fillText(short(textOf(i)), Math.min(x + 6, SIZE - 80), Math.max(y - 6, 10));
    };
    if (n <= LABEL_ALL_UP_TO) for (let i = 0; i < n; i++) label(i);
    if (hovered !== undefined) {
      const [x, y] = place(hovered);
      context.strokeStyle = ink;
      context.beginPath();
      context.arc(x, y, radius + 3, 0, Math.PI * 2);
      context.stroke();
      if (n > LABEL_ALL_UP_TO) label(hovered);
    }
    element.dataset.painted = 'true';
  }, [analysis, hovered, place, n]); // textOf reads run and analysis

  return (
    <section className="card embeddings-picture" aria-labelledby="scatter-title">
      <h2 className="card-title" id="scatter-title">
        Map (PCA)
      </h2>
      <div className="picture-frame">
        <canvas
          ref={canvas}
          className="picture-canvas scatter-canvas"
          role="img"
          aria-label={`${n} inputs placed by their first two principal components`}
          onMouseMove={(event) => {
            const { x, y } = pointerAt(event.currentTarget, event);
            let best: number | undefined;
            let bestDistance = 12 * 12;
            for (let i = 0; i < n; i++) {
              const [px, py] = place(i);
              const distance = (px - x) ** 2 + (py - y) ** 2;
              if (distance < bestDistance) {
                bestDistance = distance;
                best = i;
              }
            }
            if (best !== hovered) setHovered(best);
          }}
          onMouseLeave={() => setHovered(undefined)}
        />
      </div>
      <p className="picture-readout" aria-live="polite">
        {hovered !== undefined
          ? `Input ${(analysis.indexes[hovered] as number) + 1}: ${textOf(hovered)}`
          : ''}
      </p>
      <p className="muted small">
        The two axes explain {Math.round(analysis.explained[0] * 100)}% and{' '}
        {Math.round(analysis.explained[1] * 100)}% of the spread.
      </p>
    </section>
  );
}
