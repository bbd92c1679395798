import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Badge } from '../../components/badge';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { failureTitle } from '../../lib/errors';
import {
  askQuestion,
  copyReply,
  hideWindow,
  loadQuickAsk,
  openInApp,
  stopReply,
  watchQuickAsk,
} from './quick-ask-actions';
import { useQuickAskStore } from './quick-ask-store';

export interface QuickAskScreenProps {
  /** The reply as the chat shows replies (the app passes the chat's markdown renderer). */
  renderReply(text: string, streaming: boolean): ReactNode;
}

const PREVIEW_CHARS = 280;

/**
 * The quick ask window: a prompt, the default chat model, the reply streaming below. Enter sends,
 * Shift+Enter adds a line, Esc hides the window; "Open in Relay Desktop" continues it there.
 */
export function QuickAskScreen({ renderReply }: QuickAskScreenProps) {
  const status = useQuickAskStore((s) => s.status);
  const info = useQuickAskStore((s) => s.info);
  const failure = useQuickAskStore((s) => s.failure);
  const includeContext = useQuickAskStore((s) => s.includeContext);
  const exchange = useQuickAskStore((s) => s.exchange);
  const actionFailure = useQuickAskStore((s) => s.actionFailure);
  const [prompt, setPrompt] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    void loadQuickAsk().then(() => input.current?.focus());
    return watchQuickAsk(() => {
      input.current?.focus();
      input.current?.select();
    });
  }, []);

  // Esc hides the window from anywhere in it.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      void hideWindow();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const streaming = exchange?.status === 'streaming';
  const model = info?.model ?? null;

  function send() {
    const text = prompt.trim();
    if (text === '' || streaming || !model) return;
    setPrompt('');
    void askQuestion(text);
  }

  function onPromptKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  }

  const context = info?.context;
  const contextPlace =
    context?.source === 'selection' ? 'the text you last selected' : 'the clipboard';

  return (
    <main className="quick" aria-label="Quick ask">
      <header className="quick-bar">
        <span className="app-mark app-mark-small" aria-hidden="true" />
        <p className="quick-model">
          {status === 'loading' ? (
            <Spinner label="Loading" />
          ) : model ? (
            <>
              <span className="quick-model-name">{model}</span>
              {info?.connectionName && <span className="muted"> · {info.connectionName}</span>}
              {info?.isDemo && <Badge tone="demo">Demo</Badge>}
            </>
          ) : (
            <span className="muted">No chat model</span>
          )}
        </p>
        <span className="quick-bar-spacer" />
        <kbd className="quick-hint" title="Esc hides this window">
          Esc
        </kbd>
        <button type="button" className="button button-small" onClick={() => void hideWindow()}>
          Hide
        </button>
      </header>

      {status === 'failed' && (
        <Notice tone="error" title="Quick ask could not start">
          <p className="failure-message">{failure?.message}</p>
        </Notice>
      )}
      {status === 'ready' && !model && (
        <Notice tone="warning" title="Nothing to ask yet">
          <p>{info?.problem ?? 'There is no chat model to ask.'}</p>
        </Notice>
      )}

      <form
        className="quick-form"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <label className="visually-hidden" htmlFor="quick-prompt">
          Your question
        </label>
        <textarea
          id="quick-prompt"
          ref={input}
          className="input quick-prompt"
          rows={2}
          value={prompt}
          placeholder={model ? `Ask ${model}…` : 'Ask…'}
          onChange={(event) => setPrompt(event.target.value)}
          onKeyDown={onPromptKey}
          disabled={!model}
          aria-describedby="quick-keys"
        />
        <p className="field-hint" id="quick-keys">
          Enter sends, Shift+Enter adds a line, Esc hides this window.
          {info && !info.saveConversations && ' Not saved unless you open it in Relay Desktop.'}
        </p>
      </form>

      {context && includeContext && (
        <section className="quick-context" aria-label="Context from the clipboard">
          <p className="quick-context-title">
            Sent with your question: {contextPlace} ({context.text.length.toLocaleString()}{' '}
            characters
            {context.truncated ? ', cut at the limit' : ''})
          </p>
          <blockquote className="quick-context-text">
            {context.text.length > PREVIEW_CHARS
              ? `${context.text.slice(0, PREVIEW_CHARS)}…`
              : context.text}
          </blockquote>
          <button
            type="button"
            className="button button-small"
            onClick={() => useQuickAskStore.getState().contextDropped()}
          >
            Don’t send it
          </button>
        </section>
      )}

      {exchange && (
        <section className="quick-reply" aria-label="Reply" aria-busy={streaming}>
          <p className="quick-question">{exchange.prompt}</p>
          {exchange.text !== '' ? (
            renderReply(exchange.text, streaming)
          ) : streaming ? (
            <p className="muted">
              <Spinner label="Writing" /> {exchange.model} is writing…
            </p>
          ) : null}
          {exchange.error && (
            <Notice tone="error" title={failureTitle(exchange.error)}>
              <p className="failure-message">{exchange.error.message}</p>
            </Notice>
          )}
          {exchange.status === 'interrupted' && !exchange.error && (
            <p className="muted">Stopped. The text so far is kept.</p>
          )}
        </section>
      )}

      {actionFailure && (
        <Notice tone="error" title={failureTitle(actionFailure)}>
          <p className="failure-message">{actionFailure.message}</p>
        </Notice>
      )}

      {exchange && (
        <footer className="quick-actions">
          {streaming ? (
            <button type="button" className="button" onClick={() => void stopReply()}>
              Stop
            </button>
          ) : (
            <>
              {exchange.text !== '' && (
                <button type="button" className="button" onClick={() => void copyReply()}>
                  Copy reply
                </button>
              )}
              {exchange.conversationId && <span className="muted">Saved as a conversation</span>}
            </>
          )}
          <span className="quick-bar-spacer" />
          <button
            type="button"
            className="button button-primary"
            disabled={streaming}
            onClick={() => void openInApp()}
          >
            Open in Relay Desktop
          </button>
        </footer>
      )}
    </main>
  );
}
