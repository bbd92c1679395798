import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { Icon, type IconName } from '../../components/icon';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { formatNumber } from '../../i18n/format';
import { useT } from '../../i18n/i18n';
import {
  branchFromHere,
  continueReply,
  copyMessage,
  editAndResend,
  loadNewer,
  loadOlder,
  regenerateReply,
  showLatest,
} from './chat-actions';
import { MessageAttachments } from './attachments';
import { useChatStore } from './chat-store';
import { sendsMessage } from './send-key';
import type { ChatMessage } from './chat-types';
import { ReplyErrorView, RetryCountdown } from './reply-error';
import { ReplyToolCalls } from './tools/tool-calls';
import { SourcesButton } from './knowledge/sources-button';
import { ReplyBody } from './streaming-reply';
import { useStreamStore } from './stream-store';
import { VersionSwitcher } from './version-switcher';
import { ReplyCost } from './reply-cost';
import { highlightTerms } from './search-highlight';

/**
 * The conversation as a virtualized list: only the rows in view are mounted. It opens with the
 * newest page; reaching the top loads the page before, put above without moving what the person is
 * reading (the list's first index goes down by the count added).
 *
 * It follows the conversation: each send goes to the newest message, and while the person is at
 * the bottom the view stays there as rows are added and as the last one grows (a streaming reply
 * gets taller; no row is added). Scrolling up stops the following and keeps the place, and a
 * "Jump to latest" button brings the person back (and following again).
 *
 * After a version switched in the middle of a long path, the list holds the path up to the switch
 * and the new path's first page: reaching the end loads the next page, and "Jump to latest" the
 * newest one, so a switch never fetches or lays out the whole rest of the path at once.
 */
export function MessageList({ conversationId }: { conversationId: string }) {
  const t = useT();
  const messages = useChatStore((s) => s.messages);
  const firstItemIndex = useChatStore((s) => s.firstItemIndex);
  const focus = useChatStore((s) => s.focus);
  const hasNewer = useChatStore((s) => s.hasNewer);
  const list = useRef<VirtuosoHandle>(null);
  // The path's last reply and last message, when its end is loaded (Regenerate, Continue).
  const lastReplyId = hasNewer
    ? undefined
    : [...messages].reverse().find((m) => m.role === 'assistant')?.id;
  const lastId = hasNewer ? undefined : messages.at(-1)?.id;
  // Read in the scroll handler and the list's callbacks without re-subscribing them.
  const newer = useRef(hasNewer);
  newer.current = hasNewer;
  // A search hit in a conversation that is not open yet: open it at the hit, not at its bottom
  // (a scroll right after mounting is undone by the list placing itself).
  const focusIndex = focus ? messages.findIndex((m) => m.id === focus.messageId) : -1;

  const scroller = useRef<HTMLElement | null>(null);
  const [scrollerElement, setScrollerElement] = useState<HTMLElement | null>(null);
  // One function for the list's life: the list sets its scroller up again (and measures it,
  // forcing a layout of the page) whenever it is given a new one, at every render of this list.
  const takeScroller = useCallback((element: HTMLElement | Window | null) => {
    scroller.current = element instanceof HTMLElement ? element : null;
    setScrollerElement(scroller.current);
  }, []);
  // Each jump once, when its message is loaded: not again when later pages or replies arrive.
  const jumped = useRef<number | undefined>(undefined);

  // Following the newest message: on at the start (unless opened at a search hit), off when the
  // person scrolls up, on again at the bottom, at each send, and with "Jump to latest".
  const following = useRef(focusIndex < 0);
  const [atLatest, setAtLatest] = useState(focusIndex < 0);
  const lastTop = useRef(0);
  const follow = useCallback(() => {
    following.current = true;
    setAtLatest(true);
    list.current?.scrollToIndex({ index: 'LAST', align: 'end' });
  }, []);
  // The end of what is loaded is not the path's end: nothing to follow until it is.
  useEffect(() => {
    if (!hasNewer) return;
    following.current = false;
    setAtLatest(false);
  }, [hasNewer]);
  useEffect(() => {
    if (!focus || jumped.current === focus.at) return;
    const index = messages.findIndex((m) => m.id === focus.messageId);
    if (index < 0) return;
    jumped.current = focus.at;
    // The person is reading the hit now, not the newest message.
    following.current = false;
    setAtLatest(false);
    list.current?.scrollToIndex({ index, align: 'center' });
  }, [focus, messages]);

  useEffect(() => keepPlaceWhenPrepending(() => scroller.current), []);

  const toBottom = useCallback(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, []);

  const followRequests = useChatStore((s) => s.followRequests);
  const seenRequests = useRef(followRequests);
  useEffect(() => {
    if (followRequests === seenRequests.current) return;
    seenRequests.current = followRequests;
    follow();
  }, [followRequests, follow]);

  // A scroll the person made: up stops following; reaching the bottom starts it again. The list's
  // own scrolls (following, rows measured) only ever go down or stay at the bottom.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = () => {
      const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
      if (distance <= AT_BOTTOM_PX && !newer.current) {
        following.current = true;
        setAtLatest(true);
      } else if (element.scrollTop < lastTop.current - 1) {
        following.current = false;
        setAtLatest(false);
      }
      lastTop.current = element.scrollTop;
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [scrollerElement]);

  // Opened at a search hit: that message in the middle of the view; otherwise the newest.
  const initialItem =
    focusIndex >= 0
      ? { index: focusIndex, align: 'center' as const }
      : Math.max(0, messages.length - 1);
  const followOutput = () => (following.current && !newer.current ? ('auto' as const) : false);

  return (
    <div className="chat-thread">
      <Virtuoso
        ref={list}
        scrollerRef={takeScroller}
        className="chat-messages"
        data={messages}
        firstItemIndex={firstItemIndex}
        startReached={() => void loadOlder()}
        endReached={() => {
          if (newer.current) void loadNewer();
        }}
        components={LIST_PARTS}
        computeItemKey={(_, message) => message.id}
        initialTopMostItemIndex={initialItem}
        followOutput={followOutput}
        totalListHeightChanged={toBottom}
        atBottomThreshold={AT_BOTTOM_PX}
        increaseViewportBy={{ top: 400, bottom: 400 }}
        itemContent={(_, message) => (
          <MessageRow
            message={message}
            conversationId={conversationId}
            isLastReply={message.id === lastReplyId}
            isLast={message.id === lastId}
            highlighted={focus?.messageId === message.id}
            terms={focus?.messageId === message.id ? focus.terms : undefined}
          />
        )}
      />
      {!atLatest && messages.length > 0 && (
        <button
          type="button"
          className="button chat-jump"
          onClick={() => (newer.current ? void showLatest() : follow())}
        >
          <Icon name="arrow-down" />
          {t('chat.jumpToLatest')}
        </button>
      )}
    </div>
  );
}

