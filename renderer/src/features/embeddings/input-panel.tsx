import { useShallow } from 'zustand/react/shallow';
import { useId } from 'react';
import { openInputsFile, startRun } from './embeddings-actions';
import { useEmbeddingsStore, type InputMode } from './embeddings-store';
import { linesOf } from './input-check';

const MODES: Array<{ id: InputMode; label: string }> = [
  { id: 'lines', label: 'One per line' },
  { id: 'list', label: 'List' },
  { id: 'file', label: 'File' },
];

/** The texts to embed: typed one per line, edited as a list, or read from a file. */
export function InputPanel({ busy }: { busy: boolean }) {
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
        Texts
      </h2>
      <div className="segmented" role="radiogroup" aria-label="How to give the texts">
        {MODES.map((m) => (
          <label key={m.id} className="segmented-option">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === m.id}
              onChange={() => actions.modeChanged(m.id)}
            />
            {m.label}
          </label>
        ))}
      </div>

      {mode === 'lines' && (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-lines`}>
            One text per line
          </label>
          <textarea
            id={`${id}-lines`}
            className="input embeddings-lines"
            rows={8}
            value={linesText}
            placeholder={'cat\nkitten\ninvoice'}
            aria-invalid={inputError ? true : undefined}
            aria-describedby={inputError ? errorId : undefined}
            onChange={(e) => actions.linesEdited(e.target.value)}
          />
        </div>
      )}

      {mode === 'list' && (
        <ol className="embeddings-list" aria-label="Texts to embed">
          {listItems.map((item, index) => (
            <li key={index} className="embeddings-list-item">
              <input
                className="input"
                aria-label={`Item ${index + 1}`}
                value={item}
                aria-invalid={inputError && item.trim() === '' ? true : undefined}
                onChange={(e) =>
                  actions.listEdited(listItems.map((v, i) => (i === index ? e.target.value : v)))
                }
              />
              <button
                type="button"
                className="button button-small"
                aria-label={`Remove item ${index + 1}`}
                disabled={listItems.length === 1}
                onClick={() => actions.listEdited(listItems.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="button button-small"
              onClick={() => actions.listEdited([...listItems, ''])}
            >
              Add a text
            </button>
          </li>
        </ol>
      )}

      {mode === 'file' && (
        <div className="embeddings-file">
          <button type="button" className="button" onClick={() => void openInputsFile()}>
            Open a .txt or .csv file…
          </button>
          {file && (
            <p className="muted" role="status">
              {file.fileName}: {file.inputs.length} {file.inputs.length === 1 ? 'text' : 'texts'}
              {file.skippedEmpty > 0 &&
                ` (${file.skippedEmpty} blank ${file.skippedEmpty === 1 ? 'entry' : 'entries'} left out)`}
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
          Embed {count > 0 ? `${count} ${count === 1 ? 'text' : 'texts'}` : ''}
        </button>
      </div>
    </section>
  );
}
