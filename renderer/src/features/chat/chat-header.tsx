import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { Icon } from '../../components/icon';
import { PopoverButton } from '../../components/popover-button';
import { useT } from '../../i18n/i18n';
import { readConversationPrompt, watchPrompts } from './chat-actions';
import { NEW_CHAT_ID, useChatStore } from './chat-store';
import type { ConversationSummary } from './chat-types';
import { shownTitle } from './conversation-title';
import { ModelPicker } from './model-picker';
import { ConversationCostSummary } from './reply-cost';
import { ToolsChip } from './tools/tools-chip';

/** The knowledge bases the conversation asks with, loaded after the chat screen. */
const KnowledgeChip = lazy(() => import('./knowledge/knowledge-chip'));

/**
 * Above the open conversation: the list's toggle, the title, the conversation's model as a chip
 * (the model choice: a click opens the list of chat models) and "Chat options".
 */
export function ChatHeader({
  conversation,
  ready,
}: {
  conversation: ConversationSummary | undefined;
  /** The conversation (or the new chat) is shown: its model and options can be changed. */
  ready: boolean;
}) {
  const t = useT();
  const listHidden = useChatStore((s) => s.listHidden);
  // The new chat: no title or cost until its first message makes it a conversation (the
  // knowledge bases and tool servers chosen meanwhile are kept for it then).
  const drafting = conversation?.id === NEW_CHAT_ID;
  const toggleName = t(listHidden ? 'chat.list.show' : 'chat.list.hide');
  return (
    <header className="chat-header">
      <button
        type="button"
        className="icon-button"
        aria-label={toggleName}
        title={toggleName}
        aria-expanded={!listHidden}
        onClick={() => useChatStore.getState().listToggled()}
      >
        <Icon name="sidebar" />
      </button>
      <p className="chat-header-title">
        {conversation && !drafting ? shownTitle(conversation, t) : t('chat.list.new')}
      </p>
      {conversation && !drafting && <PromptOrigin conversationId={conversation.id} />}
      {conversation && !drafting && <ConversationCostSummary conversation={conversation} />}
      {ready && conversation && (
        <>
          <ModelPicker conversation={conversation} />
          <Suspense fallback={null}>
            <KnowledgeChip key={conversation.id} conversationId={conversation.id} />
          </Suspense>
          <ToolsChip
            key={conversation.id}
            conversationId={conversation.id}
            chosen={conversation.toolServerIds ?? []}
          />
          <ChatOptions />
        </>
      )}
    </header>
  );
}

/**
 * The saved prompt a conversation was started from, as a quiet label ("🧭 Trip planner"): read
 * again when the library changes; nothing when there is none or the prompt was deleted since.
 */
function PromptOrigin({ conversationId }: { conversationId: string }) {
  const t = useT();
  const [origin, setOrigin] = useState<{ name: string; icon: string } | undefined>();
  const [changes, setChanges] = useState(0);
  useEffect(() => watchPrompts(() => setChanges((n) => n + 1)), []);
  useEffect(() => {
    const reading = readConversationPrompt(conversationId);
    if (!reading) return;
    let current = true;
    reading.then(
      (found) => {
        if (current)
          setOrigin(found?.promptId ? { name: found.name, icon: found.icon } : undefined);
      },
      () => {
        if (current) setOrigin(undefined);
      },
    );
    return () => {
      current = false;
    };
  }, [conversationId, changes]);
  if (!origin) return null;
  return (
    <p className="chat-prompt-origin" title={t('chat.promptOrigin.title', { name: origin.name })}>
      <span className="visually-hidden">{t('chat.promptOrigin.label')} </span>
      {origin.icon && <span aria-hidden="true">{origin.icon} </span>}
      <span className="chat-prompt-origin-name">{origin.name}</span>
    </p>
  );
}

/** "Chat options": how replies arrive and what Enter does, in a small panel under an icon. */
function ChatOptions() {
  const t = useT();
  const stream = useChatStore((s) => s.stream);
  const enterSends = useChatStore((s) => s.enterSends);
  const settingsOpen = useChatStore((s) => s.settingsOpen);
  return (
    <PopoverButton label={t('chat.options')} icon="sliders">
      <Option
        label={t('chat.options.stream')}
        hint={t('chat.options.stream.hint')}
        checked={stream}
        onChange={(on) => useChatStore.getState().streamSet(on)}
      />
      <Option
        label={t('chat.options.enterSends')}
        hint={t(enterSends ? 'chat.options.enterSends.on' : 'chat.options.enterSends.off')}
        checked={enterSends}
        onChange={(on) => useChatStore.getState().enterSendsSet(on)}
      />
      <button
        type="button"
        className="button button-small chat-option-more"
        aria-expanded={settingsOpen}
        onClick={() => useChatStore.getState().settingsToggled()}
      >
        {t(settingsOpen ? 'chat.options.sampling.hide' : 'chat.options.sampling.show')}
      </button>
    </PopoverButton>
  );
}

function Option({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="chat-option">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <p id={`${id}-hint`} className="chat-option-hint">
        {hint}
      </p>
    </div>
  );
}
