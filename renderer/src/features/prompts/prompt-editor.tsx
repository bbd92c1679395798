import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Notice } from '../../components/notice';
import { templateVariables } from '../../../../electron/shared/prompt-template';
import { savePrompt } from './prompts-actions';
import { usePromptsStore, type PromptForm } from './prompts-store';

/** The main-side limits, mirrored so the fields stop where main would refuse. */
const LIMITS = { name: 120, icon: 16, description: 1000, text: 100_000 } as const;

function TextField({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  children: (props: {
    id: string;
    'aria-describedby'?: string;
    'aria-invalid'?: true;
  }) => ReactNode;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(error ? { 'aria-invalid': true as const } : {}),
      })}
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The editor of one prompt: every field, the variables it found, and main's refusal by field. */
export function PromptEditor() {
  const editing = usePromptsStore((s) => s.editing);
  const form = usePromptsStore((s) => s.form);
  const failure = usePromptsStore((s) => s.saveFailure);
  const saving = usePromptsStore((s) => s.saving);
  const change = usePromptsStore((s) => s.formChanged);
  const close = usePromptsStore((s) => s.editClosed);
  const nameRef = useRef<HTMLInputElement>(null);
  const titleId = useId();

  useEffect(() => {
    nameRef.current?.focus();
  }, [editing]);

  const errorFor = (field: string) => (failure?.param === field ? failure.message : undefined);
  const otherError =
    failure &&
    ![
      'name',
      'text',
      'temperature',
      'maxTokens',
      'model',
      'icon',
      'tags',
      'starters',
      'description',
    ].includes(failure.param ?? '')
      ? failure.message
      : undefined;
  const assistant = form.kind === 'assistant';
  const variables = templateVariables(form.text);
  const set = (field: keyof PromptForm) => (event: { target: { value: string } }) =>
    change({ [field]: event.target.value });

  return (
    <section className="prompt-editor" aria-labelledby={titleId}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void savePrompt();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            close();
          }
        }}
      >
        <h2 className="prompt-editor-title" id={titleId}>
          {editing === 'new'
            ? assistant
              ? 'New assistant'
              : 'New snippet'
            : `Edit “${form.name}”`}
        </h2>
        <fieldset className="prompt-kind">
          <legend className="field-label">Kind</legend>
          <label className="prompt-kind-option">
            <input
              type="radio"
              name="prompt-kind"
              checked={assistant}
              onChange={() => change({ kind: 'assistant' })}
            />{' '}
            Assistant <span className="muted">(starts a chat with this system prompt)</span>
          </label>
          <label className="prompt-kind-option">
            <input
              type="radio"
              name="prompt-kind"
              checked={!assistant}
              onChange={() => change({ kind: 'snippet' })}
            />{' '}
            Snippet <span className="muted">(inserted in the message box with /)</span>
          </label>
        </fieldset>
        <div className="prompt-editor-row">
          <TextField label="Name" error={errorFor('name')}>
            {(props) => (
              <input
                {...props}
                ref={nameRef}
                className="input"
                maxLength={LIMITS.name}
                value={form.name}
                onChange={set('name')}
              />
            )}
          </TextField>
          <TextField label="Icon" hint="An emoji or a letter, optional." error={errorFor('icon')}>
            {(props) => (
              <input
                {...props}
                className="input prompt-icon-input"
                maxLength={LIMITS.icon}
                value={form.icon}
                onChange={set('icon')}
              />
            )}
          </TextField>
        </div>
        <TextField
          label={assistant ? 'System prompt' : 'Text to insert'}
          hint={
            <>
              Write <code>{'{{name}}'}</code> for a value asked for each time,{' '}
              <code>{'{{name=default}}'}</code> to fill one in, <code>{'{{name?}}'}</code> for an
              optional one.
              {variables.length > 0 && ` Variables: ${variables.map((v) => v.name).join(', ')}.`}
            </>
          }
          error={errorFor('text')}
        >
          {(props) => (
            <textarea
              {...props}
              className="input prompt-text-input"
              rows={6}
              maxLength={LIMITS.text}
              value={form.text}
              onChange={set('text')}
            />
          )}
        </TextField>
        <div className="prompt-editor-row">
          <TextField label="Description" hint="Optional." error={errorFor('description')}>
            {(props) => (
              <input
                {...props}
                className="input"
                maxLength={LIMITS.description}
                value={form.description}
                onChange={set('description')}
              />
            )}
          </TextField>
          <TextField label="Tags" hint="Separated by commas." error={errorFor('tags')}>
            {(props) => (
              <input {...props} className="input" value={form.tags} onChange={set('tags')} />
            )}
          </TextField>
        </div>
        {assistant && (
          <>
            <div className="prompt-editor-row prompt-editor-row-3">
              <TextField label="Model" hint="Optional: the chat's model." error={errorFor('model')}>
                {(props) => (
                  <input {...props} className="input" value={form.model} onChange={set('model')} />
                )}
              </TextField>
              <TextField
                label="Temperature (0 to 2)"
                hint="Optional."
                error={errorFor('temperature')}
              >
                {(props) => (
                  <input
                    {...props}
                    className="input"
                    inputMode="decimal"
                    value={form.temperature}
                    onChange={set('temperature')}
                  />
                )}
              </TextField>
              <TextField label="Max tokens" hint="Optional." error={errorFor('maxTokens')}>
                {(props) => (
                  <input
                    {...props}
                    className="input"
                    inputMode="numeric"
                    value={form.maxTokens}
                    onChange={set('maxTokens')}
                  />
                )}
              </TextField>
            </div>
            <TextField
              label="Starter messages"
              hint="Optional, one a line: offered as the chat's first message."
              error={errorFor('starters')}
            >
              {(props) => (
                <textarea
                  {...props}
                  className="input"
                  rows={3}
                  value={form.starters}
                  onChange={set('starters')}
                />
              )}
            </TextField>
          </>
        )}
        {otherError && (
          <Notice tone="error" title="The prompt was not saved">
            <p className="failure-message">{otherError}</p>
          </Notice>
        )}
        <div className="prompt-editor-actions">
          <button type="button" className="button" onClick={close} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </section>
  );
}
