import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { i18n, loadNamespace, useT } from '../i18n/i18n';
import {
  fillTemplate,
  missingValues,
  type PromptVariable,
} from '../../../electron/shared/prompt-template';

export interface PromptVariablesFormProps {
  /** The prompt's name, for the form's heading. */
  name: string;
  /** The prompt's text with its `{{name}}` placeholders. */
  text: string;
  variables: readonly PromptVariable[];
  /** What each variable's field is called, by its name (the name itself when not given). */
  labels?: Readonly<Record<string, string>>;
  submitLabel: string;
  /** A line under each variable's field, by its name (what an MCP prompt's argument is for). */
  hints?: Readonly<Record<string, string>>;
  /** Whether the final text is previewed (not for an MCP prompt, whose server makes the text). */
  preview?: boolean;
  /** More fields below the variables (the starter message of an assistant). */
  children?: ReactNode;
  busy?: boolean;
  onSubmit(filled: string, values: Record<string, string>): void;
  onCancel(): void;
}

/** Whether the `prompts` namespace's words are in, in the language shown. */
const promptsLoaded = () => 'prompts.variables.preview' in i18n.messages;

/**
 * The small form a prompt's variables are filled in before it is used: one field a variable
 * (its default filled in, the required ones marked), a live preview of the final text, and the
 * empty required fields named on submit. Enter in a field submits, Escape cancels.
 *
 * Its words are the `prompts` namespace's. The Prompts screen has loaded them; elsewhere (the
 * chat's `/` snippets) the form loads them itself and shows once they are in.
 */
export function PromptVariablesForm(props: PromptVariablesFormProps) {
  const [ready, setReady] = useState(promptsLoaded);
  useEffect(() => {
    if (ready) return;
    let current = true;
    loadNamespace('prompts').then(
      () => current && setReady(true),
      () => current && setReady(true),
    );
    return () => {
      current = false;
    };
  }, [ready]);
  return ready ? <VariablesForm {...props} /> : null;
}

function VariablesForm({
  name,
  text,
  variables,
  labels,
  hints,
  preview: showPreview = true,
  submitLabel,
  children,
  busy,
  onSubmit,
  onCancel,
}: PromptVariablesFormProps) {
  const id = useId();
  const t = useT();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(variables.map((v) => [v.name, v.defaultValue])),
  );
  const [missing, setMissing] = useState<string[]>([]);
  const first = useRef<HTMLInputElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    (first.current ?? submitButton.current)?.focus();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const empty = missingValues(variables, values);
    setMissing(empty);
    if (empty.length > 0) {
      document.getElementById(`${id}-${empty[0]}`)?.focus();
      return;
    }
    onSubmit(fillTemplate(text, values), values);
  }

  const preview = fillTemplate(text, values);
  return (
    <form
      className="prompt-variables"
      aria-labelledby={`${id}-title`}
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <h3 className="prompt-variables-title" id={`${id}-title`}>
        {name}
      </h3>
      {variables.length > 0 && (
        <div className="prompt-variables-fields">
          {variables.map((variable, index) => {
            const fieldId = `${id}-${variable.name}`;
            const isMissing = missing.includes(variable.name);
            return (
              <div className="field" key={variable.name}>
                <label className="field-label" htmlFor={fieldId}>
                  {labels?.[variable.name] ?? variable.name}
                  {variable.required ? (
                    <span className="prompt-variables-required">
                      {' '}
                      {t('prompts.variables.required')}
                    </span>
                  ) : (
                    <span className="muted"> {t('prompts.variables.optional')}</span>
                  )}
                </label>
                <input
                  id={fieldId}
                  ref={index === 0 ? first : undefined}
                  className="input"
                  value={values[variable.name] ?? ''}
                  aria-invalid={isMissing ? true : undefined}
                  aria-describedby={
                    [isMissing && `${fieldId}-error`, hints?.[variable.name] && `${fieldId}-hint`]
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  onChange={(event) => {
                    const value = event.target.value;
                    setValues((old) => ({ ...old, [variable.name]: value }));
                    if (isMissing && value.trim() !== '')
                      setMissing((old) => old.filter((n) => n !== variable.name));
                  }}
                />
                {hints?.[variable.name] && (
                  <p className="field-hint muted" id={`${fieldId}-hint`}>
                    {hints[variable.name]}
                  </p>
                )}
                {isMissing && (
                  <p className="field-error" id={`${fieldId}-error`}>
                    {t('prompts.variables.missing', {
                      name: labels?.[variable.name] ?? variable.name,
                    })}
                  </p>
                )}
              </div>
            );
          })}
        </div>
      )}
      {children}
      {showPreview && (
        <div className="prompt-variables-preview">
          <p className="field-label" id={`${id}-preview`}>
            {t('prompts.variables.preview')}
          </p>
          <pre className="prompt-variables-text" aria-labelledby={`${id}-preview`} tabIndex={0}>
            {preview}
          </pre>
        </div>
      )}
      <div className="prompt-variables-actions">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          {t('prompts.variables.cancel')}
        </button>
        <button type="submit" className="button button-primary" ref={submitButton} disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
