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
import { Menu, MenuButton, useMenu, type MenuItem } from '../../components/menu';
import { opensContextMenu } from '../../components/menu-keys';
import { formatDate } from '../../i18n/format';
import { useT, type MessageKey } from '../../i18n/i18n';
import {
  deleteConversation,
  exportConversations,
  importConversations,
  jumpToHit,
  loadAllConversations,
  loadMoreConversations,
  openConversation,
  pinConversation,
  renameConversation,
  searchMessages,
  showNewChat,
} from './chat-actions';
import { useChatStore } from './chat-store';
import type { ConversationSummary, SearchHit } from './chat-types';
import { sectionHeading, type ListSection } from './conversation-pages';
import { shownTitle } from './conversation-title';

/**
 * The sidebar of the chat screen: search, new, the conversations (pinned first, then latest, under
 * a heading per day or month).
 */
export function ConversationList() {
  const t = useT();
  const conversations = useChatStore((s) => s.conversations);
  const activeId = useChatStore((s) => s.activeId);
  const query = useChatStore((s) => s.searchQuery);
  const now = useToday();
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const selectButton = useRef<HTMLButtonElement>(null);
  // Only conversations still in the list count (one may have been deleted meanwhile).
  const chosen = conversations.filter((c) => selected.has(c.id)).map((c) => c.id);
  const searching = query.trim() !== '';
  const hits = useChatStore((s) => s.searchHits);
  const [active, setActive] = useState(0);
  const activeHit = searching ? hits[Math.min(active, hits.length - 1)] : undefined;
  const returnTo = useRef<HTMLElement | null>(null);

  /** The search as a palette: arrows choose a hit, Enter opens it, Esc closes and goes back. */
  function onSearchKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (hits.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const next = (Math.min(active, hits.length - 1) + step + hits.length) % hits.length;
      setActive(next);
      document.getElementById(hitId(hits[next]!.messageId))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Enter') {
      if (!activeHit) return;
      event.preventDefault();
      void jumpToHit(activeHit, termsOf(activeHit));
    } else if (event.key === 'Escape') {
      // Esc closes the search; it must not also stop a reply streaming in the chat.
      event.preventDefault();
      event.stopPropagation();
      setActive(0);
      void searchMessages('');
      const back = returnTo.current;
      returnTo.current = null;
      if (back?.isConnected) back.focus();
      else document.querySelector<HTMLElement>('.chat-composer textarea')?.focus();
    }
  }

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
    <aside className="chat-sidebar" aria-label={t('chat.list.label')} onKeyDown={onKeyDown}>
      <div className="chat-sidebar-actions">
        <button type="button" className="button button-primary" onClick={showNewChat}>
          {t('chat.list.new')}
        </button>
        <button type="button" className="button" onClick={() => void importConversations()}>
          {t('chat.list.import')}
        </button>
        {!selecting && conversations.length > 0 && (
          <button
            ref={selectButton}
            type="button"
            className="button"
            onClick={() => setSelecting(true)}
          >
            {t('chat.list.select')}
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
        role="combobox"
        aria-expanded={searching}
        aria-controls={searching ? HITS_ID : undefined}
        aria-autocomplete="list"
        aria-activedescendant={activeHit === undefined ? undefined : hitId(activeHit.messageId)}
        placeholder={t('chat.search')}
        aria-label={t('chat.search')}
        value={query}
        onFocus={(event) => {
          // Where Esc sends focus back: what had it before (Ctrl+K from the message box).
          const from = event.relatedTarget;
          if (from instanceof HTMLElement && !from.closest('.chat-hits')) returnTo.current = from;
        }}
        onChange={(event) => {
          setActive(0);
          void searchMessages(event.target.value);
        }}
        onKeyDown={onSearchKey}
      />
      {searching ? (
        <SearchResults active={activeHit?.messageId} />
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
              <span className="chat-conversation-title">{shownTitle(conversation, t)}</span>
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
          itemContent={(index, conversation) => (
            <>
              <SectionHeading section={sectionHeading(conversations, index, now)} />
              <ConversationItem
                conversation={conversation}
                active={conversation.id === activeId}
                next={conversations[index + 1]?.id ?? conversations[index - 1]?.id}
              />
            </>
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

/** A section's heading: "Pinned", "Today", "Yesterday", … then the month ("March 2026"). */
function SectionHeading({ section }: { section: ListSection | undefined }) {
  const t = useT();
  if (!section) return null;
  return (
    <h2 className="chat-list-heading">
      {typeof section === 'object'
        ? formatDate(new Date(section.year, section.month - 1, 1), MONTH)
        : t(SECTION_NAMES[section])}
    </h2>
  );
}

/** A month's heading: "March 2026", "März 2026", "2026年3月". */
const MONTH: Intl.DateTimeFormatOptions = { month: 'long', year: 'numeric' };

const SECTION_NAMES = {
  pinned: 'chat.list.pinned',
  today: 'chat.list.today',
  yesterday: 'chat.list.yesterday',
  week: 'chat.list.week',
  month: 'chat.list.month',
} as const satisfies Record<string, MessageKey>;

/** Now, as the list's sections see it: read again at each local midnight. */
function useToday(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    const timer = setTimeout(() => setNow(new Date()), next.getTime() - now.getTime() + 1000);
    return () => clearTimeout(timer);
  }, [now]);
  return now;
}

/** The list element Virtuoso renders the rows in: a `ul`, named when `label` is given. */
function rowList(name: string, label?: MessageKey) {
  const List = forwardRef<HTMLUListElement, ListProps>(({ children, style, ...rest }, ref) => {
    const t = useT();
    return (
      <ul
        ref={ref}
        style={style}
        {...(rest as HTMLAttributes<HTMLUListElement>)}
        className="chat-conversations"
        {...(label === undefined ? {} : { 'aria-label': t(label) })}
      >
        {children}
      </ul>
    );
  });
  List.displayName = name;
  return List;
}

const ConversationRows = rowList('ConversationRows');
const ChoiceRows = rowList('ChoiceRows', 'chat.list.choose');

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
  const t = useT();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const all = total > 0 && chosen.length === total;
  return (
    <div className="chat-selection" role="toolbar" aria-label={t('chat.selection')}>
      <span className="chat-selection-count" role="status">
        {t('chat.selection.count', { count: chosen.length })}
      </span>
      <button
        ref={first}
        type="button"
        className="button button-small"
        onClick={() => onSelectAll(!all)}
      >
        {t(all ? 'chat.selection.none' : 'chat.selection.all')}
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={chosen.length === 0}
        onClick={() => void exportConversations(chosen, 'markdown')}
      >
        {t('chat.selection.markdown')}
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={chosen.length === 0}
        onClick={() => void exportConversations(chosen, 'json')}
      >
        {t('chat.selection.json')}
      </button>
      <button type="button" className="button button-small" onClick={onDone}>
        {t('chat.selection.done')}
      </button>
    </div>
  );
}

function ConversationItem({
  conversation,
  active,
  next,
}: {
  conversation: ConversationSummary;
  active: boolean;
  /** The row focus goes to when this one is deleted from its menu (Undo is in a notice). */
  next: string | undefined;
}) {
  const t = useT();
  const shown = shownTitle(conversation, t);
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(shown);
  // A key for the words the page writes; main's own message as it gave it.
  const [error, setError] = useState<{ key: MessageKey } | { message: string }>();
  const menu = useMenu();
  const openButton = useRef<HTMLButtonElement>(null);
  // After a rename ends, focus goes back to the row (its button is drawn again).
  const refocus = useRef(false);
  useEffect(() => {
    if (!renaming && refocus.current) {
      refocus.current = false;
      openButton.current?.focus();
    }
  }, [renaming]);

  function endRename() {
    refocus.current = true;
    setRenaming(false);
  }

  async function rename(event: FormEvent) {
    event.preventDefault();
    if (title.trim() === '') {
      setError({ key: 'chat.rename.empty' });
      return;
    }
    // The title as shown, untouched (main's default or a branch's, in the person's language):
    // nothing to save, and the stored one keeps following the language.
    if (title.trim() === shown) {
      setError(undefined);
      endRename();
      return;
    }
    try {
      await renameConversation(conversation.id, title.trim());
      setError(undefined);
      endRename();
    } catch (failure) {
      const message = (failure as { message?: string }).message;
      setError(message ? { message } : { key: 'chat.rename.failed' });
    }
  }

  const items: MenuItem[] = [
    {
      label: t('chat.menu.rename'),
      onSelect: () => {
        // The title as the person reads it: "Neue Unterhaltung", not the stored English.
        setTitle(shown);
        setRenaming(true);
      },
    },
    {
      label: t(conversation.pinned ? 'chat.menu.unpin' : 'chat.menu.pin'),
      onSelect: () =>
        void pinConversation(conversation.id, !conversation.pinned).then(() =>
          focusRow(conversation.id),
        ),
    },
    {
      label: t('chat.menu.export'),
      items: [
        {
          label: t('chat.menu.export.markdown'),
          onSelect: () => void exportConversations([conversation.id], 'markdown'),
        },
        {
          label: t('chat.menu.export.json'),
          onSelect: () => void exportConversations([conversation.id], 'json'),
        },
        {
          label: t('chat.menu.export.zip'),
          onSelect: () => void exportConversations([conversation.id], 'zip'),
        },
      ],
    },
    {
      label: t('chat.menu.delete'),
      danger: true,
      onSelect: () =>
        void deleteConversation(conversation.id).then((deleted) => {
          if (!deleted) return;
          if (next) focusRow(next);
          else document.querySelector<HTMLElement>('.chat-search')?.focus();
        }),
    },
  ];

  if (renaming) {
    return (
      <div className="chat-conversation">
        <form onSubmit={(event) => void rename(event)} className="chat-rename">
          <input
            className="input"
            aria-label={t('chat.rename.title')}
            value={title}
            autoFocus
            aria-invalid={error ? true : undefined}
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                // Esc cancels the rename; it must not also stop a reply streaming in the chat.
                event.preventDefault();
                event.stopPropagation();
                endRename();
              }
            }}
          />
          {error &&
            ('message' in error ? (
              <p className="field-error" data-source="main">
                {error.message}
              </p>
            ) : (
              <p className="field-error">{t(error.key)}</p>
            ))}
          <button type="submit" className="button button-small">
            {t('chat.rename.save')}
          </button>
        </form>
      </div>
    );
  }
  return (
    <div
      className="chat-conversation"
      data-active={active || undefined}
      data-conversation-id={conversation.id}
      data-menu-open={menu.open || undefined}
      onKeyDown={(event) => {
        if (!opensContextMenu(event)) return;
        event.preventDefault();
        const from = event.target as HTMLElement;
        if (menu.button.current) menu.openUnder(menu.button.current, from);
      }}
      onContextMenu={(event) => {
        event.preventDefault();
        if (menu.open) return;
        menu.openAt(event.clientX, event.clientY, event.currentTarget, openButton.current);
      }}
    >
      <button
        ref={openButton}
        type="button"
        className="chat-conversation-open"
        aria-current={active ? 'page' : undefined}
        onClick={() => void openConversation(conversation.id)}
      >
        {conversation.pinned && (
          <span className="chat-pin-mark" role="img" aria-label={t('chat.list.pinned')}>
            <Icon name="pin" />
          </span>
        )}
        {conversation.forkedFrom && (
          <span
            className="chat-branch-mark"
            role="img"
            aria-label={t('chat.list.branchOf', { title: shownTitle(conversation.forkedFrom, t) })}
            title={t('chat.list.branchOf', { title: shownTitle(conversation.forkedFrom, t) })}
          >
            <Icon name="branch" />
          </span>
        )}
        <span className="chat-conversation-title" title={shown}>
          {shown}
        </span>
      </button>
      <MenuButton
        menu={menu}
        label={t('chat.menu.label', { title: shown })}
        className="chat-conversation-more"
      />
      {menu.open && menu.anchor && (
        <Menu
          items={items}
          label={t('chat.menu.label', { title: shown })}
          anchor={menu.anchor}
          onClose={menu.close}
        />
      )}
    </div>
  );
}

