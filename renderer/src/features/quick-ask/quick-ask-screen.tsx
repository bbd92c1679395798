import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Badge } from '../../components/badge';
import { Notice } from '../../components/notice';
import { Spinner } from '../../components/spinner';
import { useT } from '../../i18n/i18n';
import { failureTitle, useMainMessageText } from '../../lib/errors';
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
  const t = useT();
  const mainText = useMainMessageText();

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

  return (
    <main className="quick" aria-label={t('quickAsk.title')}>
      <header className="quick-bar">
        <span className="app-mark app-mark-small" aria-hidden="true" />
        <p className="quick-model">
          {status === 'loading' ? (
            <Spinner label={t('quickAsk.loading')} />
          ) : model ? (
            <>
              <span className="quick-model-name">{model}</span>
              {info?.connectionName && <span className="muted"> · {info.connectionName}</span>}
              {info?.isDemo && <Badge tone="demo">{t('quickAsk.demo')}</Badge>}
            </>
          ) : (
            <span className="muted">{t('quickAsk.noModel')}</span>
          )}
        </p>
        <span className="quick-bar-spacer" />
        <kbd className="quick-hint" title={t('quickAsk.esc.title')}>
          {t('quickAsk.esc')}
        </kbd>
        <button type="button" className="button button-small" onClick={() => void hideWindow()}>
          {t('quickAsk.hide')}
        </button>
      </header>

      {status === 'failed' && (
        <Notice tone="error" title={t('quickAsk.failed')}>
          <p className="failure-message">{failure?.message}</p>
        </Notice>
      )}
      {status === 'ready' && !model && (
        <Notice tone="warning" title={t('quickAsk.nothing.title')}>
          <p>
            {info?.problem
              ? mainText({ ...info, message: info.problem })
              : t('quickAsk.nothing.body')}
          </p>
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
          {t('quickAsk.question')}
        </label>
        <textarea
          id="quick-prompt"
          ref={input}
          className="input quick-prompt"
          rows={2}
          value={prompt}
          placeholder={model ? t('quickAsk.placeholder', { model }) : t('quickAsk.placeholderNone')}
          onChange={(event) => setPrompt(event.target.value)}
          onKeyDown={onPromptKey}
          disabled={!model}
          aria-describedby="quick-keys"
        />
        <p className="field-hint" id="quick-keys">
          {t('quickAsk.keys')}
          {info && !info.saveConversations && ` ${t('quickAsk.notSaved')}`}
        </p>
      </form>

      {context && includeContext && (
        <section className="quick-context" aria-label={t('quickAsk.context')}>
          <p className="quick-context-title">
            {t('quickAsk.context.title', {
              source: context.source === 'selection' ? 'selection' : 'clipboard',
              cut: context.truncated ? 'yes' : 'no',
              characters: context.text.length,
            })}
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
            {t('quickAsk.context.drop')}
          </button>
        </section>
      )}

      {exchange && (
        <section className="quick-reply" aria-label={t('quickAsk.reply')} aria-busy={streaming}>
          <p className="quick-question">{exchange.prompt}</p>
          {exchange.text !== '' ? (
            renderReply(exchange.text, streaming)
          ) : streaming ? (
            <p className="muted">
              <Spinner label={t('quickAsk.writing.label')} />{' '}
              {t('quickAsk.writing', { model: exchange.model })}
            </p>
          ) : null}
          {exchange.error && (
            <Notice tone="error" title={failureTitle(exchange.error)}>
              <p className="failure-message">{exchange.error.message}</p>
            </Notice>
          )}
          {exchange.status === 'interrupted' && !exchange.error && (
            <p className="muted">{t('quickAsk.stopped')}</p>
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
              {t('quickAsk.stop')}
            </button>
          ) : (
            <>
              {exchange.text !== '' && (
                <button type="button" className="button" onClick={() => void copyReply()}>
                  {t('quickAsk.copy')}
                </button>
              )}
              {exchange.conversationId && <span className="muted">{t('quickAsk.saved')}</span>}
            </>
          )}
          <span className="quick-bar-spacer" />
          <button
            type="button"
            className="button button-primary"
            disabled={streaming}
            onClick={() => void openInApp()}
          >
            {t('quickAsk.open')}
          </button>
        </footer>
      )}
    </main>
  );
}
