import {
  forwardRef,
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type HTMLAttributes,
  type KeyboardEvent,
} from 'react';
import { Virtuoso, type ItemProps, type ListProps } from 'react-virtuoso';
import { useShallow } from 'zustand/react/shallow';
import { Icon } from '../../components/icon';
import {
  deleteConversation,
  exportConversations,
  importConversations,
  jumpToHit,
  loadAllConversations,
  loadMoreConversations,
  newConversation,
  openConversation,
  pinConversation,
  renameConversation,
  searchMessages,
  undoDelete,
} from './chat-actions';
import { useChatStore } from './chat-store';
import type { ConversationSummary, SearchHit } from './chat-types';

/** The sidebar of the chat screen: search, new, the conversations (pinned first, then latest). */
export function ConversationList() {
  const conversations = useChatStore((s) => s.conversations);
  const activeId = useChatStore((s) => s.activeId);
  const query = useChatStore((s) => s.searchQuery);
  const deleted = useChatStore((s) => s.deleted);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const selectButton = useRef<HTMLButtonElement>(null);
  // Only conversations still in the list count (one may have been deleted meanwhile).
  const chosen = conversations.filter((c) => selected.has(c.id)).map((c) => c.id);

  function leaveSelection() {
    setSelecting(false);
    setSelected(new Set());
    // The button that entered the mode is back: focus returns to it.
    requestAnimationFrame(() => selectButton.current?.focus());
  }

  function onKeyDown(event: KeyboardEvent) {
    if (selecting && event.key === 'Escape') {
      // Esc leaves the selection here; it must not also stop a reply streaming in the chat.
      event.stopPropagation();
      event.preventDefault();
      leaveSelection();
    }
  }

  return (
    <aside className="chat-sidebar" aria-label="Conversations" onKeyDown={onKeyDown}>
      <div className="chat-sidebar-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => void newConversation()}
        >
          New chat
        </button>
        <button type="button" className="button" onClick={() => void importConversations()}>
          Import
        </button>
        {!selecting && conversations.length > 0 && (
          <button
            ref={selectButton}
            type="button"
            className="button"
            onClick={() => setSelecting(true)}
          >
            Select
          </button>
        )}
      </div>
      {selecting && (
        <SelectionBar
          total={conversations.length}
          chosen={chosen}
          onSelectAll={(all) => {
            if (!all) return setSelected(new Set());
            // All of them, those the sidebar has not loaded yet included.
            void loadAllConversations().then(() =>
              setSelected(new Set(useChatStore.getState().conversations.map((c) => c.id))),
            );
          }}
          onDone={leaveSelection}
        />
      )}
      <input
        className="input chat-search"
        type="search"
        placeholder="Search messages"
        aria-label="Search messages"
        value={query}
        onChange={(event) => void searchMessages(event.target.value)}
      />
      {deleted && (
        <div className="chat-undo" role="status">
          <span>Deleted “{deleted.title}”.</span>
          <button type="button" className="button button-small" onClick={() => void undoDelete()}>
            Undo
          </button>
        </div>
      )}
      {query.trim() !== '' ? (
        <SearchResults />
      ) : selecting ? (
        <Virtuoso
          className="chat-conversations-scroller"
          data={conversations}
          computeItemKey={(_, conversation) => conversation.id}
          components={CHOICE_PARTS}
          increaseViewportBy={OVERSCAN}
          endReached={() => void loadMoreConversations()}
          itemContent={(_, conversation) => (
            <label className="chat-conversation-select">
              <input
                type="checkbox"
                checked={selected.has(conversation.id)}
                onChange={(event) => {
                  const next = new Set(selected);
                  if (event.target.checked) next.add(conversation.id);
                  else next.delete(conversation.id);
                  setSelected(next);
                }}
              />
              <span className="chat-conversation-title">{conversation.title}</span>
            </label>
          )}
        />
      ) : (
        <Virtuoso
          className="chat-conversations-scroller"
          data={conversations}
          computeItemKey={(_, conversation) => conversation.id}
          components={LIST_PARTS}
          increaseViewportBy={OVERSCAN}
          endReached={() => void loadMoreConversations()}
          itemContent={(_, conversation) => (
            <ConversationItem conversation={conversation} active={conversation.id === activeId} />
          )}
        />
      )}
    </aside>
  );
}

/**
 * The conversations as a virtualized list: only the rows near the view are in the page, so 20,000
 * conversations scroll as lightly as twenty. Still a list (`ul`/`li`) to assistive technology;
 * rows keep their focus while mounted, and Tab moves on to the next row, which is then mounted.
 */
const OVERSCAN = { top: 300, bottom: 300 };

/** The list element Virtuoso renders the rows in: a `ul`, named when `label` is given. */
function rowList(name: string, label?: string) {
  const List = forwardRef<HTMLUListElement, ListProps>(({ children, style, ...rest }, ref) => (
    <ul
      ref={ref}
      style={style}
      {...(rest as HTMLAttributes<HTMLUListElement>)}
      className="chat-conversations"
      {...(label === undefined ? {} : { 'aria-label': label })}
    >
      {children}
    </ul>
  ));
  List.displayName = name;
  return List;
}

