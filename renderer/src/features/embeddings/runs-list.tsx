import { formatDate, formatNumber } from '../../i18n/format';
import type { MessageKey } from '../../i18n/i18n';
import { useNamespace } from '../../i18n/use-namespace';
import { deleteRun, openRun, rerun } from './embeddings-actions';
import { useEmbeddingsStore } from './embeddings-store';

const STATUS: Record<string, MessageKey> = {
  running: 'embeddings.runs.status.running',
  done: 'embeddings.runs.status.done',
  cancelled: 'embeddings.runs.status.cancelled',
  failed: 'embeddings.runs.status.failed',
};

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : formatDate(date, { dateStyle: 'short', timeStyle: 'short' });
}

/** Saved runs, newest first: reopen one, run it again, or delete it. */
export function RunsList() {
  const t = useNamespace('embeddings');
  const runs = useEmbeddingsStore((s) => s.runs);
  const shown = useEmbeddingsStore((s) => s.run?.id);
  if (runs.length === 0) return null;
  const status = (run: (typeof runs)[number]) => {
    const key = STATUS[run.status];
    const word = key ? t(key) : run.status;
    if (run.status === 'done') return word;
    return t('embeddings.runs.partial', {
      status: word,
      done: formatNumber(run.done),
      total: formatNumber(run.total),
    });
  };
  return (
    <section className="card embeddings-runs" aria-labelledby="runs-title">
      <h2 className="card-title" id="runs-title">
        {t('embeddings.runs.title')}
      </h2>
      <ul className="runs-list">
        {runs.map((run) => (
          <li
            key={run.id}
            className="runs-item"
            aria-current={run.id === shown ? 'true' : undefined}
          >
            <div className="runs-item-text">
              <span className="runs-item-title">
                {run.firstInput || t('embeddings.runs.noText')}
              </span>
              <span className="muted small">
                {t('embeddings.runs.meta', {
                  count: run.total,
                  model: run.model,
                  when: when(run.createdAt),
                  status: status(run),
                })}
              </span>
            </div>
            <div className="runs-item-actions">
              <button
                type="button"
                className="button button-small"
                aria-label={t('embeddings.runs.openLabel', { name: run.firstInput })}
                onClick={() => void openRun(run.id)}
              >
                {t('embeddings.runs.open')}
              </button>
              <button
                type="button"
                className="button button-small"
                aria-label={t('embeddings.runs.rerunLabel', { name: run.firstInput })}
                onClick={() => void rerun(run.id, run.total)}
              >
                {t('embeddings.runs.rerun')}
              </button>
              <button
                type="button"
                className="button button-small button-quiet-danger"
                aria-label={t('embeddings.runs.deleteLabel', { name: run.firstInput })}
                onClick={() => void deleteRun(run.id)}
              >
                {t('embeddings.runs.delete')}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
