import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { Icon } from '../../components/icon';
import { PopoverButton } from '../../components/popover-button';
import { relayBridge, type RelayModel } from '../../lib/relay-bridge';
import { saveConversationSettings } from './chat-actions';
import { useChatStore } from './chat-store';
import type { ConversationSummary } from './chat-types';
import { ConversationCostSummary } from './reply-cost';

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
  /** The conversation is open and shown: its model and options can be changed. */
  ready: boolean;
}) {
  const listHidden = useChatStore((s) => s.listHidden);
  return (
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
      {conversation && <PromptOrigin conversationId={conversation.id} />}
      {conversation && <ConversationCostSummary conversation={conversation} />}
      {ready && conversation && (
        <>
          <ModelChip conversation={conversation} />
          <Suspense fallback={null}>
            <KnowledgeChip conversationId={conversation.id} />
          </Suspense>
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
  const [origin, setOrigin] = useState<{ name: string; icon: string } | undefined>();
  const [changes, setChanges] = useState(0);
  useEffect(() => relayBridge()?.onPromptsChanged(() => setChanges((n) => n + 1)), []);
  useEffect(() => {
    const bridge = relayBridge();
    if (!bridge) return;
    let current = true;
    bridge.getConversationPrompt({ conversationId }).then(
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
    <p className="chat-prompt-origin" title={`Started from the prompt “${origin.name}”`}>
      <span className="visually-hidden">From the prompt </span>
      {origin.icon && <span aria-hidden="true">{origin.icon} </span>}
      <span className="chat-prompt-origin-name">{origin.name}</span>
    </p>
  );
}

/**
 * The conversation's model, as a chip that is the model choice itself. A conversation without a
 * model gets the one last used for chat (or the first chat model) as soon as the list is known.
 */
function ModelChip({ conversation }: { conversation: ConversationSummary }) {
  const [models, setModels] = useState<RelayModel[]>([]);

  useEffect(() => {
    const bridge = relayBridge();
    if (!bridge) return;
    void bridge.listModels().then(
      async (list) => {
        const chat = list.models.filter((m) => m.kind === 'chat');
        setModels(chat);
        if (!conversation.model) {
          const preferred = list.lastModel.chat ?? chat[0]?.id;
          if (preferred) await saveConversationSettings({ id: conversation.id, model: preferred });
        }
      },
      () => setModels([]),
    );
  }, [conversation.id, conversation.model]);

  async function chooseModel(modelId: string) {
    await saveConversationSettings({ id: conversation.id, model: modelId });
    await relayBridge()?.setLastModel({ feature: 'chat', modelId });
  }

  return (
    <label className="chat-model-chip" title="The model this conversation asks: click to change">
      <Icon name="models" />
      <select
        aria-label="Chat model"
        value={conversation.model ?? ''}
        data-unset={conversation.model ? undefined : true}
        onChange={(event) => void chooseModel(event.target.value)}
      >
        {!conversation.model && <option value="">Choose a model</option>}
        {conversation.model && !models.some((m) => m.id === conversation.model) && (
          <option value={conversation.model}>{conversation.model}</option>
        )}
        {models.map((model) => (
          <option key={model.id} value={model.id}>
            {model.id}
          </option>
        ))}
      </select>
      <Icon name="chevron-down" />
    </label>
  );
}

/** "Chat options": how replies arrive and what Enter does, in a small panel under an icon. */
function ChatOptions() {
  const stream = useChatStore((s) => s.stream);
  const enterSends = useChatStore((s) => s.enterSends);
  const settingsOpen = useChatStore((s) => s.settingsOpen);
  return (
    <PopoverButton label="Chat options" icon="sliders">
      <Option
        label="Stream"
        hint="Show replies as they are written."
        checked={stream}
        onChange={(on) => useChatStore.getState().streamSet(on)}
      />
      <Option
        label="Enter sends"
        hint={enterSends ? 'Shift+Enter starts a new line.' : 'Ctrl+Enter sends.'}
        checked={enterSends}
        onChange={(on) => useChatStore.getState().enterSendsSet(on)}
      />
      <button
        type="button"
        className="button button-small chat-option-more"
        aria-expanded={settingsOpen}
        onClick={() => useChatStore.getState().settingsToggled()}
      >
        {settingsOpen ? 'Hide system prompt and sampling' : 'System prompt and sampling…'}
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
