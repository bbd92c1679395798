import { useEffect, useId, useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { ReadFailure } from '../../components/read-failure';
import { Spinner } from '../../components/spinner';
import { useT, type MessageKey } from '../../i18n/i18n';
import { formatNumber } from '../../i18n/format';
import { failureOf, useMainMessageText, type FailureInfo } from '../../lib/errors';
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
import { formatScore, positionText } from './knowledge-format';
import { BaseTitle, ChangeModel, SourcesAndFiles } from './knowledge-manage';
import { ModelSelect } from './model-select';
import {
  useKnowledgeStore,
  type KnowledgeBaseDetail,
  type KnowledgeBase,
  type KnowledgeProgress,
} from './knowledge-store';
import './knowledge.css';
import { KNOWLEDGE_LIMITS } from '../../../../electron/shared/limits';

const STATUS_TEXT: Record<KnowledgeBaseDetail['status'], MessageKey> = {
  empty: 'knowledge.status.empty',
  indexing: 'knowledge.status.indexing',
  ready: 'knowledge.status.ready',
  cancelled: 'knowledge.status.cancelled',
  failed: 'knowledge.status.failed',
};

export { positionText } from './knowledge-format';

function CreateForm({ models, first }: { models: string[]; first: boolean }) {
  const nameId = useId();
  const modelId = useId();
  const [name, setName] = useState('');
  const [model, setModel] = useState('');
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [busy, setBusy] = useState(false);
  const chosen = model || models[0] || '';
  const t = useT();

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
        {t(first ? 'knowledge.create.first' : 'knowledge.create.another')}
      </h2>
      <div className="knowledge-create-fields">
        <div className="field">
          <label className="field-label" htmlFor={nameId}>
            {t('knowledge.create.name')}
          </label>
          <input
            id={nameId}
            className="input"
            value={name}
            maxLength={KNOWLEDGE_LIMITS.name}
            placeholder={t('knowledge.create.name.placeholder')}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label className="field-label" htmlFor={modelId}>
            {t('knowledge.create.model')}
          </label>
          <ModelSelect
            id={modelId}
            models={models}
            value={chosen}
            empty={t('knowledge.model.none')}
            onChange={setModel}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy || !chosen}>
          {t('knowledge.create.submit')}
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
  const t = useT();
  const label = reading
    ? t('knowledge.progress.reading', { done: formatNumber(done), total: formatNumber(total) })
    : t('knowledge.progress.embedding', {
        done: formatNumber(done),
        total: formatNumber(total),
        tokens: progress.tokens,
      });
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
  const t = useT();
  return (
    <section className="knowledge-ask" aria-labelledby={`${questionId}-title`}>
      <h2 className="knowledge-heading" id={`${questionId}-title`}>
        {t('knowledge.ask.title')}
      </h2>
      <form
        className="knowledge-ask-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (question.trim()) void askQuestion(base.id, question, 5);
        }}
      >
        <label className="visually-hidden" htmlFor={questionId}>
          {t('knowledge.ask.question')}
        </label>
        <input
          id={questionId}
          className="input"
          value={question}
          placeholder={t(ready ? 'knowledge.ask.placeholder' : 'knowledge.ask.placeholderEmpty')}
          disabled={!ready}
          onChange={(e) => setQuestion(e.target.value)}
        />
        <button type="submit" className="button" disabled={!ready || searching || !question.trim()}>
          {t('knowledge.ask.submit')}
        </button>
      </form>
      {failure && (
        <Notice tone="error" title={t('knowledge.ask.failed')}>
          <p className="failure-message">{failure.message}</p>
        </Notice>
      )}
      {hits && hits.length === 0 && <p className="muted">{t('knowledge.ask.nothing')}</p>}
      {hits && hits.length > 0 && (
        <ol className="knowledge-hits" aria-label={t('knowledge.ask.hits')}>
          {hits.map((hit) => (
            <li key={hit.chunkId} className="knowledge-hit">
              <p className="knowledge-hit-meta">
                <span className="knowledge-hit-rank">#{hit.rank}</span>
                <span className="knowledge-hit-score" title={t('knowledge.score.title')}>
                  {formatScore(hit.score)}
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
  const t = useT();
  const mainText = useMainMessageText();
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
            {base.model} · {base.connectionName ?? t('knowledge.detail.deletedConnection')} ·{' '}
            <span data-testid="knowledge-status">{t(STATUS_TEXT[base.status])}</span>
          </p>
          <p className="muted" data-testid="knowledge-counts">
            {t('knowledge.detail.counts', {
              files: base.files,
              embedded: formatNumber(base.embedded),
              chunks: base.chunks,
              tokens: base.tokens,
            })}
          </p>
        </div>
        <div className="knowledge-actions">
          <button
            type="button"
            className="button"
            disabled={indexing}
            onClick={() => void addSources(base.id, 'files')}
          >
            {t('knowledge.detail.addFiles')}
          </button>
          <button
            type="button"
            className="button"
            disabled={indexing}
            onClick={() => void addSources(base.id, 'folder')}
          >
            {t('knowledge.detail.addFolder')}
          </button>
          <ChangeModel base={base} models={models} disabled={indexing} />
          {indexing ? (
            <button type="button" className="button" onClick={() => cancelIndexing(base.id)}>
              {t('knowledge.detail.cancel')}
            </button>
          ) : (
            base.sources.length > 0 && (
              <button type="button" className="button" onClick={() => void indexBase(base.id)}>
                {t(resumable ? 'knowledge.detail.resume' : 'knowledge.detail.check')}
              </button>
            )
          )}
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            {t('knowledge.detail.delete')}
          </button>
        </div>
      </header>

      {indexing && progress && <ProgressLine progress={progress} />}
      {base.error && !indexing && (
        <Notice
          tone={base.status === 'failed' ? 'error' : 'warning'}
          title={t(
            base.status === 'failed' ? 'knowledge.detail.failed' : 'knowledge.detail.cancelled',
          )}
        >
          <p className="failure-message">{mainText(base.error)}</p>
          <p>{t('knowledge.detail.resumeHint')}</p>
        </Notice>
      )}

      {refused.length > 0 && (
        <div className="knowledge-refused">
          <h3 className="knowledge-subheading">
            {t('knowledge.refused.title', { count: base.refused })}
          </h3>
          <ul aria-label={t('knowledge.refused.list')}>
            {refused.map((f) => (
              <li key={f.id} title={f.path}>
                {f.message === null
                  ? t('knowledge.refused.file', { name: f.name })
                  : mainText({ ...f, message: f.message })}
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
        title={t('knowledge.delete.title', { name: base.name })}
        confirmLabel={t('knowledge.detail.delete')}
        danger
        onConfirm={() => {
          setDeleting(false);
          void deleteBase(base.id);
        }}
        onCancel={() => setDeleting(false)}
      >
        <p>{t('knowledge.delete.body')}</p>
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
  const t = useT();

  useEffect(() => {
    void loadKnowledge();
    void loadKnowledgeModels();
    return watchKnowledge();
  }, []);

  return (
    <div className="page knowledge-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('knowledge.title')}</h1>
          <p className="page-lead">{t('knowledge.lead')}</p>
        </div>
      </header>
      <Notice tone="info" className="knowledge-privacy">
        <p>{t('knowledge.privacy')}</p>
      </Notice>

      {status === 'loading' && <Spinner label={t('knowledge.loading')} />}
      {status === 'failed' && failure && (
        <ReadFailure
          title={t('knowledge.unreadable')}
          message={failure.message}
          onRetry={() => void loadKnowledge()}
        />
      )}
      {status === 'ready' && bases.length === 0 && (
        <EmptyState title={t('knowledge.empty.title')}>
          <p>{t('knowledge.empty.body')}</p>
          <button type="button" className="button" onClick={() => void createDemoBase()}>
            {t('knowledge.empty.demo')}
          </button>
        </EmptyState>
      )}

      <CreateForm models={models} first={bases.length === 0} />

      {bases.length > 0 && (
        <div className="knowledge-layout">
          <ul className="knowledge-list" aria-label={t('knowledge.list')}>
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
                    {t('knowledge.list.item', {
                      files: base.files,
                      status: t(STATUS_TEXT[base.status]),
                    })}
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
            <Spinner label={t('knowledge.loadingBase')} />
          )}
        </div>
      )}
    </div>
  );
}
