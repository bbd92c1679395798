import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/icon';
import { Notice } from '../../components/notice';
import { RelayFailure } from '../../components/relay-failure';
import { Spinner } from '../../components/spinner';
import { Message, useT, type MessageKey } from '../../i18n/i18n';
import { failureHeading, type FailureInfo } from '../../lib/errors';
import { loadChatModels, replaceActiveKey, tryDemoRelay } from './chat-actions';
import { NEW_CHAT_ID, useChatStore, type ModelConnection } from './chat-store';

/**
 * Three ways to start, each a short title and the message it puts in the message box (in the
 * person's language, so the model answers in it).
 */
export const SUGGESTIONS = [
  { title: 'chat.suggestion.explain', prompt: 'chat.suggestion.explain.prompt' },
  { title: 'chat.suggestion.draft', prompt: 'chat.suggestion.draft.prompt' },
  { title: 'chat.suggestion.brainstorm', prompt: 'chat.suggestion.brainstorm.prompt' },
] as const satisfies readonly { title: MessageKey; prompt: MessageKey }[];

/** Failures that mean the relay is down or struggling: asking again is the way on. */
const DOWN = new Set(['network', 'timeout', 'server_error', 'rate_limited', 'bad_response']);

/**
 * What the chat shows above the message box while there is nothing to read yet (the new chat,
 * or an empty conversation): the model that will answer, and three suggested messages that fill
 * the message box. When the relay in use refuses the key, the key field is the way on; when it
 * cannot be reached, that is said with Try again; when it offers no chat model, the demo relay
 * is offered.
 */
export function ChatWelcome({
  conversation,
}: {
  /** The new chat or the empty conversation open, with its model. */
  conversation: { id: string; model: string | null };
}) {
  const t = useT();
  const models = useChatStore((s) => s.chatModels);
  const hasConversations = useChatStore((s) => s.conversations.length > 0);
  const drafting = conversation.id === NEW_CHAT_ID;

  useEffect(() => {
    void loadChatModels();
  }, []);

  const model =
    conversation.model ??
    (models.status === 'ready' ? (models.lastModel ?? models.models[0]?.id) : undefined);
  return (
    <section className="chat-welcome" aria-labelledby="chat-welcome-title">
      <span className="chat-welcome-mark" aria-hidden="true">
        <Icon name="sparkle" />
      </span>
      <h2 id="chat-welcome-title" className="chat-welcome-title">
        {t(drafting ? 'chat.welcome.start' : 'chat.welcome.askAnything')}
      </h2>
      {models.status === 'loading' && !conversation.model && (
        <p className="muted" role="status">
          <Spinner label={t('chat.welcome.looking')} /> {t('chat.welcome.looking.text')}
        </p>
      )}
      {models.status === 'failed' ? (
        <RelayProblem failure={models.failure} connection={models.connection} />
      ) : (
        (conversation.model || models.status === 'ready') && (
          <>
            <p className="chat-welcome-lead">
              {model ? (
                models.status === 'ready' && models.connection ? (
                  <Message
                    id="chat.welcome.modelOn"
                    values={{ model, connection: models.connection.name }}
                    components={{ 0: <strong className="chat-welcome-model" /> }}
                  />
                ) : (
                  <Message
                    id="chat.welcome.model"
                    values={{ model }}
                    components={{ 0: <strong className="chat-welcome-model" /> }}
                  />
                )
              ) : (
                t('chat.welcome.noModel')
              )}{' '}
              {t('chat.welcome.writeBelow')}
            </p>
            <ul className="chat-suggestions" aria-label={t('chat.suggestions')}>
              {SUGGESTIONS.map((suggestion) => (
                <li key={suggestion.title}>
                  <button
                    type="button"
                    className="chat-suggestion"
                    onClick={() => useChatStore.getState().draftRequested(t(suggestion.prompt))}
                  >
                    <span className="chat-suggestion-title">{t(suggestion.title)}</span>
                    <span className="chat-suggestion-prompt">{t(suggestion.prompt)}</span>
                  </button>
                </li>
              ))}
            </ul>
            {drafting && hasConversations && (
              <p className="muted chat-welcome-foot">{t('chat.welcome.orPick')}</p>
            )}
          </>
        )
      )}
    </section>
  );
}

/**
 * Why no model can answer, with the one way on first: the key field after a 401; Try again when
 * the relay cannot be reached or failed; the demo relay when this relay offers no chat model. The
 * message box asks for it (`remedyAsks`) when the person sends meanwhile, rather than adding a
 * second notice of its own.
 */
function RelayProblem({
  failure,
  connection,
}: {
  failure: FailureInfo;
  connection: ModelConnection | undefined;
}) {
  const t = useT();
  const [starting, setStarting] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const remedyAsks = useChatStore((s) => s.remedyAsks);
  const asked = useRef(remedyAsks);
  useEffect(() => {
    if (remedyAsks === asked.current) return;
    asked.current = remedyAsks;
    box.current?.querySelector<HTMLElement>('input, .button-primary')?.focus();
  }, [remedyAsks]);

  async function tryDemo() {
    setStarting(true);
    try {
      await tryDemoRelay();
    } finally {
      setStarting(false);
    }
  }

  if (failure.kind === 'unauthorized')
    return (
      <div className="chat-welcome-problem" ref={box}>
        <RelayFailure
          failure={failure}
          connection={{ name: connection?.name ?? t('chat.relay') }}
          onKey={replaceActiveKey}
        />
      </div>
    );
  const demoFirst = !DOWN.has(failure.kind);
  const again = (
    <button
      key="again"
      type="button"
      className={demoFirst && !connection?.isDemo ? 'button' : 'button button-primary'}
      onClick={() => void loadChatModels()}
    >
      {t('chat.tryAgain')}
    </button>
  );
  const demo = !connection?.isDemo && (
    <button
      key="demo"
      type="button"
      className={demoFirst ? 'button button-primary' : 'button'}
      disabled={starting}
      onClick={() => void tryDemo()}
    >
      {starting && <Spinner label={t('chat.welcome.demoStarting')} />}
      {t('chat.welcome.tryDemo')}
    </button>
  );
  return (
    <div className="chat-welcome-problem" ref={box}>
      <Notice
        tone="error"
        {...(failure.kind === 'not_found' ? {} : { title: failureHeading(failure) })}
        actions={demoFirst ? [demo, again] : [again, demo]}
      >
        <p className="failure-message">
          {connection ? `${t('chat.welcome.failureFrom', { connection: connection.name })} ` : ''}
          <span data-source="main">{failure.message}</span>
        </p>
      </Notice>
    </div>
  );
}
