/**
 * Looking after a knowledge base once it exists: its name, its embeddings model (with what a
 * change would send and cost, asked first), the files and folders it reads, and its files.
 */
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
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

/** The base's name, with Rename turning it into a field (Enter saves, Escape cancels). */
export function BaseTitle({ base }: { base: KnowledgeBaseDetail }) {
  const inputId = useId();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(base.name);
  const [failure, setFailure] = useState<FailureInfo | undefined>();
  const [busy, setBusy] = useState(false);

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
          Rename
        </button>
      </div>
    );

  return (
    <form className="knowledge-title-row" onSubmit={(e) => void save(e)}>
      <label className="visually-hidden" htmlFor={inputId}>
        Name of the knowledge base
      </label>
      <input
        id={inputId}
        className="input"
        value={name}
        maxLength={120}
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
        Save
      </button>
      <button
        type="button"
        className="button button-small"
        onClick={() => {
          setEditing(false);
          setFailure(undefined);
        }}
      >
        Cancel
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
  const chunks = `${estimate.chunks.toLocaleString()} ${estimate.chunks === 1 ? 'chunk' : 'chunks'}`;
  const tokens = `about ${formatTokens(estimate.tokens)} tokens`;
  const cost =
    estimate.cost === null
      ? `cost unknown: ${model} has no price on the Models screen`
      : `about ${formatCost(estimate.cost.amount, estimate.cost.currency)}`;
  return `Embeds ${chunks} again with ${model}: ${tokens}, ${cost}.`;
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
        title={others.length === 0 ? 'The relay offers no other embeddings model' : undefined}
        onClick={() => setOpen(true)}
      >
        Change model…
      </button>
      <ConfirmDialog
        open={open}
        title={`Change the model of “${base.name}”`}
        confirmLabel="Embed again"
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
            New embeddings model
          </label>
          <ModelSelect
            id={selectId}
            models={others}
            value={chosen}
            empty="No other embeddings model"
            onChange={(next) => {
              setFailure(undefined);
              setModel(next);
            }}
          />
        </div>
        <p data-testid="knowledge-estimate" aria-live="polite">
          {estimate ? estimateText(estimate, chosen) : chosen ? 'Counting what it sends…' : ''}
        </p>
        <p className="muted">
          Now: {base.model}. The files are not read again; every chunk is sent to the relay to be
          embedded with the new model, and the vectors of {base.model} are replaced.
        </p>
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
  const [removing, setRemoving] = useState<string | undefined>();
  // The rows only while the list is open: up to 500 of them would otherwise be made, unseen,
  // each time the base is loaded again (at the end of every indexing run).
  const [filesOpen, setFilesOpen] = useState(false);
  // Main lists the first files (the detail's `fileList`); `files` counts them all.
  const listed = base.fileList.filter((f) => f.status === 'ready');
  if (base.sources.length === 0) return null;
  return (
    <div className="knowledge-sources">
      <h3 className="knowledge-subheading">Reads from</h3>
      <ul aria-label="Files and folders it reads">
        {base.sources.map((source) => (
          <li key={source.path} className="knowledge-source">
            <span className="knowledge-source-kind">
              {source.kind === 'folder' ? 'Folder' : 'File'}
            </span>
            <span className="knowledge-source-path" title={source.path}>
              {source.path}
            </span>
            <button
              type="button"
              className="button button-small"
              disabled={disabled}
              aria-label={`Remove ${source.path}`}
              onClick={() => setRemoving(source.path)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {base.files > 0 && (
        <details
          className="knowledge-files"
          onToggle={(event) => setFilesOpen(event.currentTarget.open)}
        >
          <summary>
            {base.files.toLocaleString()} {base.files === 1 ? 'file' : 'files'} in it
          </summary>
          {filesOpen && (
            <ul aria-label="Files in the knowledge base">
              {listed.map((file) => (
                <li key={file.id} className="knowledge-file">
                  <span className="knowledge-source-path" title={file.path}>
                    {file.name}
                  </span>
                  <span className="muted">
                    {file.embedded.toLocaleString()} of {file.chunks.toLocaleString()} chunks
                  </span>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Show ${file.name} in its folder`}
                    onClick={() => void revealFile(base.id, file.id)}
                  >
                    Show in folder
                  </button>
                </li>
              ))}
            </ul>
          )}
          {filesOpen && base.files > listed.length && (
            <p className="muted">and {(base.files - listed.length).toLocaleString()} more.</p>
          )}
        </details>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title="Stop reading this?"
        confirmLabel="Remove"
        danger
        onCancel={() => setRemoving(undefined)}
        onConfirm={() => {
          const path = removing;
          setRemoving(undefined);
          if (path !== undefined) void removeSource(base.id, path);
        }}
      >
        <p className="knowledge-source-path">{removing}</p>
        <p>Its chunks and vectors leave the knowledge base. The files stay on disk.</p>
      </ConfirmDialog>
    </div>
  );
}