/** How near the bottom (in pixels) still counts as at the bottom. */
const AT_BOTTOM_PX = 48;

/**
 * Keeps the row the person is reading where it is when older messages are put above it. The list
 * moves down by its estimate of the new rows' height; once they are measured, whatever that
 * estimate missed is scrolled back, over the next few frames. Not when the new messages bring in
 * a search hit, which is scrolled to instead.
 */
function keepPlaceWhenPrepending(scrollerOf: () => HTMLElement | null): () => void {
  return useChatStore.subscribe((state, previous) => {
    if (state.firstItemIndex >= previous.firstItemIndex || state.activeId !== previous.activeId)
      return;
    const hit = state.focus?.messageId;
    if (hit && !previous.messages.some((m) => m.id === hit)) return;
    const scroller = scrollerOf();
    if (!scroller) return;
    const view = scroller.getBoundingClientRect();
    const anchor = [...scroller.querySelectorAll<HTMLElement>('article[data-message-id]')].find(
      (row) => row.getBoundingClientRect().bottom > view.top,
    );
    const id = anchor?.dataset.messageId;
    if (!anchor || !id) return;
    const top = anchor.getBoundingClientRect().top;
    let frames = 0;
    const settle = () => {
      const row = scroller.querySelector(`article[data-message-id="${CSS.escape(id)}"]`);
      if (row) {
        const drift = row.getBoundingClientRect().top - top;
        if (Math.abs(drift) >= 0.5) scroller.scrollTop += drift;
      }
      if (++frames < 6) requestAnimationFrame(settle);
    };
    requestAnimationFrame(settle);
  });
}

/** Above the first loaded message: older ones arriving, or why they could not, with Retry. */
function OlderMessages() {
  const t = useT();
  const status = useChatStore((s) => s.olderStatus);
  const failure = useChatStore((s) => s.olderFailure);
  if (status === 'loading')
    return (
      <p className="chat-older muted" role="status">
        <span>{t('chat.older.loading')}</span>
      </p>
    );
  if (status === 'failed')
    return (
      <div className="chat-older chat-older-failed" role="alert">
        <span title={failure?.message}>
          {t('chat.older.failed')} <span data-source="main">{failure?.message}</span>
        </span>
        <button type="button" className="button button-small" onClick={() => void loadOlder()}>
          {t('chat.retry')}
        </button>
      </div>
    );
  return <div className="chat-older" aria-hidden="true" />;
}

