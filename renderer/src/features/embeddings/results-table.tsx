import { TableVirtuoso } from 'react-virtuoso';
import { copyVector } from './embeddings-actions';
import type { EmbeddingRun } from './embeddings-store';

const format = (value: number) =>
  Math.abs(value) < 1e-4 && value !== 0 ? value.toExponential(2) : value.toFixed(4);

/** Each input with its vector at a glance; only the rows in view are in the page. */
export function ResultsTable({ run }: { run: EmbeddingRun }) {
  return (
    <section className="card embeddings-results" aria-label="Vectors">
      <h2 className="card-title">Vectors</h2>
      <p className="muted small">
        {run.done} of {run.total} embedded with {run.model}
        {run.dimensions ? `, ${run.dimensions} dimensions` : ''}
        {run.promptTokens !== undefined ? `, ${run.promptTokens} tokens in all` : ''}.
      </p>
      <TableVirtuoso
        className="embeddings-table-scroll"
        style={{ height: Math.min(320, 36 + run.items.length * 34) }}
        data={run.items}
        fixedHeaderContent={() => (
          <tr>
            <th scope="col">#</th>
            <th scope="col">Text</th>
            <th scope="col">Dims</th>
            <th scope="col">Norm</th>
            <th scope="col">First values</th>
            <th scope="col">Tokens</th>
            <th scope="col">
              <span className="visually-hidden">Copy</span>
            </th>
          </tr>
        )}
        itemContent={(_, item) => (
          <>
            <td>{item.index + 1}</td>
            <td className="embeddings-text" title={item.text}>
              {item.text}
            </td>
            <td>{item.dimensions ?? '—'}</td>
            <td>{item.norm === undefined ? '—' : item.norm.toFixed(4)}</td>
            <td className="embeddings-preview">
              {item.preview ? `[${item.preview.map(format).join(', ')}, …]` : 'not embedded'}
            </td>
            <td>{item.tokens ?? '—'}</td>
            <td>
              {item.dimensions !== undefined && (
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Copy the vector of input ${item.index + 1}`}
                  onClick={() => void copyVector(run.id, item.index)}
                >
                  Copy
                </button>
              )}
            </td>
          </>
        )}
      />
    </section>
  );
}
