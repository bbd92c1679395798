import { useEffect, useState } from 'react';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { relayBridge } from '../../lib/relay-bridge';
import { newConversation } from './chat-actions';
import { useChatStore } from './chat-store';

/** Three ways to start, each a short title and the message it puts in the message box. */
export const SUGGESTIONS = [
  {
    title: 'Explain something',
    prompt: 'Explain how a streamed reply travels from a model to my screen, in three short steps.',
  },
  {
    title: 'Draft a message',
    prompt: "Draft a friendly reminder to my team about tomorrow's 10:00 planning meeting.",
  },
  {
    title: 'Brainstorm',
    prompt: 'Give me five ideas for a small weekend project I could finish in two days.',
  },
] as const;

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
          throw Object.assign(new Error('This relay offers no chat model.'), {
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
        {conversation ? 'Ask anything' : 'Start a conversation'}
      </h2>
      {relay.state === 'loading' && !conversation && (
        <p className="muted" role="status">
          <Spinner label="Looking for chat models" /> Looking for chat models…
        </p>
      )}
      {relay.state === 'failed' ? (
        <div className="chat-welcome-problem" role="alert">
          <p>
            {relay.connection ? `${relay.connection}: ` : ''}
            {relay.failure.message}
          </p>
          <div className="chat-welcome-actions">
            <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
            {!relay.isDemo && (
              <button
                type="button"
                className="button button-primary"
                disabled={starting}
                onClick={() => void tryDemo()}
              >
                {starting && <Spinner label="Starting the demo relay" />}
                Try the demo relay
              </button>
            )}
          </div>
        </div>
      ) : (
        (conversation || relay.state === 'ready') && (
          <>
            <p className="chat-welcome-lead">
              {model ? (
                <>
                  Replies come from <strong className="chat-welcome-model">{model}</strong>
                  {relay.state === 'ready' && relay.connection ? ` on ${relay.connection}` : ''}.
                </>
              ) : (
                'Choose a model in the header to begin.'
              )}{' '}
              {conversation
                ? 'Write below, or start from a suggestion.'
                : 'Start from a suggestion, or with New chat.'}
            </p>
            <ul className="chat-suggestions" aria-label="Suggestions">
              {SUGGESTIONS.map((suggestion) => (
                <li key={suggestion.title}>
                  <button
                    type="button"
                    className="chat-suggestion"
                    onClick={() => void suggest(suggestion.prompt)}
                  >
                    <span className="chat-suggestion-title">{suggestion.title}</span>
                    <span className="chat-suggestion-prompt">{suggestion.prompt}</span>
                  </button>
                </li>
              ))}
            </ul>
            {!conversation && hasConversations && (
              <p className="muted chat-welcome-foot">Or pick a conversation from the list.</p>
            )}
          </>
        )
      )}
    </section>
  );
}
