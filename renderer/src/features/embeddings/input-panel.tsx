import { useShallow } from 'zustand/react/shallow';
import { useId } from 'react';
import type { MessageKey } from '../../i18n/i18n';
import { useNamespace } from '../../i18n/use-namespace';
import { openInputsFile, startRun } from './embeddings-actions';
import { useEmbeddingsStore, type InputMode } from './embeddings-store';
import { linesOf } from './input-check';

const MODES: Array<{ id: InputMode; label: MessageKey }> = [
  { id: 'lines', label: 'embeddings.input.mode.lines' },
  { id: 'list', label: 'embeddings.input.mode.list' },
  { id: 'file', label: 'embeddings.input.mode.file' },
];

/** The texts to embed: typed one per line, edited as a list, or read from a file. */
export function InputPanel({ busy }: { busy: boolean }) {
  const t = useNamespace('embeddings');
  const id = useId();
  const { mode, linesText, listItems, file, inputError, model, starting } = useEmbeddingsStore(
    useShallow((s) => ({
      mode: s.mode,
      linesText: s.linesText,
      listItems: s.listItems,
      file: s.file,
      inputError: s.inputError,
      model: s.model,
      starting: s.starting,
    })),
  );
  const actions = useEmbeddingsStore.getState();
  const count =
    mode === 'lines'
      ? linesOf(linesText).length
      : mode === 'list'
        ? listItems.length
        : (file?.inputs.length ?? 0);
  const errorId = `${id}-error`;

  return (
    <section className="card embeddings-input" aria-labelledby={`${id}-title`}>
      <h2 className="card-title" id={`${id}-title`}>
        {t('embeddings.input.title')}
      </h2>
      <div className="segmented" role="radiogroup" aria-label={t('embeddings.input.modes')}>
        {MODES.map((m) => (
          <label key={m.id} className="segmented-option">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === m.id}
              onChange={() => actions.modeChanged(m.id)}
            />
            {t(m.label)}
          </label>
        ))}
      </div>

      {mode === 'lines' && (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-lines`}>
            {t('embeddings.input.lines')}
          </label>
          <textarea
            id={`${id}-lines`}
            className="input embeddings-lines"
            rows={8}
            value={linesText}
            placeholder={t('embeddings.input.lines.placeholder')}
            aria-invalid={inputError ? true : undefined}
            aria-describedby={inputError ? errorId : undefined}
            onChange={(e) => actions.linesEdited(e.target.value)}
          />
        </div>
      )}

      {mode === 'list' && (
        <ol className="embeddings-list" aria-label={t('embeddings.input.list')}>
          {listItems.map((item, index) => (
            <li key={index} className="embeddings-list-item">
              <input
                className="input"
                aria-label={t('embeddings.input.item', { number: index + 1 })}
                value={item}
                aria-invalid={inputError && item.trim() === '' ? true : undefined}
                onChange={(e) =>
                  actions.listEdited(listItems.map((v, i) => (i === index ? e.target.value : v)))
                }
              />
              <button
                type="button"
                className="button button-small"
                aria-label={t('embeddings.input.removeItem', { number: index + 1 })}
                disabled={listItems.length === 1}
                onClick={() => actions.listEdited(listItems.filter((_, i) => i !== index))}
              >
                {t('embeddings.input.remove')}
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="button button-small"
              onClick={() => actions.listEdited([...listItems, ''])}
            >
              {t('embeddings.input.add')}
            </button>
          </li>
        </ol>
      )}

      {mode === 'file' && (
        <div className="embeddings-file">
          <button type="button" className="button" onClick={() => void openInputsFile()}>
            {t('embeddings.input.openFile')}
          </button>
          {file && (
            <p className="muted" role="status">
              {t('embeddings.input.file', { fileName: file.fileName, count: file.inputs.length })}
              {file.skippedEmpty > 0 &&
                ` ${t('embeddings.input.file.skipped', { count: file.skippedEmpty })}`}
            </p>
          )}
        </div>
      )}

      {inputError && (
        <p className="field-error" id={errorId} role="alert">
          {inputError}
        </p>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy || starting || !model}
          onClick={() => void startRun()}
        >
          {t('embeddings.input.embed', { count })}
        </button>
      </div>
    </section>
  );
}
