import { ReadFailure } from '../../components/read-failure';
import { useEffect, useId, useRef, useState } from 'react';
import { Badge } from '../../components/badge';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { PromptVariablesForm } from '../../components/prompt-variables-form';
import { Spinner } from '../../components/spinner';
import { i18n, useT, type MessageKey } from '../../i18n/i18n';
import { variableLabels } from '../../lib/built-in-prompts';
import { failureOf, useMainMessageText } from '../../lib/errors';
import { showToast } from '../../lib/toasts';
import {
  deletePrompt,
  editPrompt,
  exportLibrary,
  importLibrary,
  loadPrompts,
  newPrompt,
  searchPrompts,
  setPromptHidden,
  showHiddenPrompts,
  startChatFrom,
  visiblePrompts,
  watchPrompts,
  type ImportOutcome,
} from './prompts-actions';
import { PromptEditor } from './prompt-editor';
import { usePromptsStore, type Prompt } from './prompts-store';
import './prompts.css';

/** The two lists of the library: their names, and what each says when it is empty. */
const GROUPS = {
  assistant: { title: 'prompts.assistants', none: 'prompts.assistants.none' },
  snippet: { title: 'prompts.snippets', none: 'prompts.snippets.none' },
} as const satisfies Record<string, { title: MessageKey; none: MessageKey }>;

export interface PromptsScreenProps {
  /** A chat was started from an assistant: open it, and send `starter` if one was chosen. */
  onChatStarted(conversationId: string, starter: string | undefined): void;
}

