/**
 * Looking after a knowledge base once it exists: its name, its embeddings model (with what a
 * change would send and cost, asked first), the files and folders it reads, and its files.
 */
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatNumber } from '../../i18n/format';
import { t, useT } from '../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { formatCost, formatTokens } from '../../lib/money';
import {
  changeModel,
  estimateModel,
  removeSource,
  renameBase,
  revealFile,
} from './knowledge-actions';
import type { KnowledgeBaseDetail } from './knowledge-store';
import { ModelSelect } from './model-select';
import { KNOWLEDGE_LIMITS } from '../../../../electron/shared/limits';

/** The base's name, with Rename turning it into a field (Enter saves, Escape cancels). */
export function BaseTitle({ base }: { base: KnowledgeBaseDetail }) {
  const inputId = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(base.name);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [busy, setBusy] = useState(false);
  const t = useT();

  useEffect(() => {
    setEditing(false);
    setFailure(undefined);
  }, [base.id]);

  async function save(event?: FormEvent) {
    event?.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await renameBase(base.id, name);
      setEditing(false);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  }

  if (!editing)
    return (
      <div className="knowledge-title-row">
        <h2 className="knowledge-title">{base.name}</h2>
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            setName(base.name);
            setEditing(true);
          }}
        >
          {t('knowledge.rename')}
        </button>
      </div>
    );

  return (
    <form className="knowledge-title-row" onSubmit={(e) => void save(e)}>
      <label className="visually-hidden" htmlFor={inputId}>
        {t('knowledge.rename.label')}
      </label>
      <input
        id={inputId}
        className="input"
        value={name}
        maxLength={KNOWLEDGE_LIMITS.name}
        autoFocus
        aria-invalid={failure ? true : undefined}
        aria-describedby={failure ? `${inputId}-error` : undefined}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e: KeyboardEvent) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            setEditing(false);
            setFailure(undefined);
          }
        }}
      />
      <button type="submit" className="button button-primary button-small" disabled={busy}>
        {t('knowledge.rename.save')}
      </button>
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          setEditing(false);
          setFailure(undefined);
        }}
      >
        {t('knowledge.rename.cancel')}
      </button>
      {failure && (
        <p className="knowledge-error" role="alert" id={`${inputId}-error`}>
          {failure.message}
        </p>
      )}
    </form>
  );
}

type Estimate = Awaited<ReturnType<typeof estimateModel>>;

/** "Embeds 1,204 chunks again: about 61,000 tokens, about $0.01." */
export function estimateText(estimate: Estimate, model: string): string {
  const values = { chunks: estimate.chunks, model, tokens: formatTokens(estimate.tokens) };
  return estimate.cost === null
    ? t('knowledge.model.estimateUnpriced', values)
    : t('knowledge.model.estimate', {
        ...values,
        cost: formatCost(estimate.cost.amount, estimate.cost.currency),
      });
}