const ConversationRows = rowList('ConversationRows');
const ChoiceRows = rowList('ChoiceRows', 'Choose conversations');

function Row({
  children,
  item: _item,
  context: _context,
  ...rest
}: ItemProps<unknown> & { context?: unknown }) {
  return (
    <li {...(rest as HTMLAttributes<HTMLLIElement>)} className="chat-conversation-row">
      {children}
    </li>
  );
}

const LIST_PARTS = { List: ConversationRows, Item: Row };
const CHOICE_PARTS = { List: ChoiceRows, Item: Row };

/** The selection mode's bar: how many are chosen, select all or none, export them, done. */
function SelectionBar({
  total,
  chosen,
  onSelectAll,
  onDone,
}: {
  total: number;
  chosen: string[];
  onSelectAll: (all: boolean) => void;
  onDone: () => void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const all = total > 0 && chosen.length === total;
  return (
    <div className="chat-selection" role="toolbar" aria-label="Selected conversations">
      <span className="chat-selection-count" role="status">
        {chosen.length} selected
      </span>
      <button
        ref={first}
        type="button"
        className="button button-small"
        onClick={() => onSelectAll(!all)}
      >
        {all ? 'Select none' : 'Select all'}
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={chosen.length === 0}
        onClick={() => void exportConversations(chosen, 'markdown')}
      >
        Export as Markdown
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={chosen.length === 0}
        onClick={() => void exportConversations(chosen, 'json')}
      >
        Export as JSON
      </button>
      <button type="button" className="button button-small" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function ConversationItem({
  conversation,
  active,
}: {
  conversation: ConversationSummary;
  active: boolean;
}) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const [error, setError] = useState<string>();

  async function rename(event: FormEvent) {
    event.preventDefault();
    if (title.trim() === '') {
      setError('Give the conversation a title.');
      return;
    }
    try {
      await renameConversation(conversation.id, title.trim());
      setRenaming(false);
      setError(undefined);
    } catch (failure) {
      setError((failure as { message?: string }).message ?? 'The title could not be saved.');
    }
  }

  if (renaming) {
    return (
      <div className="chat-conversation">
        <form onSubmit={(event) => void rename(event)} className="chat-rename">
          <input
            className="input"
            aria-label="Conversation title"
            value={title}
            autoFocus
            aria-invalid={error ? true : undefined}
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setRenaming(false);
            }}
          />
          {error && <p className="field-error">{error}</p>}
          <button type="submit" className="button button-small">
            Save
          </button>
        </form>
      </div>
    );
  }
  return (
    <div className="chat-conversation" data-active={active || undefined}>
      <button
        type="button"
        className="chat-conversation-open"
        aria-current={active ? 'page' : undefined}
        onClick={() => void openConversation(conversation.id)}
      >
        {conversation.pinned && (
          <span className="chat-pin-mark" role="img" aria-label="Pinned">
            <Icon name="pin" />
          </span>
        )}
        <span className="chat-conversation-title">{conversation.title}</span>
      </button>
      <span className="chat-conversation-tools">
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            setTitle(conversation.title);
            setRenaming(true);
          }}
          aria-label={`Rename ${conversation.title}`}
        >
          Rename
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void pinConversation(conversation.id, !conversation.pinned)}
          aria-label={`${conversation.pinned ? 'Unpin' : 'Pin'} ${conversation.title}`}
        >
          {conversation.pinned ? 'Unpin' : 'Pin'}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void exportConversations([conversation.id], 'markdown')}
          aria-label={`Export ${conversation.title} as Markdown, .md`}
        >
          .md
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => void exportConversations([conversation.id], 'json')}
          aria-label={`Export ${conversation.title} as JSON`}
        >
          .json
        </button>
        <button
          type="button"
          className="button button-small button-quiet-danger"
          onClick={() => void deleteConversation(conversation.id)}
          aria-label={`Delete ${conversation.title}`}
        >
          Delete
        </button>
      </span>
    </div>
  );
}

function SearchResults() {
  const { hits, status } = useChatStore(
    useShallow((s) => ({ hits: s.searchHits, status: s.searchStatus })),
  );
  if (status === 'loading' && hits.length === 0) return <p className="muted">Searching…</p>;
  if (status === 'failed') return <p className="field-error">The search could not run.</p>;
  if (status === 'ready' && hits.length === 0) return <p className="muted">No message matches.</p>;
  return (
    <ul className="chat-hits" aria-label="Search results">
      {hits.map((hit) => (
        <li key={hit.messageId}>
          <button
            type="button"
            className="chat-hit"
            onClick={() => void jumpToHit(hit, termsOf(hit))}
          >
            <span className="chat-hit-title">{hit.conversationTitle}</span>
            <span className="chat-hit-snippet">
              {hit.snippet.map((part, i) =>
                part.hit ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
              )}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function termsOf(hit: SearchHit): string[] {
  return [...new Set(hit.snippet.filter((p) => p.hit).map((p) => p.text.toLowerCase()))];
}
