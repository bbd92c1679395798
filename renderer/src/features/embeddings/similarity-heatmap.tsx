import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { pointerAt, prepareCanvas } from './canvas-size';
import type { EmbeddingRun, ShownAnalysis } from './embeddings-store';

const SIZE = 420;

interface Cell {
  /** Positions in the shown order. */
  row: number;
  col: number;
}

function describe(cell: Cell, analysis: ShownAnalysis, run: EmbeddingRun, ordered: boolean) {
  const order = ordered ? analysis.order : null;
  const i = order ? (order[cell.row] as number) : cell.row;
  const j = order ? (order[cell.col] as number) : cell.col;
  const value = analysis.matrix[i * analysis.n + j] as number;
  const a = run.items[analysis.indexes[i] as number]?.text ?? '';
  const b = run.items[analysis.indexes[j] as number]?.text ?? '';
  const short = (t: string) => (t.length > 40 ? `${t.slice(0, 39)}…` : t);
  return { value, text: `“${short(a)}” and “${short(b)}”: ${value.toFixed(3)}` };
}

/**
 * The cosine similarity of every pair as a heatmap, in input order or ordered so that similar
 * inputs sit together. Pointing at a cell, or moving over it with the arrow keys, says its value.
 */
export function SimilarityHeatmap({
  run,
  analysis,
}: {
  run: EmbeddingRun;
  analysis: ShownAnalysis;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [ordered, setOrdered] = useState(true);
  const [cell, setCell] = useState<Cell | undefined>();
  const [tip, setTip] = useState<{ x: number; y: number } | undefined>();
  const n = analysis.n;

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const context = prepareCanvas(element, SIZE);
    if (!context) return;
    const { size, pixels } = analysis.heatmap;
    // The worker painted the ordered matrix; input order is a re-indexing of the same pixels.
    const image = document.createElement('canvas');
    image.width = size;
    image.height = size;
    const imageContext = image.getContext('2d');
    if (!imageContext) return;
    if (ordered)
      imageContext.putImageData(new ImageData(new Uint8ClampedArray(pixels), size, size), 0, 0);
    else {
      const inverse = new Int32Array(n);
      analysis.order.forEach((index, position) => (inverse[index] = position));
      const out = new Uint8ClampedArray(size * size * 4);
      const source = new Int32Array(size);
      for (let p = 0; p < size; p++) {
        const index = Math.min(n - 1, Math.floor((p * n) / size));
        source[p] = Math.min(size - 1, Math.floor(((inverse[index] as number) * size) / n));
      }
      for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) {
          const from = ((source[y] as number) * size + (source[x] as number)) * 4;
          out.set(pixels.subarray(from, from + 4), (y * size + x) * 4);
        }
      imageContext.putImageData(new ImageData(out, size, size), 0, 0);
    }
    context.imageSmoothingEnabled = false;
    context.clearRect(0, 0, SIZE, SIZE);
    context.drawImage(image, 0, 0, SIZE, SIZE);
    if (cell) {
      const step = SIZE / n;
      context.strokeStyle = '#111';
      context.lineWidth = 1;
      context.strokeRect(cell.col * step, cell.row * step, Math.max(step, 2), Math.max(step, 2));
    }
    element.dataset.painted = 'true';
  }, [analysis, ordered, cell, n]);

  const info = cell ? describe(cell, analysis, run, ordered) : undefined;

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
          Cosine similarity
        </h2>
        <label className="picture-option">
          <input type="checkbox" checked={ordered} onChange={(e) => setOrdered(e.target.checked)} />
          Order by similarity
        </label>
      </div>
      <div className="picture-frame">
        <canvas
          ref={canvas}
          className="picture-canvas heatmap-canvas"
          tabIndex={0}
          role="img"
          aria-label={`Similarity of ${n} inputs to each other, ${ordered ? 'ordered by similarity' : 'in input order'}. Use the arrow keys to read pairs.`}
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
      <p id="heatmap-value" className="picture-readout" aria-live="polite">
        {info
          ? info.text
          : 'Point at a cell, or focus the picture and use the arrow keys, to read a pair.'}
      </p>
      <p className="muted small">Red: alike (1). Pale: unrelated (0). Blue: opposite (−1).</p>
    </section>
  );
}