/** Change model…: pick another embeddings model, see what it sends and costs, then confirm. */
export function ChangeModel({
  base,
  models,
  disabled,
}: {
  base: KnowledgeBaseDetail;
  models: string[];
  disabled: boolean;
}) {
  const selectId = useId();
  const others = models.filter((m) => m !== base.model);
  const [open, setOpen] = useState(false);
  const [model, setModel] = useState('');
  const [estimate, setEstimate] = useState<Estimate | undefined>();
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [busy, setBusy] = useState(false);
  const chosen = model || others[0] || '';
  const t = useT();

  useEffect(() => {
    if (!open || !chosen) return;
    let current = true;
    setEstimate(undefined);
    estimateModel(base.id, chosen).then(
      (value) => current && setEstimate(value),
      (error: unknown) => current && setFailure(failureOf(error)),
    );
    return () => {
      current = false;
    };
  }, [open, chosen, base.id]);

  function close() {
    setOpen(false);
    setFailure(undefined);
    setModel('');
  }

  return (
    <>
      <button
        type="button"
        className="button"
        disabled={disabled}
        title={others.length === 0 ? t('knowledge.model.noOther.title') : undefined}
        onClick={() => setOpen(true)}
      >
        {t('knowledge.model.change')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('knowledge.model.dialog', { name: base.name })}
        confirmLabel={t('knowledge.model.confirm')}
        busy={busy || !chosen || estimate === undefined}
        onCancel={close}
        onConfirm={() => {
          setBusy(true);
          setFailure(undefined);
          changeModel(base.id, chosen).then(
            () => {
              setBusy(false);
              close();
            },
            (error: unknown) => {
              setBusy(false);
              setFailure(failureOf(error));
            },
          );
        }}
      >
        <div className="field">
          <label className="field-label" htmlFor={selectId}>
            {t('knowledge.model.new')}
          </label>
          <ModelSelect
            id={selectId}
            models={others}
            value={chosen}
            empty={t('knowledge.model.noOther')}
            onChange={(next) => {
              setFailure(undefined);
              setModel(next);
            }}
          />
        </div>
        <p data-testid="knowledge-estimate" aria-live="polite">
          {estimate ? estimateText(estimate, chosen) : chosen ? t('knowledge.model.counting') : ''}
        </p>
        <p className="muted">{t('knowledge.model.explain', { model: base.model })}</p>
        {failure && (
          <p className="knowledge-error" role="alert">
            {failure.message}
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}

/** The files and folders the base reads, each with Remove, and the files it holds. */
export function SourcesAndFiles({
  base,
  disabled,
}: {
  base: KnowledgeBaseDetail;
  disabled: boolean;
}) {
  const [removing, setRemoving] = useState<{ id: string; path: string } | undefined>();
  // The rows only while the list is open: up to 500 of them would otherwise be made, unseen,
  // each time the base is loaded again (at the end of every indexing run).
  const [filesOpen, setFilesOpen] = useState(false);
  // Main lists the first files (the detail's `fileList`); `files` counts them all.
  const listed = base.fileList.filter((f) => f.status === 'ready');
  const t = useT();
  if (base.sources.length === 0) return null;
  return (
    <div className="knowledge-sources">
      <h3 className="knowledge-subheading">{t('knowledge.sources.title')}</h3>
      <ul aria-label={t('knowledge.sources.list')}>
        {base.sources.map((source) => (
          <li key={source.path} className="knowledge-source">
            <span className="knowledge-source-kind">
              {t(source.kind === 'folder' ? 'knowledge.sources.folder' : 'knowledge.sources.file')}
            </span>
            <span className="knowledge-source-path" title={source.path}>
              {source.path}
            </span>
            {source.missing === true && (
              <span className="knowledge-source-missing">{t('knowledge.sources.missing')}</span>
            )}
            <button
              type="button"
              className="button button-small"
              disabled={disabled}
              aria-label={t('knowledge.sources.remove.label', { path: source.path })}
              onClick={() => setRemoving({ id: source.id, path: source.path })}
            >
              {t('knowledge.sources.remove')}
            </button>
          </li>
        ))}
      </ul>
      {base.files > 0 && (
        <details
          className="knowledge-files"
          onToggle={(event) => setFilesOpen(event.currentTarget.open)}
        >
          <summary>{t('knowledge.files.summary', { count: base.files })}</summary>
          {filesOpen && (
            <ul aria-label={t('knowledge.files.list')}>
              {listed.map((file) => (
                <li key={file.id} className="knowledge-file">
                  <span className="knowledge-source-path" title={file.path}>
                    {file.name}
                  </span>
                  <span className="muted">
                    {t('knowledge.files.chunks', {
                      embedded: formatNumber(file.embedded),
                      chunks: file.chunks,
                    })}
                  </span>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('knowledge.files.reveal.label', { name: file.name })}
                    onClick={() => void revealFile(base.id, file.id)}
                  >
                    {t('knowledge.files.reveal')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {filesOpen && base.files > listed.length && (
            <p className="muted">
              {t('knowledge.files.more', { count: base.files - listed.length })}
            </p>
          )}
        </details>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={t('knowledge.sources.remove.title')}
        confirmLabel={t('knowledge.sources.remove')}
        danger
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => {
          const source = removing;
          setRemoving(undefined);
          if (source !== undefined) void removeSource(base.id, source.id);
        }}
      >
        <p className="knowledge-source-path">{removing?.path}</p>
        <p>{t('knowledge.sources.remove.body')}</p>
      </ConfirmDialog>
    </div>
  );
}
