import { useId, useState } from 'react';
import { Notice } from '../../components/notice';
import { formatNumber } from '../../i18n/format';
import { useNamespace } from '../../i18n/use-namespace';
import { findNearest } from './embeddings-actions';
import { useEmbeddingsStore } from './embeddings-store';

/** "Nearest to…": a query text, embedded with the run's model, ranked against the set. */
export function NearestPanel() {
  const t = useNamespace('embeddings');
  const id = useId();
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const nearest = useEmbeddingsStore((s) => s.nearest);
  const failure = useEmbeddingsStore((s) => s.nearestFailure);
  return (
    <section className="card embeddings-nearest" aria-labelledby={`${id}-title`}>
      <h2 className="card-title" id={`${id}-title`}>
        {t('embeddings.nearest.title')}
      </h2>
      <form
        className="field-row embeddings-nearest-form"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          void findNearest(query).finally(() => setBusy(false));
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-query`}>
          {t('embeddings.nearest.queryLabel')}
        </label>
        <input
          id={`${id}-query`}
          className="input"
          value={query}
          placeholder={t('embeddings.nearest.placeholder')}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" className="button" disabled={busy}>
          {t('embeddings.nearest.rank')}
        </button>
      </form>
      {failure && (
        <Notice tone="error" title={t('embeddings.nearest.failed')}>
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      {nearest && (
        <ol
          className="nearest-list"
          aria-label={t('embeddings.nearest.list', { query: nearest.query })}
        >
          {nearest.ranked.map((entry) => (
            <li key={entry.index}>
              <span className="nearest-score">
                {formatNumber(entry.score, { minimumFractionDigits: 3, maximumFractionDigits: 3 })}
              </span>
              <span className="nearest-text">{entry.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
