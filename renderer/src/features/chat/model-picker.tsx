/**
 * The chat's model chip, a searchable picker: the models chosen recently first, then every
 * connection's chat models under its name (the one in use first), each with its marks (reads
 * images…). Fully keyboard-driven: typing filters, ↑ ↓ (Page Up, Page Down) move, Enter
 * chooses, Esc closes; a key typed on the chip opens it with that letter searched. A combobox
 * over a listbox (`aria-activedescendant`), so focus stays in the search field. At most
 * `SHOWN_PER_GROUP` options of each group are drawn: a relay with hundreds of models stays quick,
 * and typing narrows the rest down.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Icon, type IconName } from '../../components/icon';
import { useT } from '../../i18n/i18n';
import type { RelayModel } from '../../lib/relay-bridge';
import { chooseModelOn, giveModelIfNone, loadOtherChatModels } from './chat-actions';
import { useChatStore, type ModelConnection } from './chat-store';
import type { ConversationSummary } from './chat-types';
import { useModelChoiceStore, type ConnectionModels } from './model-choice-store';

/** The options drawn at most in a group; the rest are found by typing. */
export const SHOWN_PER_GROUP = 40;
/** How far Page Up and Page Down move. */
const PAGE = 8;

interface PickerOption {
  /** Unique in the list: the group and the model. */
  key: string;
  connection: ModelConnection;
  model: RelayModel;
}

interface PickerGroup {
  key: string;
  title: string;
  options: PickerOption[];
  /** How many more of its models match than are drawn. */
  hidden: number;
  /** Said under the title instead of (or after) the options: listing, or failed. */
  note?: string | undefined;
}

type T = ReturnType<typeof useT>;

/** The marks of what a model can do beyond text, each an icon and its words. */
function marksOf(model: RelayModel, t: T): { icon: IconName; label: string }[] {
  const marks: { icon: IconName; label: string }[] = [];
  if (model.acceptsImages) marks.push({ icon: 'eye', label: t('chat.model.mark.vision') });
  if (model.kind === 'embedding')
    marks.push({ icon: 'embeddings', label: t('chat.model.mark.embeddings') });
  if (model.kind === 'image') marks.push({ icon: 'images', label: t('chat.model.mark.images') });
  return marks;
}

/** Whether every word typed is in the model's id, owner, connection or marks. */
function matches(words: string[], option: PickerOption, t: T): boolean {
  if (words.length === 0) return true;
  const haystack = [
    option.model.id,
    option.model.ownedBy ?? '',
    option.connection.name,
    ...marksOf(option.model, t).map((mark) => mark.label),
  ]
    .join(' ')
    .toLocaleLowerCase();
  return words.every((word) => haystack.includes(word));
}

