import { useEffect, useId, useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { ReadFailure } from '../../components/read-failure';
import { Spinner } from '../../components/spinner';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { useFileDrop } from '../../lib/file-drop';
import {
  addDropped,
  addSources,
  askQuestion,
  cancelIndexing,
  createBase,
  createDemoBase,
  deleteBase,
  indexBase,
  loadKnowledge,
  loadKnowledgeModels,
  selectBase,
  watchKnowledge,
} from './knowledge-actions';
import { CompareModels } from './knowledge-compare';
import { positionText } from './knowledge-format';
import { BaseTitle, ChangeModel, SourcesAndFiles } from './knowledge-manage';
import { ModelSelect } from './model-select';
import {
  useKnowledgeStore,
  type KnowledgeBaseDetail,
  type KnowledgeBase,
  type KnowledgeProgress,
} from './knowledge-store';
import './knowledge.css';

const STATUS_TEXT: Record<KnowledgeBaseDetail['status'], string> = {
  empty: 'No files yet',
  indexing: 'Indexing',
  ready: 'Ready',
  cancelled: 'Stopped',
  failed: 'Stopped by an error',
};

const number = (n: number) => n.toLocaleString('en-US');

export { positionText } from './knowledge-format';

function CreateForm({ models, first }: { models: string[]; first: boolean }) {
  const nameId = useId();
  const modelId = useId();
  const [name, setName] = useState('');
  const [model, setModel] = useState('');
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [busy, setBusy] = useState(false);
  const chosen = model || models[0] || '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await createBase(name, chosen);
      setName('');
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card knowledge-create" onSubmit={(e) => void submit(e)}>
      <h2 className="knowledge-heading">
        {first ? 'Create a knowledge base' : 'New knowledge base'}
      </h2>
      <div className="knowledge-create-fields">
        <div className="field">
          <label className="field-label" htmlFor={nameId}>
            Name
          </label>
          <input
            id={nameId}
            className="input"
            value={name}
            maxLength={120}
            placeholder="Harbour documents"
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={modelId}>
            Embeddings model
          </label>
          <ModelSelect
            id={modelId}
            models={models}
            value={chosen}
            empty="No embeddings model"
            onChange={setModel}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy || !chosen}>
          Create
        </button>
      </div>
      {failure && (
        <p className="knowledge-error" role="alert">
          {failure.message}
        </p>
      )}
    </form>
  );
}

function ProgressLine({ progress }: { progress: KnowledgeProgress }) {
  const reading = progress.phase === 'reading';
  const done = reading ? progress.files.done : progress.chunks.done;
  const total = reading ? progress.files.total : progress.chunks.total;
  const label = reading
    ? `Reading files: ${number(done)} of ${number(total)}`
    : `Embedding chunks: ${number(done)} of ${number(total)} · ${number(progress.tokens)} tokens`;
  return (
    <div className="knowledge-progress">
      <progress max={Math.max(1, total)} value={done} aria-label={label} />
      <span role="status">{label}</span>
    </div>
  );
}

