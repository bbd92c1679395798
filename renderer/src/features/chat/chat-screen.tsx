import './chat.css';
import { useEffect } from 'react';
import { Icon } from '../../components/icon';
import { Notice } from '../../components/notice';
import { failureTitle } from '../../lib/errors';
import {
  loadConversations,
  newConversation,
  openConversation,
  reopenLastConversation,
  watchChatEvents,
} from './chat-actions';
import { useChatStore } from './chat-store';
import { CompareColumns, CompareLauncher } from './compare-view';
import { Composer } from './composer';
import { ConversationList } from './conversation-list';
import { loadPrices } from './cost-store';
import { MessageList } from './message-list';
import { ConversationCostSummary } from './reply-cost';

/** The chat screen: conversations on the left, the open one with its composer on the right. */
export function ChatScreen() {
  const activeId = useChatStore((s) => s.activeId);
  const conversation = useChatStore((s) => s.conversations.find((c) => c.id === s.activeId));
  const viewStatus = useChatStore((s) => s.viewStatus);
  const viewFailure = useChatStore((s) => s.viewFailure);
  const actionFailure = useChatStore((s) => s.actionFailure);
  const refusals = useChatStore((s) => s.importRefusals);
  const listHidden = useChatStore((s) => s.listHidden);

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
        <header className="chat-header">
          <button
            type="button"
            className="icon-button"
            aria-label={listHidden ? 'Show the conversation list' : 'Hide the conversation list'}
            title={`${listHidden ? 'Show' : 'Hide'} the conversation list`}
            aria-expanded={!listHidden}
            onClick={() => useChatStore.getState().listToggled()}
          >
            <Icon name="sidebar" />
          </button>
          <p className="chat-header-title">{conversation?.title ?? 'No conversation open'}</p>
          {conversation && <ConversationCostSummary conversation={conversation} />}
        </header>
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
                <li key={`${index}-${refusal.name}`}>{refusal.reason}</li>
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
        {!activeId && (
          <div className="chat-empty">
            <p className="muted">Pick a conversation, or start a new one.</p>
            <button
              type="button"
              className="button button-primary"
              onClick={() => void newConversation()}
            >
              New chat
            </button>
          </div>
        )}
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
            <MessageList key={activeId} conversationId={activeId} />
            <CompareColumns />
            <CompareLauncher conversation={conversation} />
            <Composer conversation={conversation} />
          </>
        )}
      </section>
    </div>
  );
}
