import './chat.css';
import { useEffect } from 'react';
import { Notice } from '../../components/notice';
import { failureTitle, useMainMessageText } from '../../lib/errors';
import {
  loadConversations,
  openConversation,
  reopenLastConversation,
  watchChatEvents,
} from './chat-actions';
import { useChatStore } from './chat-store';
import { CompareColumns } from './compare-view';
import { ChatHeader } from './chat-header';
import { ChatWelcome } from './chat-welcome';
import { ChatInput } from './composer';
import { ConversationList } from './conversation-list';
import { loadPrices } from './cost-store';
import { MessageList } from './message-list';

/** The chat screen: conversations on the left, the open one with its composer on the right. */
export function ChatScreen() {
  const activeId = useChatStore((s) => s.activeId);
  const conversation = useChatStore((s) => s.conversations.find((c) => c.id === s.activeId));
  const viewStatus = useChatStore((s) => s.viewStatus);
  const viewFailure = useChatStore((s) => s.viewFailure);
  const actionFailure = useChatStore((s) => s.actionFailure);
  const refusals = useChatStore((s) => s.importRefusals);
  const mainText = useMainMessageText();
  const listHidden = useChatStore((s) => s.listHidden);
  const listStatus = useChatStore((s) => s.listStatus);
  // Nothing to read yet: the model and suggestions instead of a blank pane.
  const empty = useChatStore((s) => s.messages.length === 0 && !s.compare && !s.hasOlder);

  useEffect(() => {
    void loadConversations();
    void reopenLastConversation();
    void loadPrices();
    const stop = watchChatEvents();
    return () => {
      stop();
      useChatStore.getState().screenLeft();
    };
  }, []);

  return (
    <div className="chat-screen" data-list-hidden={listHidden || undefined}>
      <h1 className="visually-hidden">Chat</h1>
      {!listHidden && <ConversationList />}
      <section className="chat-main" aria-label={conversation?.title ?? 'Chat'}>
        <ChatHeader
          conversation={conversation}
          ready={activeId !== undefined && viewStatus === 'ready'}
        />
        {refusals.length > 0 && (
          <Notice
            tone="warning"
            title="Not imported"
            actions={
              <button
                type="button"
                className="button button-small"
                onClick={() => useChatStore.getState().importRefused([])}
              >
                Dismiss
              </button>
            }
          >
            <ul className="chat-refusals" aria-label="Files not imported">
              {refusals.map((refusal, index) => (
                <li key={`${index}-${refusal.name}`}>
                  {mainText({ ...refusal, message: refusal.reason })}
                </li>
              ))}
            </ul>
          </Notice>
        )}
        {actionFailure && (
          <Notice
            tone="error"
            title={failureTitle(actionFailure)}
            actions={
              <button
                type="button"
                className="button button-small"
                onClick={() => useChatStore.getState().actionFailed(undefined)}
              >
                Dismiss
              </button>
            }
          >
            <p className="failure-message">{actionFailure.message}</p>
          </Notice>
        )}
        {!activeId && listStatus !== 'loading' && <ChatWelcome />}
        {activeId && viewStatus === 'failed' && (
          <Notice
            tone="error"
            title="The conversation could not be opened"
            actions={
              <button
                type="button"
                className="button"
                onClick={() => void openConversation(activeId)}
              >
                Try again
              </button>
            }
          >
            <p className="failure-message">{viewFailure?.message}</p>
          </Notice>
        )}
        {activeId && viewStatus === 'ready' && conversation && (
          <>
            {empty ? (
              <ChatWelcome conversation={conversation} />
            ) : (
              <MessageList key={activeId} conversationId={activeId} />
            )}
            <CompareColumns />
            <ChatInput conversation={conversation} />
          </>
        )}
      </section>
    </div>
  );
}