export function ModelPicker({ conversation }: { conversation: ConversationSummary }) {
  const t = useT();
  const chatModels = useChatStore((s) => s.chatModels);
  const others = useModelChoiceStore((s) => s.others);
  const recent = useModelChoiceStore((s) => s.recent);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const chip = useRef<HTMLButtonElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    void giveModelIfNone(conversation);
  }, [conversation.id, conversation.model, chatModels]);

  const inUse = chatModels.status === 'ready' ? chatModels.connection : undefined;
  const { groups, shown } = useMemo(
    () => buildGroups({ chatModels, others, recent, query, t }),
    [chatModels, others, recent, query, t],
  );

  function openPicker(typed = '') {
    setQuery(typed);
    setOpen(true);
    void loadOtherChatModels();
  }

  // On opening (and as the list changes while it is typed in), the option shown active is the
  // conversation's model, else the first.
  const current = shown.findIndex(
    (o) => o.model.id === conversation.model && o.connection.id === inUse?.id,
  );
  useEffect(() => {
    if (!open) return;
    setActive(query === '' && current >= 0 ? current : 0);
    // Only when opened or searched again, not when a connection's list arrives meanwhile.
  }, [open, query]);

  useEffect(() => {
    if (!open) return;
    search.current?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target instanceof Node ? event.target : null;
      if (panel.current?.contains(target) || chip.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  // The active option stays in view as the arrows move it.
  useEffect(() => {
    if (!open) return;
    document
      .getElementById(`${listId}-${active}`)
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [open, active, listId]);

  function close(refocus: boolean) {
    setOpen(false);
    if (refocus) chip.current?.focus();
  }

  function choose(option: PickerOption | undefined) {
    if (!option) return;
    close(true);
    void chooseModelOn(conversation.id, option.connection.id, option.model.id);
  }

  function onSearchKey(event: KeyboardEvent<HTMLInputElement>) {
    const last = shown.length - 1;
    const move = (to: number) => {
      event.preventDefault();
      setActive(Math.max(0, Math.min(last, to)));
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(active + 1);
      case 'ArrowUp':
        return move(active - 1);
      case 'PageDown':
        return move(active + PAGE);
      case 'PageUp':
        return move(active - PAGE);
      case 'Enter':
        event.preventDefault();
        return choose(shown[active]);
      case 'Escape':
        // Esc closes the picker, and nothing else (not the reply being written).
        event.preventDefault();
        event.stopPropagation();
        return close(true);
      case 'Tab':
        return close(false);
    }
  }

  function onChipKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openPicker();
    } else if (
      [...event.key].length === 1 &&
      event.key !== ' ' &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey
    ) {
      // Type-to-find from the chip itself.
      event.preventDefault();
      openPicker(event.key);
    }
  }

  const name = conversation.model ?? t('chat.model.choose');
  let index = 0;
  return (
    <div className="model-picker">
      <button
        ref={chip}
        type="button"
        className="chat-model-chip"
        aria-label={t('chat.model.chip', { model: name })}
        title={t('chat.model.chipTitle')}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-unset={conversation.model ? undefined : true}
        onClick={() => (open ? close(false) : openPicker())}
        onKeyDown={onChipKey}
      >
        <Icon name="models" />
        <span className="chat-model-name">{name}</span>
        <Icon name="chevron-down" />
      </button>
      {open && (
        <div
          ref={panel}
          className="model-picker-panel"
          role="dialog"
          aria-label={t('chat.model.picker')}
          onBlur={(event) => {
            const next = event.relatedTarget;
            if (next === null || panel.current?.contains(next) || next === chip.current) return;
            setOpen(false);
          }}
        >
          <div className="model-picker-search">
            <Icon name="search" />
            <input
              ref={search}
              className="input"
              type="text"
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-activedescendant={shown.length > 0 ? `${listId}-${active}` : undefined}
              aria-label={t('chat.model.search')}
              placeholder={t('chat.model.search')}
              autoComplete="off"
              spellCheck={false}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              onKeyDown={onSearchKey}
            />
          </div>
          <div
            id={listId}
            className="model-picker-list"
            role="listbox"
            aria-label={t('chat.model.label')}
            // A press on an option keeps the focus in the search field: moved to the chat behind,
            // it would close the picker before the click chose anything.
            onMouseDown={(event) => event.preventDefault()}
          >
            {groups.map((group) => (
              <div
                key={group.key}
                className="model-picker-group"
                role="group"
                aria-labelledby={`${listId}-${group.key}`}
              >
                <div
                  id={`${listId}-${group.key}`}
                  className="model-picker-group-title"
                  role="presentation"
                >
                  {group.title}
                </div>
                {group.options.map((option) => {
                  const at = index++;
                  const selected =
                    option.model.id === conversation.model && option.connection.id === inUse?.id;
                  return (
                    <div
                      key={option.key}
                      id={`${listId}-${at}`}
                      className="model-option"
                      role="option"
                      aria-selected={selected}
                      data-active={at === active || undefined}
                      data-model={option.model.id}
                      onPointerMove={() => {
                        if (at !== active) setActive(at);
                      }}
                      onClick={() => choose(option)}
                    >
                      <Icon name={selected ? 'check' : 'models'} className="model-option-icon" />
                      <span className="model-option-id">{option.model.id}</span>
                      {group.key === 'recent' && option.connection.id !== inUse?.id && (
                        <span className="model-option-owner">{option.connection.name}</span>
                      )}
                      {group.key !== 'recent' && option.model.ownedBy && (
                        <span className="model-option-owner">{option.model.ownedBy}</span>
                      )}
                      <span className="model-option-marks">
                        {marksOf(option.model, t).map((mark) => (
                          <span key={mark.icon} className="model-mark" title={mark.label}>
                            <Icon name={mark.icon} />
                            <span className="visually-hidden">{mark.label}</span>
                          </span>
                        ))}
                      </span>
                    </div>
                  );
                })}
                {group.hidden > 0 && (
                  <div className="model-picker-note" role="presentation">
                    {t('chat.model.more', { count: group.hidden })}
                  </div>
                )}
                {group.note && (
                  <div className="model-picker-note" role="presentation">
                    {group.note}
                  </div>
                )}
              </div>
            ))}
          </div>
          {shown.length === 0 && query.trim() !== '' && (
            <p className="model-picker-more" role="status">
              {t('chat.model.noMatch', { query: query.trim() })}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The groups as shown for the words typed: recent models, the connection in use, then the
 * others, each with at most `SHOWN_PER_GROUP` options (`shown` holds them all, in order).
 */
function buildGroups({
  chatModels,
  others,
  recent,
  query,
  t,
}: {
  chatModels: ReturnType<typeof useChatStore.getState>['chatModels'];
  others: ConnectionModels[];
  recent: { connectionId: string; model: string }[];
  query: string;
  t: T;
}): { groups: PickerGroup[]; shown: PickerOption[] } {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const lists: ConnectionModels[] = [];
  if (chatModels.status === 'ready' && chatModels.connection)
    lists.push({ connection: chatModels.connection, status: 'ready', models: chatModels.models });
  lists.push(...others);

  const shown: PickerOption[] = [];
  const groups: PickerGroup[] = [];
  const add = (group: Omit<PickerGroup, 'options' | 'hidden'>, options: PickerOption[]) => {
    const matching = options.filter((option) => matches(words, option, t));
    const taken = matching.slice(0, SHOWN_PER_GROUP);
    if (taken.length === 0 && group.note === undefined) return;
    shown.push(...taken);
    groups.push({ ...group, options: taken, hidden: matching.length - taken.length });
  };

  add(
    { key: 'recent', title: t('chat.model.recent') },
    recent.flatMap((entry) => {
      const list = lists.find((l) => l.connection.id === entry.connectionId);
      const model = list?.models.find((m) => m.id === entry.model);
      return list && model
        ? [{ key: `recent:${list.connection.id}:${model.id}`, connection: list.connection, model }]
        : [];
    }),
  );
  for (const [at, list] of lists.entries()) {
    add(
      {
        key: `c${at}`,
        title:
          at === 0 && chatModels.status === 'ready'
            ? t('chat.model.inUse', { name: list.connection.name })
            : list.connection.name,
        note:
          list.status === 'loading'
            ? t('chat.model.listing')
            : list.status === 'failed'
              ? t('chat.model.listFailed', { message: list.failure?.message ?? '' })
              : undefined,
      },
      list.models.map((model) => ({
        key: `${list.connection.id}:${model.id}`,
        connection: list.connection,
        model,
      })),
    );
  }
  return { groups, shown };
}
