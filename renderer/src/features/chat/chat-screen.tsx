import './chat.css';
import { useEffect } from 'react';
import { Notice } from '../../components/notice';
import { failureTitle, useMainMessageText } from '../../lib/errors';
import { useT } from '../../i18n/i18n';
import {
  loadChatModels,
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
import { shownTitle } from './conversation-title';
import { loadPrices, watchPrices } from './cost-store';
import { MessageList } from './message-list';

/** The chat screen: conversations on the left, the open one with its composer on the right. */
export function ChatScreen() {
  const t = useT();
  const activeId = useChatStore((s) => s.activeId);
  // The open conversation, or the new chat while none is open.
  const conversation = useChatStore((s) =>
    s.activeId === undefined ? s.newChat : s.conversations.find((c) => c.id === s.activeId),
  );
  const viewStatus = useChatStore((s) => s.viewStatus);
  const viewFailure = useChatStore((s) => s.viewFailure);
  const actionFailure = useChatStore((s) => s.actionFailure);
  const refusals = useChatStore((s) => s.importRefusals);
  const mainText = useMainMessageText();
  const listHidden = useChatStore((s) => s.listHidden);
  // Nothing to read yet: the model and suggestions instead of a blank pane.
  const empty = useChatStore((s) => s.messages.length === 0 && !s.compare && !s.hasOlder);

  useEffect(() => {
    void loadConversations();
    void reopenLastConversation();
    void loadChatModels();
    void loadPrices();
    const stop = watchChatEvents();
    const stopPrices = watchPrices();
    return () => {
      stop();
      stopPrices();
      useChatStore.getState().screenLeft();
    };
  }, []);

  return (
    <div className="chat-screen" data-list-hidden={listHidden || undefined}>
      <h1 className="visually-hidden">{t('screen.chat')}</h1>
      {!listHidden && <ConversationList />}
      <section
        className="chat-main"
        aria-label={
          activeId === undefined
            ? t('chat.list.new')
            : conversation
              ? shownTitle(conversation, t)
              : t('screen.chat')
        }
      >
        <ChatHeader
          conversation={conversation}
          ready={activeId === undefined || viewStatus === 'ready'}
        />
        {refusals.length > 0 && (
          <Notice
            tone="warning"
            title={t('chat.import.refused.title')}
            actions={
              <button
                type="button"
                className="button button-small"
                onClick={() => useChatStore.getState().importRefused([])}
              >
                {t('chat.dismiss')}
              </button>
            }
          >
            <ul className="chat-refusals" aria-label={t('chat.import.refused.list')}>
              {refusals.map((refusal, index) => (
                <li key={`${index}-${refusal.name}`} data-source="main">
                  {mainText({ ...refusal, message: refusal.reason })}
                </li>
              ))}
            </ul>
          </Notice>
        )}
        {actionFailure && (
          <Notice
            tone="error"
            title={
              // Main refuses a message while a compare waits for a reply to be chosen: it is
              // that compare which is unfinished, not a form to check.
              actionFailure.messageId === 'chat.chooseReply'
                ? t('chat.compare.unfinished')
                : failureTitle(actionFailure)
            }
            actions={
              <button
                type="button"
                className="button button-small"
                onClick={() => useChatStore.getState().actionFailed(undefined)}
              >
                {t('chat.dismiss')}
              </button>
            }
          >
            <p className="failure-message" data-source="main">
              {actionFailure.message}
            </p>
          </Notice>
        )}
        {activeId && viewStatus === 'failed' && (
          <Notice
            tone="error"
            title={t('chat.open.failed')}
            actions={
              <button
                type="button"
                className="button"
                onClick={() => void openConversation(activeId)}
              >
                {t('chat.tryAgain')}
              </button>
            }
          >
            <p className="failure-message" data-source="main">
              {viewFailure?.message}
            </p>
          </Notice>
        )}
        {(activeId === undefined || viewStatus === 'ready') && conversation && (
          <>
            {empty || activeId === undefined ? (
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