/** Below the last loaded message while the path goes on: newer ones arriving, or a Retry. */
function NewerMessages() {
  const t = useT();
  const hasNewer = useChatStore((s) => s.hasNewer);
  const status = useChatStore((s) => s.newerStatus);
  const failure = useChatStore((s) => s.newerFailure);
  if (hasNewer && status === 'loading')
    return (
      <p className="chat-older muted" role="status">
        <span>{t('chat.newer.loading')}</span>
      </p>
    );
  if (hasNewer && status === 'failed')
    return (
      <div className="chat-older chat-older-failed" role="alert">
        <span title={failure?.message}>
          {t('chat.newer.failed')} <span data-source="main">{failure?.message}</span>
        </span>
        <button type="button" className="button button-small" onClick={() => void loadNewer()}>
          {t('chat.retry')}
        </button>
      </div>
    );
  return <div className="chat-older" aria-hidden="true" />;
}

/**
 * The path's last reply while it is still being written and the pages before it are not loaded
 * (a version switched in the middle of a long path): shown at once, after what is loaded.
 */
function PathEnd() {
  const end = useChatStore((s) => s.pathEnd);
  const conversationId = useChatStore((s) => s.activeId);
  if (!end || !conversationId) return null;
  return (
    <MessageRow
      message={end}
      conversationId={conversationId}
      isLastReply
      isLast
      highlighted={false}
    />
  );
}

function ListEnd() {
  return (
    <>
      <NewerMessages />
      <PathEnd />
    </>
  );
}

const LIST_PARTS = { Header: OlderMessages, Footer: ListEnd };

const MessageRow = memo(function MessageRow({
  message,
  conversationId,
  isLastReply,
  isLast,
  highlighted,
  terms,
}: {
  message: ChatMessage;
  conversationId: string;
  isLastReply: boolean;
  /** The path's end: a stopped reply here can be continued. */
  isLast: boolean;
  highlighted: boolean;
  /** The words a search found in this message, marked in its text. */
  terms?: readonly string[] | undefined;
}) {
  const t = useT();
  const streaming = useChatStore((s) => s.streaming[message.id] === true);
  const row = useRef<HTMLElement>(null);
  const termsKey = terms?.join('\u0000');
  useEffect(() => {
    if (!row.current || !termsKey) return;
    return highlightTerms(row.current, termsKey.split('\u0000'));
  }, [termsKey]);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.content);
  const copy = () => copyMessage(useStreamStore.getState().texts[message.id] ?? message.content);

  const role =
    message.role === 'user'
      ? t('chat.message.you')
      : (message.model ?? t('chat.message.assistant'));
  const stopped = message.role === 'assistant' && message.status === 'interrupted' && !streaming;
  return (
    <article
      ref={row}
      className="chat-message"
      data-role={message.role}
      data-status={streaming ? 'streaming' : message.status}
      data-message-id={message.id}
      data-highlighted={highlighted || undefined}
      aria-label={t(message.role === 'user' ? 'chat.message.yours' : 'chat.message.reply')}
    >
      <header className="chat-message-head">
        <span className="chat-message-role">{role}</span>
        {message.branch && (
          <VersionSwitcher messageId={message.id} branch={message.branch} disabled={streaming} />
        )}
        {streaming && <span className="chat-badge chat-badge-live">{t('chat.writing')}</span>}
      </header>
      {editing ? (
        <EditBox
          text={draft}
          onChange={setDraft}
          onCancel={() => setEditing(false)}
          onSend={() => {
            if (draft.trim() === '') return;
            setEditing(false);
            void editAndResend(message.id, draft);
          }}
        />
      ) : message.role === 'user' ? (
        <div className="chat-user-text">{message.content}</div>
      ) : (
        <>
          <ReplyToolCalls replyId={message.id} stored={message.tools} streaming={streaming} />
          <ReplyBody
            replyId={message.id}
            content={message.content}
            cutShort={message.status === 'interrupted' || message.status === 'error'}
          />
        </>
      )}
      {message.attachments && message.attachments.length > 0 && (
        <MessageAttachments files={message.attachments} />
      )}
      {streaming && <RetryCountdown replyId={message.id} />}
      {!streaming && message.error && (
        <ReplyErrorView
          error={message.error}
          conversationId={conversationId}
          retry={!stopped || !isLastReply ? undefined : false}
        />
      )}
      {stopped && (
        <StoppedLine
          reply={message}
          canContinue={isLast && message.content !== ''}
          canRegenerate={isLastReply}
          conversationId={conversationId}
        />
      )}
      {!editing && (
        <footer className="chat-message-tools">
          {!streaming && (
            <div
              className="chat-message-actions"
              role="group"
              aria-label={t('chat.message.actions')}
              data-always={(message.role === 'assistant' && isLastReply) || undefined}
            >
              <MessageAction icon="copy" label={t('chat.message.copy')} onClick={copy} />
              {message.role === 'user' && (
                <MessageAction
                  icon="edit"
                  label={t('chat.message.edit')}
                  onClick={() => {
                    setDraft(message.content);
                    setEditing(true);
                  }}
                />
              )}
              {message.role === 'assistant' && isLastReply && !stopped && (
                <MessageAction
                  icon="regenerate"
                  label={t('chat.regenerate')}
                  onClick={() => regenerateReply(conversationId)}
                />
              )}
              <MessageAction
                icon="branch"
                label={t('chat.message.branch')}
                title={t('chat.message.branch.title')}
                onClick={() => branchFromHere(message.id)}
              />
            </div>
          )}
          {!streaming && message.role === 'assistant' && <SourcesButton replyId={message.id} />}
          {message.usage?.totalTokens !== undefined && (
            <span className="chat-usage" title={t('chat.message.usage.title')}>
              {t('chat.message.usage', {
                prompt: formatNumber(message.usage.promptTokens ?? 0),
                completion: formatNumber(message.usage.completionTokens ?? 0),
                count: message.usage.totalTokens,
              })}
            </span>
          )}
          {message.role === 'assistant' && (
            <ReplyCost model={message.model} usage={message.usage} />
          )}
        </footer>
      )}
    </article>
  );
});

