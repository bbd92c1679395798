import { useState } from 'react';
import { TableVirtuoso } from 'react-virtuoso';
import { formatNumber } from '../../i18n/format';
import { useNamespace } from '../../i18n/use-namespace';
import { copyVector } from './embeddings-actions';
import type { EmbeddingRun } from './embeddings-store';

/** A vector's values are data, written as the exported JSON writes them (`0.0123`, `1.5e-5`). */
const format = (value: number) =>
  Math.abs(value) < 1e-4 && value !== 0 ? value.toExponential(2) : value.toFixed(4);

const NORM = { minimumFractionDigits: 4, maximumFractionDigits: 4 };

/**
 * About a row's height, until Virtuoso has measured them; the header's (two lines) and the
 * sideways scrollbar's room.
 */
const ROW = 34;
const HEADER = 48;
const SCROLLBAR = 12;

/**
 * The box's height: every row when they fit, else as much as the window allows (two thirds of
 * its height, never under 320 px), the rest reached by its scrollbar.
 */
export function tableHeight(rowsHeight: number): string {
  return `min(${HEADER + SCROLLBAR + Math.ceil(rowsHeight)}px, max(320px, 66vh))`;
}

/** Each input with its vector at a glance; only the rows in view are in the page. */
export function ResultsTable({ run }: { run: EmbeddingRun }) {
  const t = useNamespace('embeddings');
  const [rowsHeight, setRowsHeight] = useState<number>();
  return (
    <section className="card embeddings-results" aria-label={t('embeddings.results.title')}>
      <h2 className="card-title">{t('embeddings.results.title')}</h2>
      <p className="muted small">
        {t('embeddings.results.summary', {
          done: formatNumber(run.done),
          total: formatNumber(run.total),
          model: run.model,
          dimensions: run.dimensions ? formatNumber(run.dimensions) : 'none',
          tokens: run.promptTokens !== undefined ? formatNumber(run.promptTokens) : 'none',
        })}
      </p>
      <TableVirtuoso
        className="embeddings-table-scroll"
        style={{ height: tableHeight(rowsHeight ?? run.items.length * ROW) }}
        totalListHeightChanged={setRowsHeight}
        data={run.items}
        fixedHeaderContent={() => (
          <tr>
            <th scope="col" className="embeddings-col-index">
              {t('embeddings.results.index')}
            </th>
            <th scope="col">{t('embeddings.results.text')}</th>
            <th scope="col" className="embeddings-col-number">
              {t('embeddings.results.dims')}
            </th>
            <th scope="col" className="embeddings-col-norm">
              {t('embeddings.results.norm')}
            </th>
            <th scope="col" className="embeddings-col-number">
              {t('embeddings.results.tokens')}
            </th>
            <th scope="col">{t('embeddings.results.preview')}</th>
            <th scope="col" className="embeddings-col-copy">
              <span className="visually-hidden">{t('embeddings.results.copyColumn')}</span>
            </th>
          </tr>
        )}
        itemContent={(_, item) => (
          <>
            <td>{item.index + 1}</td>
            <td className="embeddings-text" title={item.text}>
              {item.text}
            </td>
            <td>{item.dimensions === undefined ? '—' : formatNumber(item.dimensions)}</td>
            <td>{item.norm === undefined ? '—' : formatNumber(item.norm, NORM)}</td>
            <td>{item.tokens === undefined ? '—' : formatNumber(item.tokens)}</td>
            <td className="embeddings-preview">
              {item.preview
                ? `[${item.preview.map(format).join(', ')}, …]`
                : t('embeddings.results.notEmbedded')}
            </td>
            <td>
              {item.dimensions !== undefined && (
                <button
                  type="button"
                  className="button button-small"
                  aria-label={t('embeddings.results.copyLabel', { number: item.index + 1 })}
                  onClick={() => void copyVector(run.id, item.index)}
                >
                  {t('embeddings.results.copy')}
                </button>
              )}
            </td>
          </>
        )}
      />
    </section>
  );
}
