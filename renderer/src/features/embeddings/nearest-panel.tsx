import { useId, useState } from 'react';
import { Notice } from '../../components/notice';
import { findNearest } from './embeddings-actions';
import { useEmbeddingsStore } from './embeddings-store';

/** "Nearest to…": a query text, embedded with the run's model, ranked against the set. */
export function NearestPanel() {
  const id = useId();
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const nearest = useEmbeddingsStore((s) => s.nearest);
  const failure = useEmbeddingsStore((s) => s.nearestFailure);
  return (
    <section className="card embeddings-nearest" aria-labelledby={`${id}-title`}>
      <h2 className="card-title" id={`${id}-title`}>
        Nearest to…
      </h2>
      <form
        className="field-row"
        onSubmit={(event) => {
          event.preventDefault();
          setBusy(true);
          void findNearest(query).finally(() => setBusy(false));
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-query`}>
          Text to compare with the set
        </label>
        <input
          id={`${id}-query`}
          className="input"
          value={query}
          placeholder="a text to compare with the set"
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="submit" className="button" disabled={busy}>
          Rank
        </button>
      </form>
      {failure && (
        <Notice tone="error" title="The query could not be ranked">
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      {nearest && (
        <ol className="nearest-list" aria-label={`Nearest to ${nearest.query}`}>
          {nearest.ranked.map((entry) => (
            <li key={entry.index}>
              <span className="nearest-score">{entry.score.toFixed(3)}</span>
              <span className="nearest-text">{entry.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
