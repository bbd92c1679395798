import { useId, useRef, useState, type FormEvent } from 'react';
import { useT } from '../i18n/i18n';

export interface KeyEntryProps {
  /** The label of the key field. */
  label: string;
  submitLabel: string;
  /** Receives the typed key once; the field is emptied as soon as it is handed over. */
  onSubmit(key: string): Promise<void>;
  onCancel?: () => void;
  autoFocus?: boolean;
}

/**
 * A form that takes an API key and hands it straight on.
 *
 * The field is uncontrolled: the key lives in the input only while it is typed, never in React
 * state or a store, and is cleared the moment it is submitted.
 */
export function KeyEntry({ label, submitLabel, onSubmit, onCancel, autoFocus }: KeyEntryProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [empty, setEmpty] = useState(false);
  const t = useT();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const field = input.current;
    if (!field) return;
    const key = field.value.trim();
    if (key === '') {
      setEmpty(true);
      field.focus();
      return;
    }
    field.value = '';
    setEmpty(false);
    setBusy(true);
    try {
      await onSubmit(key);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="key-entry" onSubmit={submit} noValidate>
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        <input
          ref={input}
          id={id}
          className="input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
          aria-invalid={empty ? true : undefined}
          aria-describedby={empty ? `${id}-error` : undefined}
        />
        {empty && (
          <p className="field-error" id={`${id}-error`}>
            {t('keyEntry.empty')}
          </p>
        )}
      </div>
      <div className="key-entry-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('common.saving') : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel} disabled={busy}>
            {t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