function AskBox({ base }: { base: KnowledgeBaseDetail }) {
  const questionId = useId();
  const [question, setQuestion] = useState('');
  const hits = useKnowledgeStore((s) => s.hits);
  const searching = useKnowledgeStore((s) => s.searching);
  const failure = useKnowledgeStore((s) => s.searchFailure);
  const ready = base.embedded > 0;
  return (
    <section className="knowledge-ask" aria-labelledby={`${questionId}-title`}>
      <h2 className="knowledge-heading" id={`${questionId}-title`}>
        Try a question
      </h2>
      <form
        className="knowledge-ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (question.trim()) void askQuestion(base.id, question, 5);
        }}
      >
        <label className="visually-hidden" htmlFor={questionId}>
          Question
        </label>
        <input
          id={questionId}
          className="input"
          value={question}
          placeholder={ready ? 'Ask something your files answer' : 'Add files first'}
          disabled={!ready}
          onChange={(e) => setQuestion(e.target.value)}
        />
        <button type="submit" className="button" disabled={!ready || searching || !question.trim()}>
          Search
        </button>
      </form>
      {failure && (
        <Notice tone="error" title="The search did not run">
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      {hits && hits.length === 0 && <p className="muted">Nothing was found.</p>}
      {hits && hits.length > 0 && (
        <ol className="knowledge-hits" aria-label="Passages found, best first">
          {hits.map((hit) => (
            <li key={hit.chunkId} className="knowledge-hit">
              <p className="knowledge-hit-meta">
                <span className="knowledge-hit-rank">#{hit.rank}</span>
                <span className="knowledge-hit-score" title="Cosine similarity">
                  {hit.score.toFixed(3)}
                </span>
                <span className="knowledge-hit-file" title={hit.path}>
                  {hit.fileName}
                </span>
                <span className="muted">{positionText(hit.position)}</span>
              </p>
              <blockquote className="knowledge-hit-text">{hit.text}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function BaseDetail({
  base,
  bases,
  models,
  progress,
}: {
  base: KnowledgeBaseDetail;
  bases: KnowledgeBase[];
  models: string[];
  progress?: KnowledgeProgress;
}) {
  const [deleting, setDeleting] = useState(false);
  const indexing = base.status === 'indexing';
  const drop = useFileDrop((files) => void addDropped(base.id, files), !indexing);
  const refused = base.fileList.filter((f) => f.status === 'refused');
  const resumable = (base.status === 'failed' || base.status === 'cancelled') && base.chunks > 0;
  return (
    <section
      className="knowledge-detail"
      aria-label={base.name}
      data-dragging={drop.dragging || undefined}
      {...drop.dropProps}
    >
      <header className="knowledge-detail-header">
        <div>
          <BaseTitle base={base} />
          <p className="muted">
            {base.model} · {base.connectionName ?? 'a deleted connection'} ·{' '}
            <span data-testid="knowledge-status">{STATUS_TEXT[base.status]}</span>
          </p>
          <p className="muted" data-testid="knowledge-counts">
            {number(base.files)} {base.files === 1 ? 'file' : 'files'} · {number(base.embedded)} of{' '}
            {number(base.chunks)} chunks embedded · {number(base.tokens)} tokens
          </p>
        </div>
        <div className="knowledge-actions">
          <button
            type="button"
            className="button"
            disabled={indexing}
            onClick={() => void addSources(base.id, 'files')}
          >
            Add files…
          </button>
          <button
            type="button"
            className="button"
            disabled={indexing}
            onClick={() => void addSources(base.id, 'folder')}
          >
            Add folder…
          </button>
          <ChangeModel base={base} models={models} disabled={indexing} />
          {indexing ? (
            <button type="button" className="button" onClick={() => cancelIndexing(base.id)}>
              Cancel
            </button>
          ) : (
            base.sources.length > 0 && (
              <button type="button" className="button" onClick={() => void indexBase(base.id)}>
                {resumable ? 'Resume' : 'Check for changes'}
              </button>
            )
          )}
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      </header>

      {indexing && progress && <ProgressLine progress={progress} />}
      {base.error && !indexing && (
        <Notice
          tone={base.status === 'failed' ? 'error' : 'warning'}
          title={base.status === 'failed' ? 'Indexing stopped' : 'Indexing was stopped'}
        >
          <p className="failure-message">{base.error.message}</p>
          <p>What was embedded is kept: Resume sends only the rest.</p>
        </Notice>
      )}

      {refused.length > 0 && (
        <div className="knowledge-refused">
          <h3 className="knowledge-subheading">Not added ({base.refused})</h3>
          <ul aria-label="Files not added">
            {refused.map((f) => (
              <li key={f.id} title={f.path}>
                {f.message ?? `${f.name} was not added.`}
              </li>
            ))}
          </ul>
        </div>
      )}

      <SourcesAndFiles base={base} disabled={indexing} />

      <AskBox base={base} />

      {base.embedded > 0 && <CompareModels base={base} bases={bases} models={models} />}

      <ConfirmDialog
        open={deleting}
        title={`Delete “${base.name}”?`}
        confirmLabel="Delete"
        danger
        onConfirm={() => {
          setDeleting(false);
          void deleteBase(base.id);
        }}
        onCancel={() => setDeleting(false)}
      >
        <p>Its chunks and vectors are deleted. Your files are not touched.</p>
      </ConfirmDialog>
    </section>
  );
}

/** Knowledge bases: your files, embedded through the relay, searched by meaning. */
export function KnowledgeScreen() {
  const bases = useKnowledgeStore((s) => s.bases);
  const status = useKnowledgeStore((s) => s.status);
  const failure = useKnowledgeStore((s) => s.failure);
  const models = useKnowledgeStore((s) => s.models);
  const selected = useKnowledgeStore((s) => s.selected);
  const detail = useKnowledgeStore((s) => s.detail);
  const progress = useKnowledgeStore((s) => s.progress);

  useEffect(() => {
    void loadKnowledge();
    void loadKnowledgeModels();
    return watchKnowledge();
  }, []);

  return (
    <div className="page knowledge-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Knowledge</h1>
          <p className="page-lead">Search your own files by meaning.</p>
        </div>
      </header>
      <Notice tone="info" className="knowledge-privacy">
        <p>
          Your files stay on this computer. Only their text leaves it: sent to the relay to be
          embedded, and, when you use a knowledge base in a chat, the passages found for a question.
        </p>
      </Notice>

      {status === 'loading' && <Spinner label="Loading knowledge bases" />}
      {status === 'failed' && failure && (
        <ReadFailure
          title="The knowledge bases could not be read"
          message={failure.message}
          onRetry={() => void loadKnowledge()}
        />
      )}
      {status === 'ready' && bases.length === 0 && (
        <EmptyState title="No knowledge base yet">
          <p>Create one, then add files or a folder: Markdown, text, code, HTML, PDF, Word.</p>
          <button type="button" className="button" onClick={() => void createDemoBase()}>
            Try the demo knowledge base
          </button>
        </EmptyState>
      )}

      <CreateForm models={models} first={bases.length === 0} />

      {bases.length > 0 && (
        <div className="knowledge-layout">
          <ul className="knowledge-list" aria-label="Knowledge bases">
            {bases.map((base) => (
              <li key={base.id}>
                <button
                  type="button"
                  className="knowledge-list-item"
                  aria-current={base.id === selected ? 'true' : undefined}
                  onClick={() => selectBase(base.id)}
                >
                  <span className="knowledge-list-name">{base.name}</span>
                  <span className="muted">
                    {number(base.files)} files · {STATUS_TEXT[base.status]}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {detail ? (
            <BaseDetail
              base={detail}
              bases={bases}
              models={models}
              {...(progress[detail.id] ? { progress: progress[detail.id] } : {})}
            />
          ) : (
            <Spinner label="Loading" />
          )}
        </div>
      )}
    </div>
  );
}
