import { deleteRun, openRun, rerun } from './embeddings-actions';
import { useEmbeddingsStore } from './embeddings-store';

const STATUS: Record<string, string> = {
  running: 'running',
  done: 'done',
  cancelled: 'cancelled',
  failed: 'stopped by an error',
};

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

/** Saved runs, newest first: reopen one, run it again, or delete it. */
export function RunsList() {
  const runs = useEmbeddingsStore((s) => s.runs);
  const shown = useEmbeddingsStore((s) => s.run?.id);
  if (runs.length === 0) return null;
  return (
    <section className="card embeddings-runs" aria-labelledby="runs-title">
      <h2 className="card-title" id="runs-title">
        Saved runs
      </h2>
      <ul className="runs-list">
        {runs.map((run) => (
          <li
            key={run.id}
            className="runs-item"
            aria-current={run.id === shown ? 'true' : undefined}
          >
            <div className="runs-item-text">
              <span className="runs-item-title">{run.firstInput || '(no text)'}</span>
              <span className="muted small">
                {run.total} {run.total === 1 ? 'text' : 'texts'} · {run.model} ·{' '}
                {when(run.createdAt)} · {STATUS[run.status] ?? run.status}
                {run.status !== 'done' && ` (${run.done} of ${run.total})`}
              </span>
            </div>
            <div className="runs-item-actions">
              <button
                type="button"
                className="button button-small"
                aria-label={`Open the run “${run.firstInput}”`}
                onClick={() => void openRun(run.id)}
              >
                Open
              </button>
              <button
                type="button"
                className="button button-small"
                aria-label={`Re-run “${run.firstInput}”`}
                onClick={() => void rerun(run.id, run.total)}
              >
                Re-run
              </button>
              <button
                type="button"
                className="button button-small button-quiet-danger"
                aria-label={`Delete the run “${run.firstInput}”`}
                onClick={() => void deleteRun(run.id)}
              >
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
