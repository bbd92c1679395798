import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Notice } from '../../components/notice';
import { Message, useT } from '../../i18n/i18n';
import { templateVariables } from '../../../../electron/shared/prompt-template';
import { savePrompt } from './prompts-actions';
import { usePromptsStore, type PromptForm } from './prompts-store';
import { PROMPT_LIMITS } from '../../../../electron/shared/limits';

/** The fields main may name when it refuses a draft; any other refusal is said below them. */
const FIELDS = [
  'name',
  'text',
  'temperature',
  'maxTokens',
  'model',
  'icon',
  'tags',
  'starters',
  'description',
] as const;
type Field = (typeof FIELDS)[number];

/** The template's syntax, shown as it is written in every language. */
const SYNTAX = { required: '{{name}}', filled: '{{name=default}}', optional: '{{name?}}' };

/** The main-side limits, mirrored so the fields stop where main would refuse. */
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
  const t = useT();

  useEffect(() => {
    nameRef.current?.focus();
  }, [editing]);

  const errors = Object.fromEntries(
    FIELDS.map((field) => [field, failure?.param === field ? failure.message : undefined]),
  ) as Record<Field, string | undefined>;
  const otherError =
    failure && !FIELDS.some((field) => field === failure.param) ? failure.message : undefined;
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
            ? t(assistant ? 'prompts.newAssistant' : 'prompts.newSnippet')
            : t('prompts.editor.edit', { name: form.name })}
        </h2>
        <fieldset className="prompt-kind">
          <legend className="field-label">{t('prompts.editor.kind')}</legend>
          <label className="prompt-kind-option">
            <input
              type="radio"
              name="prompt-kind"
              checked={assistant}
              onChange={() => change({ kind: 'assistant' })}
            />{' '}
            {t('prompts.editor.assistant')}{' '}
            <span className="muted">{t('prompts.editor.assistant.hint')}</span>
          </label>
          <label className="prompt-kind-option">
            <input
              type="radio"
              name="prompt-kind"
              checked={!assistant}
              onChange={() => change({ kind: 'snippet' })}
            />{' '}
            {t('prompts.editor.snippet')}{' '}
            <span className="muted">{t('prompts.editor.snippet.hint')}</span>
          </label>
        </fieldset>
        <div className="prompt-editor-row">
          <TextField label={t('prompts.editor.name')} error={errors.name}>
            {(props) => (
              <input
                {...props}
                ref={nameRef}
                className="input"
                maxLength={PROMPT_LIMITS.name}
                value={form.name}
                onChange={set('name')}
              />
            )}
          </TextField>
          <TextField
            label={t('prompts.editor.icon')}
            hint={t('prompts.editor.icon.hint')}
            error={errors.icon}
          >
            {(props) => (
              <input
                {...props}
                className="input prompt-icon-input"
                maxLength={PROMPT_LIMITS.icon}
                value={form.icon}
                onChange={set('icon')}
              />
            )}
          </TextField>
        </div>
        <TextField
          label={t(assistant ? 'prompts.editor.systemPrompt' : 'prompts.editor.insertText')}
          hint={
            <>
              <Message
                id="prompts.editor.text.hint"
                values={SYNTAX}
                components={{ 0: <code />, 1: <code />, 2: <code /> }}
              />
              {variables.length > 0 &&
                ` ${t('prompts.editor.variables', {
                  names: variables.map((v) => v.name).join(t('prompts.separator')),
                })}`}
            </>
          }
          error={errors.text}
        >
          {(props) => (
            <textarea
              {...props}
              className="input prompt-text-input"
              rows={6}
              maxLength={PROMPT_LIMITS.text}
              value={form.text}
              onChange={set('text')}
            />
          )}
        </TextField>
        <div className="prompt-editor-row">
          <TextField
            label={t('prompts.editor.description')}
            hint={t('prompts.editor.optional')}
            error={errors.description}
          >
            {(props) => (
              <input
                {...props}
                className="input"
                maxLength={PROMPT_LIMITS.description}
                value={form.description}
                onChange={set('description')}
              />
            )}
          </TextField>
          <TextField
            label={t('prompts.editor.tags')}
            hint={t('prompts.editor.tags.hint')}
            error={errors.tags}
          >
            {(props) => (
              <input {...props} className="input" value={form.tags} onChange={set('tags')} />
            )}
          </TextField>
        </div>
        {assistant && (
          <>
            <div className="prompt-editor-row prompt-editor-row-3">
              <TextField
                label={t('prompts.editor.model')}
                hint={t('prompts.editor.model.hint')}
                error={errors.model}
              >
                {(props) => (
                  <input {...props} className="input" value={form.model} onChange={set('model')} />
                )}
              </TextField>
              <TextField
                label={t('prompts.editor.temperature')}
                hint={t('prompts.editor.optional')}
                error={errors.temperature}
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
              <TextField
                label={t('prompts.editor.maxTokens')}
                hint={t('prompts.editor.optional')}
                error={errors.maxTokens}
              >
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
              label={t('prompts.editor.starters')}
              hint={t('prompts.editor.starters.hint')}
              error={errors.starters}
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
          <Notice tone="error" title={t('prompts.editor.notSaved')}>
            <p className="failure-message">{otherError}</p>
          </Notice>
        )}
        <div className="prompt-editor-actions">
          <button type="button" className="button" onClick={close} disabled={saving}>
            {t('prompts.editor.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {t(saving ? 'prompts.editor.saving' : 'prompts.editor.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