/** The mark beside a prompt's name: its icon, or the first letter of its name. */
function PromptMark({ prompt }: { prompt: Prompt }) {
  return (
    <span className="prompt-mark" aria-hidden="true">
      {prompt.icon || prompt.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The prompt library: assistants a chat starts from and snippets `/` inserts. */
export function PromptsScreen({ onChatStarted }: PromptsScreenProps) {
  const prompts = usePromptsStore((s) => s.prompts);
  const status = usePromptsStore((s) => s.status);
  const failure = usePromptsStore((s) => s.failure);
  const query = usePromptsStore((s) => s.query);
  const showHidden = usePromptsStore((s) => s.showHidden);
  const editing = usePromptsStore((s) => s.editing);
  const [deleting, setDeleting] = useState<Prompt | undefined>();
  const [starting, setStarting] = useState<Prompt | undefined>();
  const [imported, setImported] = useState<
    { ok: true; result: ImportOutcome } | { ok: false; message: string } | undefined
  >();
  const [includeBuiltIn, setIncludeBuiltIn] = useState(false);
  const t = useT();

  useEffect(() => {
    void loadPrompts();
    return watchPrompts();
  }, []);

  // Built-in prompts as shipped show in the language shown (their names sort with it).
  const shown = visiblePrompts(prompts, query, i18n.locale);
  const assistants = shown.filter((p) => p.kind === 'assistant');
  const snippets = shown.filter((p) => p.kind === 'snippet');

  async function start(prompt: Prompt, systemPrompt: string, starter: string | undefined) {
    try {
      const id = await startChatFrom(prompt, systemPrompt);
      setStarting(undefined);
      onChatStarted(id, starter);
    } catch (error) {
      showToast(failureOf(error).message, { tone: 'error' });
    }
  }

  function askToStart(prompt: Prompt) {
    if (prompt.variables.length === 0 && prompt.starters.length === 0)
      void start(prompt, prompt.text, undefined);
    else setStarting(prompt);
  }

  const list = (
    { title: titleKey, none }: (typeof GROUPS)[keyof typeof GROUPS],
    items: Prompt[],
  ) => {
    const title = t(titleKey);
    return (
      <section className="prompt-group" aria-label={title}>
        <h2 className="prompt-group-title">
          {title} <span className="muted">({items.length})</span>
        </h2>
        {items.length === 0 ? (
          <p className="muted">{query ? t('prompts.list.noMatch', { query }) : t(none)}</p>
        ) : (
          <ul className="prompt-list">
            {items.map((prompt) => (
              <li key={prompt.id} className="prompt-card" data-hidden={prompt.hidden || undefined}>
                <PromptMark prompt={prompt} />
                <div className="prompt-card-body">
                  <p className="prompt-card-name">
                    {prompt.name}
                    {prompt.builtIn && <Badge>{t('prompts.card.builtIn')}</Badge>}
                    {prompt.hidden && <Badge tone="warning">{t('prompts.card.hidden')}</Badge>}
                  </p>
                  {prompt.description && (
                    <p className="prompt-card-description muted">{prompt.description}</p>
                  )}
                  <p className="prompt-card-meta muted">
                    {[
                      prompt.variables.length > 0 &&
                        t('prompts.card.asksFor', {
                          names: Object.values(variableLabels(prompt)).join(t('prompts.separator')),
                        }),
                      prompt.model && t('prompts.card.model', { model: prompt.model }),
                      prompt.tags.length > 0 && prompt.tags.map((tag) => `#${tag}`).join(' '),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                </div>
                <div className="prompt-card-actions">
                  {prompt.kind === 'assistant' && !prompt.hidden && (
                    <button
                      type="button"
                      className="button button-small button-primary"
                      aria-label={t('prompts.card.start.label', { name: prompt.name })}
                      onClick={() => askToStart(prompt)}
                    >
                      {t('prompts.card.start')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('prompts.card.edit.label', { name: prompt.name })}
                    onClick={() => editPrompt(prompt)}
                  >
                    {t('prompts.card.edit')}
                  </button>
                  {prompt.hidden ? (
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={t('prompts.card.show.label', { name: prompt.name })}
                      onClick={() => void setPromptHidden(prompt, false)}
                    >
                      {t('prompts.card.show')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="button button-small button-quiet-danger"
                      aria-label={t(
                        prompt.builtIn ? 'prompts.card.hide.label' : 'prompts.card.delete.label',
                        { name: prompt.name },
                      )}
                      onClick={() => setDeleting(prompt)}
                    >
                      {t(prompt.builtIn ? 'prompts.card.hide' : 'prompts.card.delete')}
                    </button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  };

  return (
    <div className="page prompts-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">{t('prompts.title')}</h1>
          <p className="page-lead">{t('prompts.lead')}</p>
        </div>
        <div className="page-header-actions">
          <button type="button" className="button" onClick={() => newPrompt('snippet')}>
            {t('prompts.newSnippet')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => newPrompt('assistant')}
          >
            {t('prompts.newAssistant')}
          </button>
        </div>
      </header>

      {editing !== undefined && <PromptEditor key={editing} />}

      <div className="prompt-toolbar">
        <input
          type="search"
          className="input prompt-search"
          aria-label={t('prompts.search')}
          placeholder={t('prompts.search.placeholder')}
          value={query}
          onChange={(event) => searchPrompts(event.target.value)}
        />
        <label className="prompt-check">
          <input
            type="checkbox"
            checked={showHidden}
            onChange={(event) => showHiddenPrompts(event.target.checked)}
          />{' '}
          {t('prompts.showHidden')}
        </label>
        <span className="prompt-toolbar-gap" />
        <button
          type="button"
          className="button button-small"
          onClick={() => void importLibrary().then(setImported)}
        >
          {t('prompts.import')}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void exportLibrary(includeBuiltIn)}
        >
          {t('prompts.export')}
        </button>
        <label className="prompt-check">
          <input
            type="checkbox"
            checked={includeBuiltIn}
            onChange={(event) => setIncludeBuiltIn(event.target.checked)}
          />{' '}
          {t('prompts.export.builtIn')}
        </label>
      </div>

      {imported && (
        <ImportOutcomeNotice outcome={imported} onClose={() => setImported(undefined)} />
      )}

      {status === 'loading' && (
        <p className="muted">
          <Spinner label={t('prompts.loading.label')} /> {t('prompts.loading')}
        </p>
      )}
      {status === 'failed' && failure && (
        <ReadFailure
          title={t('prompts.unreadable')}
          message={failure.message}
          onRetry={() => void loadPrompts()}
        />
      )}
      {status === 'ready' && prompts.length === 0 && !query ? (
        <EmptyState title={t('prompts.empty.title')}>
          <p>{t('prompts.empty.body')}</p>
        </EmptyState>
      ) : (
        status === 'ready' && (
          <>
            {list(GROUPS.assistant, assistants)}
            {list(GROUPS.snippet, snippets)}
          </>
        )
      )}

      <ConfirmDialog
        open={deleting !== undefined}
        title={t(deleting?.builtIn ? 'prompts.hide.title' : 'prompts.delete.title', {
          name: deleting?.name ?? '',
        })}
        confirmLabel={t(deleting?.builtIn ? 'prompts.card.hide' : 'prompts.card.delete')}
        danger={!deleting?.builtIn}
        onConfirm={() => {
          const prompt = deleting;
          setDeleting(undefined);
          if (prompt) void deletePrompt(prompt);
        }}
        onCancel={() => setDeleting(undefined)}
      >
        <p>{t(deleting?.builtIn ? 'prompts.hide.body' : 'prompts.delete.body')}</p>
      </ConfirmDialog>

      {starting && (
        <StartDialog
          prompt={starting}
          onStart={(systemPrompt, starter) => void start(starting, systemPrompt, starter)}
          onCancel={() => setStarting(undefined)}
        />
      )}
    </div>
  );
}

function ImportOutcomeNotice({
  outcome,
  onClose,
}: {
  outcome: { ok: true; result: ImportOutcome } | { ok: false; message: string };
  onClose(): void;
}) {
  const t = useT();
  const mainText = useMainMessageText();
  const close = (
    <button type="button" className="button button-small" onClick={onClose}>
      {t('prompts.import.close')}
    </button>
  );
  if (!outcome.ok)
    return (
      <Notice tone="error" title={t('prompts.import.failed')} actions={close}>
        <p className="failure-message">{outcome.message}</p>
      </Notice>
    );
  const { result } = outcome;
  if (!result.chosen) return null;
  const parts = [
    t('prompts.import.added', { count: result.added }),
    result.duplicates > 0 && t('prompts.import.duplicates', { count: result.duplicates }),
    result.refused.length > 0 && t('prompts.import.refused', { count: result.refused.length }),
  ].filter(Boolean);
  return (
    <Notice
      tone={result.refused.length > 0 ? 'warning' : 'success'}
      title={t('prompts.import.done', { parts: parts.join(t('prompts.separator')) })}
      actions={close}
    >
      {result.refused.length > 0 && (
        <ul className="prompt-refused">
          {result.refused.map((r, i) => (
            <li key={i}>
              {t('prompts.import.refusedEntry', {
                entry: mainText({ message: r.entry, messageId: r.entryId, values: r.entryValues }),
                reason: mainText({ ...r, message: r.reason }),
              })}
            </li>
          ))}
        </ul>
      )}
    </Notice>
  );
}

/** Fills an assistant's variables and picks its first message before the chat starts. */
function StartDialog({
  prompt,
  onStart,
  onCancel,
}: {
  prompt: Prompt;
  onStart(systemPrompt: string, starter: string | undefined): void;
  onCancel(): void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [starter, setStarter] = useState<number>(-1);
  const [busy, setBusy] = useState(false);
  const groupId = useId();
  const t = useT();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog prompt-start-dialog"
      aria-label={t('prompts.start.title', { name: prompt.name })}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <PromptVariablesForm
        name={t('prompts.start.title', { name: prompt.name })}
        text={prompt.text}
        variables={prompt.variables}
        labels={variableLabels(prompt)}
        submitLabel={t('prompts.card.start')}
        busy={busy}
        onSubmit={(filled) => {
          setBusy(true);
          onStart(filled, prompt.starters[starter]);
        }}
        onCancel={onCancel}
      >
        {prompt.starters.length > 0 && (
          <fieldset className="prompt-starters" aria-labelledby={groupId}>
            <legend className="field-label" id={groupId}>
              {t('prompts.start.first')}
            </legend>
            <label className="prompt-kind-option">
              <input
                type="radio"
                name={`${groupId}-starter`}
                checked={starter === -1}
                onChange={() => setStarter(-1)}
              />{' '}
              {t('prompts.start.none')}
            </label>
            {prompt.starters.map((text, index) => (
              <label className="prompt-kind-option" key={index}>
                <input
                  type="radio"
                  name={`${groupId}-starter`}
                  checked={starter === index}
                  onChange={() => setStarter(index)}
                />{' '}
                {text}
              </label>
            ))}
          </fieldset>
        )}
      </PromptVariablesForm>
    </dialog>
  );
}
