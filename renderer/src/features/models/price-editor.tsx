import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { Message, useT } from '../../i18n/i18n';
import { failureOf } from '../../lib/errors';
import { formatPrice } from '../../lib/money';
import type { ModelPrice } from '../../lib/relay-bridge';
import { readPriceFields } from './price-fields';

export interface ModelPriceProps {
  modelId: string;
  price: ModelPrice | undefined;
  currency: string;
  onSave(price: ModelPrice | null): Promise<void>;
}

/** A model's price on its row: a button showing it (or "Set price") that opens a small form. */
export function ModelPriceControl({ modelId, price, currency, onSave }: ModelPriceProps) {
  const [editing, setEditing] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const t = useT();
  const close = () => {
    setEditing(false);
    requestAnimationFrame(() => toggle.current?.focus());
  };
  return (
    <>
      <button
        ref={toggle}
        type="button"
        className={price ? 'model-price' : 'model-price model-price-unset'}
        aria-expanded={editing}
        onClick={() => setEditing((open) => !open)}
      >
        {price ? (
          <>
            <span className="visually-hidden">{t('models.price.of', { model: modelId })} </span>
            <span>
              {t('models.price.in', { price: formatPrice(price.inputPerMillion, currency) })}
            </span>{' '}
            <span>
              {t('models.price.out', { price: formatPrice(price.outputPerMillion, currency) })}
            </span>{' '}
            <span className="model-price-unit">{t('models.price.unit')}</span>
          </>
        ) : (
          <Message
            id="models.price.set"
            values={{ model: modelId }}
            components={{ 0: <span className="visually-hidden" /> }}
          />
        )}
      </button>
      {editing && (
        <PriceForm
          modelId={modelId}
          price={price}
          currency={currency}
          onSave={onSave}
          onClose={close}
        />
      )}
    </>
  );
}

function PriceForm({
  modelId,
  price,
  currency,
  onSave,
  onClose,
}: ModelPriceProps & { onClose(): void }) {
  const id = useId();
  const [input, setInput] = useState(price ? String(price.inputPerMillion) : '');
  const [output, setOutput] = useState(price ? String(price.outputPerMillion) : '');
  const [errors, setErrors] = useState<{ input?: string; output?: string }>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const outputRef = useRef<HTMLInputElement>(null);
  const t = useT();
  useEffect(() => inputRef.current?.focus(), []);

  async function save(next: ModelPrice | null) {
    setSaving(true);
    setFailure(undefined);
    try {
      await onSave(next);
      onClose();
    } catch (error) {
      setFailure(failureOf(error).message);
    } finally {
      setSaving(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const read = readPriceFields(input, output);
    if (!read.ok) {
      setErrors(read.errors);
      (read.errors.input ? inputRef : outputRef).current?.focus();
      return;
    }
    setErrors({});
    void save(read.price);
  }

  const field = (
    which: 'input' | 'output',
    label: string,
    value: string,
    set: (v: string) => void,
    ref: RefObject<HTMLInputElement | null>,
  ) => {
    const error = errors[which];
    return (
      <div className="field price-field">
        <label className="field-label" htmlFor={`${id}-${which}`}>
          {label}
        </label>
        <div className="price-input">
          <input
            ref={ref}
            id={`${id}-${which}`}
            className="input"
            inputMode="decimal"
            autoComplete="off"
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-${which}-error` : `${id}-unit`}
            onChange={(event) => set(event.target.value)}
          />
          <span className="price-currency" aria-hidden="true">
            {currency}
          </span>
        </div>
        {error && (
          <p className="field-error" id={`${id}-${which}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  };

  const inputField = field('input', t('models.price.input'), input, setInput, inputRef);
  const outputField = field('output', t('models.price.output'), output, setOutput, outputRef);

  return (
    <form
      className="price-form"
      aria-label={t('models.price.form', { model: modelId })}
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      {inputField}
      {outputField}
      <p className="field-hint price-unit" id={`${id}-unit`}>
        {t('models.price.hint', { currency })}
      </p>
      {failure && (
        <p className="field-error price-failure" role="alert">
          {failure}
        </p>
      )}
      <div className="price-actions">
        <button type="submit" className="button button-primary button-small" disabled={saving}>
          {t('models.price.save')}
        </button>
        {price && (
          <button
            type="button"
            className="button button-small"
            disabled={saving}
            onClick={() => void save(null)}
          >
            {t('models.price.remove')}
          </button>
        )}
        <button type="button" className="button button-small" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