/**
 * A message's action: a quiet icon with its name for screen readers and as a tooltip. The group
 * shows on hover and while focus is inside the message, so Tab reaches it at any time.
 */
function MessageAction({
  icon,
  label,
  title,
  onClick,
}: {
  icon: IconName;
  label: string;
  /** A longer tooltip than the name, where the name alone says too little. */
  title?: string;
  onClick: () => unknown;
}) {
  return (
    <button
      type="button"
      className="icon-button chat-message-action"
      aria-label={label}
      title={title ?? label}
      onClick={() => void onClick()}
    >
      <Icon name={icon} />
    </button>
  );
}

/**
 * A sent message being edited: the box takes the focus with the cursor after the text, and
 * Enter sends as it does in the message box (the person's "Enter sends" choice).
 */
function EditBox({
  text,
  onChange,
  onCancel,
  onSend,
}: {
  text: string;
  onChange(text: string): void;
  onCancel(): void;
  onSend(): void;
}) {
  const t = useT();
  const enterSends = useChatStore((s) => s.enterSends);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const area = box.current;
    if (!area) return;
    area.focus({ preventScroll: true });
    area.setSelectionRange(area.value.length, area.value.length);
  }, []);
  return (
    <form
      className="chat-edit"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <textarea
        ref={box}
        className="input chat-edit-input"
        aria-label={t('chat.edit.label')}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (sendsMessage(event, enterSends)) {
            event.preventDefault();
            onSend();
          }
        }}
        rows={Math.min(12, Math.max(2, text.split('\n').length))}
      />
      {text.trim() === '' && <p className="field-error">{t('chat.composer.empty')}</p>}
      <div className="chat-message-tools">
        <button type="submit" className="button button-small button-primary">
          {t('chat.edit.save')}
        </button>
        <button type="button" className="button button-small" onClick={onCancel}>
          {t('chat.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * The end of a reply that stopped before it was finished (stopped, or cut off): a quiet line that
 * says so, with Continue (the rest, added to this reply) and Regenerate (a new version).
 */
function StoppedLine({
  reply,
  canContinue,
  canRegenerate,
  conversationId,
}: {
  reply: ChatMessage;
  canContinue: boolean;
  canRegenerate: boolean;
  conversationId: string;
}) {
  const t = useT();
  const stream = useChatStore((s) => s.stream);
  const again = (work: () => Promise<boolean>) => {
    // The buttons go while the reply streams again: typing goes on in the message box.
    useChatStore.getState().composerFocusRequested(true);
    void work();
  };
  return (
    <div className="chat-stopped" role="group" aria-label={t('chat.stopped.label')}>
      <span className="chat-stopped-label">
        <Icon name="stop" />
        {t('chat.stopped')}
      </span>
      {canContinue && (
        <button
          type="button"
          className="button button-small"
          title={t('chat.stopped.continue.title')}
          onClick={() => again(() => continueReply(reply.id, reply.content, stream))}
        >
          <Icon name="continue" />
          {t('chat.stopped.continue')}
        </button>
      )}
      {canRegenerate && (
        <button
          type="button"
          className="button button-small"
          title={t('chat.stopped.regenerate.title')}
          onClick={() => again(() => regenerateReply(conversationId, stream))}
        >
          <Icon name="regenerate" />
          {t('chat.regenerate')}
        </button>
      )}
    </div>
  );
}
