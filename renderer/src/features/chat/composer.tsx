import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { relayBridge, type RelayModel } from '../../lib/relay-bridge';
import { saveConversationSettings, sendMessage, stopStreaming } from './chat-actions';
import { useChatStore } from './chat-store';
import type { ConversationSummary } from './chat-types';
import { readRequestFields, type RequestFieldErrors } from './composer-fields';
import { useSnippetInsert } from './snippet-insert';

const ENTER_SENDS_KEY = 'relay.chat.enterSends';

/** The message box and the conversation's request settings (model, system prompt, sampling). */
export function Composer({ conversation }: { conversation: ConversationSummary }) {
  const streamingCount = useChatStore((s) => Object.keys(s.streaming).length);
  const [text, setText] = useState('');
  const [enterSends, setEnterSends] = useState(
    () => localStorage.getItem(ENTER_SENDS_KEY) !== 'false',
  );
  const [stream, setStream] = useState(true);
  const [models, setModels] = useState<RelayModel[]>([]);
  const [defaultTemperature, setDefaultTemperature] = useState<number>(1);
  const [temperature, setTemperature] = useState(conversation.temperature?.toString() ?? '');
  const [maxTokens, setMaxTokens] = useState(conversation.maxTokens?.toString() ?? '');
  const [systemPrompt, setSystemPrompt] = useState(conversation.systemPrompt);
  const [errors, setErrors] = useState<RequestFieldErrors & { model?: string; text?: string }>({});
  const [showSettings, setShowSettings] = useState(false);
  // Sending waits for the reply being written: Enter then says so, under the message box.
  const [waitHint, setWaitHint] = useState(false);
  useEffect(() => {
    if (streamingCount === 0) setWaitHint(false);
  }, [streamingCount]);
  const input = useRef<HTMLTextAreaElement>(null);
  const focusAsked = useChatStore((s) => s.composerFocus);
  const snippets = useSnippetInsert({ text, setText, input });

  // The app reopened this conversation at start: the message box is where typing goes.
  useEffect(() => {
    if (!focusAsked) return;
    input.current?.focus();
    useChatStore.getState().composerFocusRequested(false);
  }, [focusAsked]);

  useEffect(() => {
    setTemperature(conversation.temperature?.toString() ?? '');
    setMaxTokens(conversation.maxTokens?.toString() ?? '');
    setSystemPrompt(conversation.systemPrompt);
    setErrors({});
    // Only when another conversation is opened: edits in progress are kept otherwise.
  }, [conversation.id]);

  useEffect(() => {
    const bridge = relayBridge();
    if (!bridge) return;
    void bridge.getSettings().then((s) => setDefaultTemperature(s.chatDefaults.temperature));
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

  async function send() {
    if (streamingCount > 0) {
      setWaitHint(true);
      return;
    }
    const read = readRequestFields({ temperature, maxTokens });
    const problems: typeof errors = read.ok ? {} : { ...read.errors };
    if (!conversation.model) problems.model = 'Choose a chat model first.';
    if (text.trim() === '') problems.text = 'Write a message first.';
    setErrors(problems);
    if (!read.ok || Object.keys(problems).length > 0) {
      if (!read.ok) setShowSettings(true);
      return;
    }
    if (
      read.temperature !== conversation.temperature ||
      read.maxTokens !== conversation.maxTokens ||
      systemPrompt !== conversation.systemPrompt
    ) {
      const saved = await saveConversationSettings({
        id: conversation.id,
        temperature: read.temperature,
        maxTokens: read.maxTokens,
        systemPrompt,
      });
      if (!saved) return;
    }
    const message = text;
    setText('');
    if (!(await sendMessage(conversation.id, message, stream))) setText(message);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (snippets.onKeyDown(event)) return;
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    const sendKey = enterSends ? !event.shiftKey : event.ctrlKey || event.metaKey;
    if (sendKey) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <div className="chat-composer">
      <div className="chat-composer-bar">
        <label className="chat-inline-field">
          <span>Model</span>
          <select
            className="input"
            aria-label="Chat model"
            value={conversation.model ?? ''}
            aria-invalid={errors.model ? true : undefined}
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
        </label>
        <button
          type="button"
          className="button button-small"
          aria-expanded={showSettings}
          onClick={() => setShowSettings(!showSettings)}
        >
          Settings
        </button>
        <label className="chat-check">
          <input type="checkbox" checked={stream} onChange={(e) => setStream(e.target.checked)} />{' '}
          Stream
        </label>
        <label className="chat-check">
          <input
            type="checkbox"
            checked={enterSends}
            onChange={(e) => {
              setEnterSends(e.target.checked);
              localStorage.setItem(ENTER_SENDS_KEY, String(e.target.checked));
            }}
          />{' '}
          Enter sends
        </label>
        {conversation.usage.totalTokens > 0 && (
          <span className="chat-usage" aria-label="Tokens in this conversation">
            {conversation.usage.totalTokens} tokens in this conversation
          </span>
        )}
      </div>
      {errors.model && <p className="field-error">{errors.model}</p>}
      {showSettings && (
        <div className="chat-settings" aria-label="Conversation settings">
          <label className="field">
            <span className="field-label">System prompt</span>
            <textarea
              className="input"
              rows={3}
              value={systemPrompt}
              onChange={(e) => setSystemPrompt(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field-label">Temperature (0 to 2)</span>
            <input
              className="input"
              inputMode="decimal"
              placeholder={`Default: ${defaultTemperature}`}
              value={temperature}
              aria-invalid={errors.temperature ? true : undefined}
              onChange={(e) => setTemperature(e.target.value)}
            />
            {errors.temperature && <span className="field-error">{errors.temperature}</span>}
          </label>
          <label className="field">
            <span className="field-label">Max tokens</span>
            <input
              className="input"
              inputMode="numeric"
              placeholder="No limit"
              value={maxTokens}
              aria-invalid={errors.maxTokens ? true : undefined}
              onChange={(e) => setMaxTokens(e.target.value)}
            />
            {errors.maxTokens && <span className="field-error">{errors.maxTokens}</span>}
          </label>
        </div>
      )}
      {snippets.element}
      <div className="chat-compose-row">
        <textarea
          ref={input}
          {...snippets.inputProps}
          className="input chat-input"
          aria-label="Message"
          placeholder={
            enterSends
              ? 'Message (Enter sends, Shift+Enter breaks the line)'
              : 'Message (Ctrl+Enter sends)'
          }
          rows={3}
          value={text}
          aria-invalid={errors.text ? true : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {streamingCount > 0 ? (
          <button type="button" className="button" onClick={stopStreaming}>
            Stop
          </button>
        ) : (
          <button type="button" className="button button-primary" onClick={() => void send()}>
            Send
          </button>
        )}
      </div>
      {errors.text && <p className="field-error">{errors.text}</p>}
      {waitHint && (
        <p className="chat-composer-hint" role="status">
          Wait for the reply, or press Esc to stop.
        </p>
      )}
    </div>
  );
}
