import { memo, useEffect, useRef, useState } from 'react';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { editAndResend, regenerateReply, stopReply } from './chat-actions';
import { useChatStore } from './chat-store';
import type { ChatMessage } from './chat-types';
import { ReplyErrorView, RetryCountdown } from './reply-error';
import { ReplyBody } from './streaming-reply';
import { useStreamStore } from './stream-store';

/**
 * The conversation as a virtualized list: only the rows in view are mounted. It follows the
 * bottom while a reply streams, unless the person scrolls up; then it keeps their place.
 */
export function MessageList({ conversationId }: { conversationId: string }) {
  const messages = useChatStore((s) => s.messages);
  const focus = useChatStore((s) => s.focus);
  const list = useRef<VirtuosoHandle>(null);
  const lastReplyId = [...messages].reverse().find((m) => m.role === 'assistant')?.id;
  // A search hit in a conversation that is not open yet: open it at the hit, not at its bottom
  // (a scroll right after mounting is undone by the list placing itself).
  const focusIndex = focus ? messages.findIndex((m) => m.id === focus.messageId) : -1;

  useEffect(() => {
    if (!focus) return;
    const index = messages.findIndex((m) => m.id === focus.messageId);
    if (index >= 0) list.current?.scrollToIndex({ index, align: 'center' });
  }, [focus, messages]);

  return (
    <Virtuoso
      ref={list}
      className="chat-messages"
      data={messages}
      computeItemKey={(_, message) => message.id}
      initialTopMostItemIndex={
        focusIndex >= 0 ? { index: focusIndex, align: 'center' } : Math.max(0, messages.length - 1)
      }
      followOutput={(bottom) => (bottom ? 'auto' : false)}
      atBottomThreshold={48}
      increaseViewportBy={{ top: 400, bottom: 400 }}
      itemContent={(_, message) => (
        <MessageRow
          message={message}
          conversationId={conversationId}
          isLastReply={message.id === lastReplyId}
          highlighted={focus?.messageId === message.id}
        />
      )}
    />
  );
}

const MessageRow = memo(function MessageRow({
  message,
  conversationId,
  isLastReply,
  highlighted,
}: {
  message: ChatMessage;
  conversationId: string;
  isLastReply: boolean;
  highlighted: boolean;
}) {
  const streaming = useChatStore((s) => s.streaming[message.id] === true);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.content);
  const [copied, setCopied] = useState(false);

  async function copy() {
    const text = useStreamStore.getState().texts[message.id] ?? message.content;
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }

  const role = message.role === 'user' ? 'You' : (message.model ?? 'Assistant');
  return (
    <article
      className="chat-message"
      data-role={message.role}
      data-status={streaming ? 'streaming' : message.status}
      data-message-id={message.id}
      data-highlighted={highlighted || undefined}
      aria-label={`${message.role === 'user' ? 'Your message' : 'Reply'}`}
    >
      <header className="chat-message-head">
        <span className="chat-message-role">{role}</span>
        {message.status === 'interrupted' && !streaming && (
          <span className="chat-badge" title="The reply stopped before it was finished">
            Interrupted
          </span>
        )}
        {streaming && <span className="chat-badge chat-badge-live">Writing…</span>}
      </header>
      {editing ? (
        <form
          className="chat-edit"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim() === '') return;
            setEditing(false);
            void editAndResend(message.id, draft);
          }}
        >
          <textarea
            className="input chat-edit-input"
            aria-label="Edit your message"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            rows={Math.min(12, Math.max(2, draft.split('\n').length))}
          />
          {draft.trim() === '' && <p className="field-error">Write a message first.</p>}
          <div className="chat-message-tools">
            <button type="submit" className="button button-small button-primary">
              Save and resend
            </button>
            <button type="button" className="button button-small" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : message.role === 'user' ? (
        <div className="chat-user-text">{message.content}</div>
      ) : (
        <ReplyBody replyId={message.id} content={message.content} />
      )}
      {streaming && <RetryCountdown replyId={message.id} />}
      {!streaming && message.error && (
        <ReplyErrorView error={message.error} conversationId={conversationId} />
      )}
      {!editing && (
        <footer className="chat-message-tools">
          {streaming ? (
            <button
              type="button"
              className="button button-small"
              onClick={() => void stopReply(message.id)}
            >
              Stop
            </button>
          ) : (
            <>
              <button type="button" className="button button-small" onClick={() => void copy()}>
                {copied ? 'Copied' : 'Copy'}
              </button>
              {message.role === 'user' && (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => {
                    setDraft(message.content);
                    setEditing(true);
                  }}
                >
                  Edit
                </button>
              )}
              {message.role === 'assistant' && isLastReply && (
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => void regenerateReply(conversationId)}
                >
                  Regenerate
                </button>
              )}
            </>
          )}
          {message.usage?.totalTokens !== undefined && (
            <span className="chat-usage" title="Tokens: prompt + completion">
              {message.usage.promptTokens ?? 0} + {message.usage.completionTokens ?? 0} ={' '}
              {message.usage.totalTokens} tokens
            </span>
          )}
        </footer>
      )}
    </article>
  );
});