/** Focuses a conversation's row once it is drawn (it moved: pinned, unpinned). */
function focusRow(id: string) {
  requestAnimationFrame(() =>
    document
      .querySelector<HTMLElement>(
        `.chat-conversation[data-conversation-id="${CSS.escape(id)}"] .chat-conversation-open`,
      )
      ?.focus(),
  );
}

const HITS_ID = 'chat-search-hits';
const hitId = (messageId: string) => `chat-hit-${messageId}`;

/** The hits, a list the field drives (arrows, Enter); a click opens one too. */
function SearchResults({ active }: { active: string | undefined }) {
  const t = useT();
  const { hits, status } = useChatStore(
    useShallow((s) => ({ hits: s.searchHits, status: s.searchStatus })),
  );
  if (status === 'loading' && hits.length === 0)
    return <p className="muted">{t('chat.search.running')}</p>;
  if (status === 'failed') return <p className="field-error">{t('chat.search.failed')}</p>;
  if (status === 'ready' && hits.length === 0)
    return <p className="muted">{t('chat.search.none')}</p>;
  return (
    <ul id={HITS_ID} role="listbox" className="chat-hits" aria-label={t('chat.search.results')}>
      {hits.map((hit) => (
        <li
          key={hit.messageId}
          id={hitId(hit.messageId)}
          role="option"
          aria-selected={hit.messageId === active}
          className="chat-hit"
          onClick={() => void jumpToHit(hit, termsOf(hit))}
        >
          <span className="chat-hit-title">{shownTitle({ title: hit.conversationTitle }, t)}</span>
          <span className="chat-hit-snippet">
            {hit.snippet.map((part, i) =>
              part.hit ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

function termsOf(hit: SearchHit): string[] {
  return [...new Set(hit.snippet.filter((p) => p.hit).map((p) => p.text.toLowerCase()))];
}
