import { ReadFailure } from '../../components/read-failure';
import { useEffect, useId, useRef, useState } from 'react';
import { Badge } from '../../components/badge';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { Notice } from '../../components/notice';
import { PromptVariablesForm } from '../../components/prompt-variables-form';
import { Spinner } from '../../components/spinner';
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
  watchPrompts,
  type ImportOutcome,
} from './prompts-actions';
import { PromptEditor } from './prompt-editor';
import { usePromptsStore, type Prompt } from './prompts-store';
import './prompts.css';

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

  useEffect(() => {
    void loadPrompts();
    return watchPrompts();
  }, []);

  const assistants = prompts.filter((p) => p.kind === 'assistant');
  const snippets = prompts.filter((p) => p.kind === 'snippet');

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

  const list = (title: string, items: Prompt[]) => (
    <section className="prompt-group" aria-label={title}>
      <h2 className="prompt-group-title">
        {title} <span className="muted">({items.length})</span>
      </h2>
      {items.length === 0 ? (
        <p className="muted">
          {query ? `None match “${query}”.` : `No ${title.toLowerCase()} yet.`}
        </p>
      ) : (
        <ul className="prompt-list">
          {items.map((prompt) => (
            <li key={prompt.id} className="prompt-card" data-hidden={prompt.hidden || undefined}>
              <PromptMark prompt={prompt} />
              <div className="prompt-card-body">
                <p className="prompt-card-name">
                  {prompt.name}
                  {prompt.builtIn && <Badge>Built in</Badge>}
                  {prompt.hidden && <Badge tone="warning">Hidden</Badge>}
                </p>
                {prompt.description && (
                  <p className="prompt-card-description muted">{prompt.description}</p>
                )}
                <p className="prompt-card-meta muted">
                  {[
                    prompt.variables.length > 0 &&
                      `Asks for ${prompt.variables.map((v) => v.name).join(', ')}`,
                    prompt.model && `Model ${prompt.model}`,
                    prompt.tags.length > 0 && prompt.tags.map((t) => `#${t}`).join(' '),
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
                    aria-label={`Start chat with ${prompt.name}`}
                    onClick={() => askToStart(prompt)}
                  >
                    Start chat
                  </button>
                )}
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Edit ${prompt.name}`}
                  onClick={() => editPrompt(prompt)}
                >
                  Edit
                </button>
                {prompt.hidden ? (
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Show ${prompt.name}`}
                    onClick={() => void setPromptHidden(prompt, false)}
                  >
                    Show
                  </button>
                ) : (
                  <button
                    type="button"
                    className="button button-small button-quiet-danger"
                    aria-label={`${prompt.builtIn ? 'Hide' : 'Delete'} ${prompt.name}`}
                    onClick={() => setDeleting(prompt)}
                  >
                    {prompt.builtIn ? 'Hide' : 'Delete'}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );

  return (
    <div className="page prompts-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Prompts</h1>
          <p className="page-lead">
            Assistants start a chat with their system prompt; snippets are inserted by typing / at
            the start of a message.
          </p>
        </div>
        <div className="page-header-actions">
          <button type="button" className="button" onClick={() => newPrompt('snippet')}>
            New snippet
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => newPrompt('assistant')}
          >
            New assistant
          </button>
        </div>
      </header>

      {editing !== undefined && <PromptEditor key={editing} />}

      <div className="prompt-toolbar">
        <input
          type="search"
          className="input prompt-search"
          aria-label="Search prompts"
          placeholder="Search names, descriptions, tags and text"
          value={query}
          onChange={(event) => searchPrompts(event.target.value)}
        />
        <label className="prompt-check">
          <input
            type="checkbox"
            checked={showHidden}
            onChange={(event) => showHiddenPrompts(event.target.checked)}
          />{' '}
          Show hidden
        </label>
        <span className="prompt-toolbar-gap" />
        <button
          type="button"
          className="button button-small"
          onClick={() => void importLibrary().then(setImported)}
        >
          Import…
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void exportLibrary(includeBuiltIn)}
        >
          Export…
        </button>
        <label className="prompt-check">
          <input
            type="checkbox"
            checked={includeBuiltIn}
            onChange={(event) => setIncludeBuiltIn(event.target.checked)}
          />{' '}
          Export built-in ones too
        </label>
      </div>

      {imported && (
        <ImportOutcomeNotice outcome={imported} onClose={() => setImported(undefined)} />
      )}

      {status === 'loading' && (
        <p className="muted">
          <Spinner label="Loading" /> Reading the library…
        </p>
      )}
      {status === 'failed' && failure && (
        <ReadFailure
          title="The prompt library could not be read"
          message={failure.message}
          onRetry={() => void loadPrompts()}
        />
      )}
      {status === 'ready' && prompts.length === 0 && !query ? (
        <EmptyState title="The library is empty">
          <p>Save an assistant or a snippet to reuse it in any chat.</p>
        </EmptyState>
      ) : (
        status === 'ready' && (
          <>
            {list('Assistants', assistants)}
            {list('Snippets', snippets)}
          </>
        )
      )}

      <ConfirmDialog
        open={deleting !== undefined}
        title={deleting?.builtIn ? `Hide “${deleting?.name}”?` : `Delete “${deleting?.name}”?`}
        confirmLabel={deleting?.builtIn ? 'Hide' : 'Delete'}
        danger={!deleting?.builtIn}
        onConfirm={() => {
          const prompt = deleting;
          setDeleting(undefined);
          if (prompt) void deletePrompt(prompt);
        }}
        onCancel={() => setDeleting(undefined)}
      >
        <p>
          {deleting?.builtIn
            ? 'A built-in prompt is hidden, not deleted: “Show hidden” brings it back.'
            : 'The prompt is deleted from the library. Chats started from it are kept.'}
        </p>
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
  const mainText = useMainMessageText();
  const close = (
    <button type="button" className="button button-small" onClick={onClose}>
      Close
    </button>
  );
  if (!outcome.ok)
    return (
      <Notice tone="error" title="The file was not imported" actions={close}>
        <p className="failure-message">{outcome.message}</p>
      </Notice>
    );
  const { result } = outcome;
  if (!result.chosen) return null;
  const parts = [
    `${result.added} ${result.added === 1 ? 'prompt' : 'prompts'} added`,
    result.duplicates > 0 && `${result.duplicates} already in the library`,
    result.refused.length > 0 && `${result.refused.length} refused`,
  ].filter(Boolean);
  return (
    <Notice
      tone={result.refused.length > 0 ? 'warning' : 'success'}
      title={`Imported: ${parts.join(', ')}`}
      actions={close}
    >
      {result.refused.length > 0 && (
        <ul className="prompt-refused">
          {result.refused.map((r, i) => (
            <li key={i}>
              {mainText({ message: r.entry, messageId: r.entryId, values: r.entryValues })}:{' '}
              {mainText({ ...r, message: r.reason })}
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
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog prompt-start-dialog"
      aria-label={`Start a chat with ${prompt.name}`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <PromptVariablesForm
        name={`Start a chat with ${prompt.name}`}
        text={prompt.text}
        variables={prompt.variables}
        submitLabel="Start chat"
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
              First message
            </legend>
            <label className="prompt-kind-option">
              <input
                type="radio"
                name={`${groupId}-starter`}
                checked={starter === -1}
                onChange={() => setStarter(-1)}
              />{' '}
              None: I will write it
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
