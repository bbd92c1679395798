import { useEffect, useState } from 'react';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { Message, t as translate, useT, type MessageKey } from '../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { relayBridge } from '../../lib/relay-bridge';
import { newConversation } from './chat-actions';
import { useChatStore } from './chat-store';

/**
 * Three ways to start, each a short title and the message it puts in the message box (in the
 * person's language, so the model answers in it).
 */
export const SUGGESTIONS = [
  { title: 'chat.suggestion.explain', prompt: 'chat.suggestion.explain.prompt' },
  { title: 'chat.suggestion.draft', prompt: 'chat.suggestion.draft.prompt' },
  { title: 'chat.suggestion.brainstorm', prompt: 'chat.suggestion.brainstorm.prompt' },
] as const satisfies readonly { title: MessageKey; prompt: MessageKey }[];

type Relay =
  | { state: 'loading' }
  | { state: 'ready'; model: string | undefined; connection: string | undefined }
  | { state: 'failed'; failure: FailureInfo; connection: string | undefined; isDemo: boolean };

/**
 * What the chat shows where there is nothing to read yet: no conversation open, or an empty one.
 * The model that will answer, and three suggested messages that fill the message box (in a new
 * conversation, when none is open). When the relay in use cannot be reached or offers no chat
 * model, that is said instead, with "Try the demo relay".
 */
export function ChatWelcome({
  conversation,
}: {
  /** The empty conversation open, with its model; none when no conversation is open. */
  conversation?: { id: string; model: string | null } | undefined;
}) {
  const t = useT();
  const [relay, setRelay] = useState<Relay>({ state: 'loading' });
  const [starting, setStarting] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const hasConversations = useChatStore((s) => s.conversations.length > 0);

  useEffect(() => {
    const bridge = relayBridge();
    if (!bridge) return;
    let current = true;
    void (async () => {
      const active = (await bridge.listConnections().catch(() => [])).find((c) => c.active);
      try {
        const list = await bridge.listModels();
        const chat = list.models.filter((m) => m.kind === 'chat');
        if (chat.length === 0)
          throw Object.assign(new Error(translate('chat.welcome.noChatModel')), {
            kind: 'not_found',
          });
        const model = list.lastModel.chat ?? chat[0]?.id;
        if (current) setRelay({ state: 'ready', model, connection: active?.name });
      } catch (error) {
        if (current)
          setRelay({
            state: 'failed',
            failure: failureOf(error),
            connection: active?.name,
            isDemo: active?.isDemo ?? false,
          });
      }
    })();
    return () => {
      current = false;
    };
  }, [attempt]);

  async function tryDemo() {
    setStarting(true);
    try {
      await relayBridge()?.startDemoRelay();
      setAttempt((n) => n + 1);
    } catch (error) {
      setRelay((shown) =>
        shown.state === 'failed' ? { ...shown, failure: failureOf(error) } : shown,
      );
    } finally {
      setStarting(false);
    }
  }

  async function suggest(prompt: string) {
    if (!conversation && (await newConversation()) === undefined) return;
    useChatStore.getState().draftRequested(prompt);
  }

  const model = conversation?.model ?? (relay.state === 'ready' ? relay.model : undefined);
  return (
    <section className="chat-welcome" aria-labelledby="chat-welcome-title">
      <span className="chat-welcome-mark" aria-hidden="true">
        <Icon name="sparkle" />
      </span>
      <h2 id="chat-welcome-title" className="chat-welcome-title">
        {t(conversation ? 'chat.welcome.askAnything' : 'chat.welcome.start')}
      </h2>
      {relay.state === 'loading' && !conversation && (
        <p className="muted" role="status">
          <Spinner label={t('chat.welcome.looking')} /> {t('chat.welcome.looking.text')}
        </p>
      )}
      {relay.state === 'failed' ? (
        <div className="chat-welcome-problem" role="alert">
          <p>
            {relay.connection
              ? `${t('chat.welcome.failureFrom', { connection: relay.connection })} `
              : ''}
            <span data-source="main">{relay.failure.message}</span>
          </p>
          <div className="chat-welcome-actions">
            <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
              {t('chat.tryAgain')}
            </button>
            {!relay.isDemo && (
              <button
                type="button"
                className="button button-primary"
                disabled={starting}
                onClick={() => void tryDemo()}
              >
                {starting && <Spinner label={t('chat.welcome.demoStarting')} />}
                {t('chat.welcome.tryDemo')}
              </button>
            )}
          </div>
        </div>
      ) : (
        (conversation || relay.state === 'ready') && (
          <>
            <p className="chat-welcome-lead">
              {model ? (
                relay.state === 'ready' && relay.connection ? (
                  <Message
                    id="chat.welcome.modelOn"
                    values={{ model, connection: relay.connection }}
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
              {t(conversation ? 'chat.welcome.writeBelow' : 'chat.welcome.startFrom')}
            </p>
            <ul className="chat-suggestions" aria-label={t('chat.suggestions')}>
              {SUGGESTIONS.map((suggestion) => (
                <li key={suggestion.title}>
                  <button
                    type="button"
                    className="chat-suggestion"
                    onClick={() => void suggest(t(suggestion.prompt))}
                  >
                    <span className="chat-suggestion-title">{t(suggestion.title)}</span>
                    <span className="chat-suggestion-prompt">{t(suggestion.prompt)}</span>
                  </button>
                </li>
              ))}
            </ul>
            {!conversation && hasConversations && (
              <p className="muted chat-welcome-foot">{t('chat.welcome.orPick')}</p>
            )}
          </>
        )
      )}
    </section>
  );
}
