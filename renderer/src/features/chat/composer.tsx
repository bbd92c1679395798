import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from '../../components/icon';
import { formatNumber } from '../../i18n/format';
import { useT, type MessageKey } from '../../i18n/i18n';
import {
  AttachmentChips,
  estimateTokens,
  imagesWarning,
  useAttachmentDrafts,
  type AttachmentDrafts,
} from './attachments';
import { CompareLauncher } from './compare-view';
import {
  readComposerSettings,
  saveConversationSettings,
  sendMessage,
  stopStreaming,
} from './chat-actions';
import { useChatStore } from './chat-store';
import type { ConversationSummary } from './chat-types';
import { readRequestFields, type RequestFieldErrors } from './composer-fields';
import { sendsMessage } from './send-key';
import { useSnippetInsert } from './snippet-insert';
import { ResourcePicker } from './tools/resource-picker';

/**
 * The message box and the conversation's request settings (system prompt, sampling); the model
 * and the chat options are in the conversation's header.
 */
/**
 * The message box and "Compare models…" above it: one set of attached files, sent with whichever
 * sends the message.
 */
export function ChatInput({ conversation }: { conversation: ConversationSummary }) {
  // Kept when the new chat becomes a conversation at its first send: its files went with it.
  const composerFor = useChatStore((s) => s.composerFor);
  const files = useAttachmentDrafts(composerFor);
  return (
    <>
      <CompareLauncher conversation={conversation} files={files} />
      <Composer conversation={conversation} files={files} />
    </>
  );
}

export function Composer({
  conversation,
  files,
}: {
  conversation: ConversationSummary;
  files: AttachmentDrafts;
}) {
  const t = useT();
  const streamingCount = useChatStore((s) => Object.keys(s.streaming).length);
  const [text, setText] = useState('');
  const enterSends = useChatStore((s) => s.enterSends);
  const stream = useChatStore((s) => s.stream);
  const [defaultTemperature, setDefaultTemperature] = useState<number>(1);
  const [temperature, setTemperature] = useState(conversation.temperature?.toString() ?? '');
  const [maxTokens, setMaxTokens] = useState(conversation.maxTokens?.toString() ?? '');
  const [systemPrompt, setSystemPrompt] = useState(conversation.systemPrompt);
  const [errors, setErrors] = useState<
    RequestFieldErrors & { model?: MessageKey; text?: MessageKey; images?: string }
  >({});
  const showSettings = useChatStore((s) => s.settingsOpen);
  const setShowSettings = (open: boolean) => useChatStore.getState().settingsToggled(open);
  const systemPromptInput = useRef<HTMLTextAreaElement>(null);
  // Opened from the chat options: the first field takes the focus.
  const settingsShown = useRef(showSettings);
  useEffect(() => {
    if (showSettings && !settingsShown.current) systemPromptInput.current?.focus();
    settingsShown.current = showSettings;
  }, [showSettings]);
  // Sending waits for the reply being written: Enter then says so, under the message box.
  const [waitHint, setWaitHint] = useState(false);
  useEffect(() => {
    if (streamingCount === 0) setWaitHint(false);
  }, [streamingCount]);
  // A compare waits for its reply to be chosen: sending says so here, not as a refusal.
  const choosing = useChatStore((s) => s.compare !== undefined);
  const [chooseHint, setChooseHint] = useState(false);
  useEffect(() => {
    if (!choosing) setChooseHint(false);
  }, [choosing]);
  const input = useRef<HTMLTextAreaElement>(null);
  const focusAsked = useChatStore((s) => s.composerFocus);
  const snippets = useSnippetInsert({
    text,
    setText,
    input,
    serverIds: conversation.toolServerIds ?? [],
  });
  const [contextTokens, setContextTokens] = useState<number | undefined>(undefined);

  // A suggestion chosen: it fills the message box, ready to edit or send.
  const draft = useChatStore((s) => s.draft);
  useEffect(() => {
    if (!draft) return;
    useChatStore.getState().draftTaken();
    setText(draft.text);
    setErrors({});
    const box = input.current;
    box?.focus();
    box?.setSelectionRange(draft.text.length, draft.text.length);
  }, [draft]);

  // The app reopened this conversation at start: the message box is where typing goes.
  // A request that arrives late never takes the typing from another field the person is in (the
  // conversation search, say): only from a button, the page, or nothing.
  useEffect(() => {
    if (!focusAsked) return;
    const active = document.activeElement;
    const typingElsewhere =
      active instanceof HTMLElement &&
      active !== input.current &&
      (active.matches('input, textarea, select') || active.isContentEditable);
    if (!typingElsewhere) input.current?.focus();
    useChatStore.getState().composerFocusRequested(false);
  }, [focusAsked]);

  const composerFor = useChatStore((s) => s.composerFor);
  useEffect(() => {
    setTemperature(conversation.temperature?.toString() ?? '');
    setMaxTokens(conversation.maxTokens?.toString() ?? '');
    setSystemPrompt(conversation.systemPrompt);
    setErrors({});
    // Only when another conversation is opened (or a new chat): edits in progress are kept
    // otherwise, and when the new chat becomes a conversation at its first send.
  }, [composerFor]);

  useEffect(() => {
    void readComposerSettings()?.then((s) => {
      setDefaultTemperature(s.chatDefaults.temperature);
      setContextTokens(s.attachments.contextTokens);
    });
  }, []);

  async function send() {
    if (streamingCount > 0) {
      setWaitHint(true);
      return;
    }
    if (choosing) {
      setChooseHint(true);
      return;
    }
    const read = readRequestFields({ temperature, maxTokens });
    const problems: typeof errors = read.ok ? {} : { ...read.errors };
    if (!conversation.model) {
      // The relay's problem is said above, with its way on: that is where the keyboard goes,
      // rather than to a second notice here.
      if (useChatStore.getState().chatModels.status === 'failed')
        return useChatStore.getState().remedyRequested();
      problems.model = 'chat.composer.noModel';
    }
    if (text.trim() === '') problems.text = 'chat.composer.empty';
    // Images to a model that reads none: said here, and nothing is sent (text and files stay).
    const images =
      Object.keys(problems).length === 0 && conversation.model
        ? await imagesWarning(conversation.model, files.files)
        : undefined;
    if (images !== undefined) problems.images = images;
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
    const attachmentIds = files.files.map((f) => f.id);
    setText('');
    // Refused (a file gone since it was attached, say): the text and the files stay as they were.
    if (!(await sendMessage(conversation.id, message, stream, attachmentIds))) setText(message);
    else files.sent();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (snippets.onKeyDown(event)) return;
    if (sendsMessage(event, enterSends)) {
      event.preventDefault();
      void send();
    }
  }

  return (
    <div className="chat-composer" data-dragging={files.dragging || undefined} {...files.dropProps}>
      {conversation.usage.totalTokens > 0 && (
        <div className="chat-composer-bar">
          <span className="chat-usage" aria-label={t('chat.composer.usage.label')}>
            {t('chat.composer.usage', { count: conversation.usage.totalTokens })}
          </span>
        </div>
      )}
      {errors.model && <p className="field-error">{t(errors.model)}</p>}
      {showSettings && (
        <div className="chat-settings" role="group" aria-label={t('chat.sampling')}>
          <button
            type="button"
            className="icon-button chat-settings-close"
            aria-label={t('chat.sampling.hide')}
            title={t('chat.sampling.hide')}
            onClick={() => setShowSettings(false)}
          >
            <Icon name="close" />
          </button>
          <label className="field">
            <span className="field-label">{t('chat.sampling.systemPrompt')}</span>
            <textarea
              ref={systemPromptInput}
              className="input"
              rows={3}
              value={systemPrompt}
              onChange={(e) => setSystemPrompt(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field-label">{t('chat.sampling.temperature')}</span>
            <input
              className="input"
              inputMode="decimal"
              placeholder={t('chat.sampling.temperature.default', {
                value: formatNumber(defaultTemperature),
              })}
              value={temperature}
              aria-invalid={errors.temperature ? true : undefined}
              onChange={(e) => setTemperature(e.target.value)}
            />
            {errors.temperature && <span className="field-error">{t(errors.temperature)}</span>}
          </label>
          <label className="field">
            <span className="field-label">{t('chat.sampling.maxTokens')}</span>
            <input
              className="input"
              inputMode="numeric"
              placeholder={t('chat.sampling.maxTokens.none')}
              value={maxTokens}
              aria-invalid={errors.maxTokens ? true : undefined}
              onChange={(e) => setMaxTokens(e.target.value)}
            />
            {errors.maxTokens && <span className="field-error">{t(errors.maxTokens)}</span>}
          </label>
        </div>
      )}
      {snippets.element}
      <AttachmentChips
        drafts={files}
        contextTokens={contextTokens}
        textTokens={estimateTokens(text)}
      />
      {errors.images && (
        <p className="field-error" role="alert">
          {errors.images}
        </p>
      )}
      <div className="chat-compose-row">
        <button
          type="button"
          className="icon-button chat-attach"
          aria-label={t('chat.composer.attach')}
          title={t('chat.composer.attach.title')}
          disabled={files.reading}
          onClick={() => void files.pick()}
        >
          <Icon name="attach" />
        </button>
        <ResourcePicker
          serverIds={conversation.toolServerIds ?? []}
          disabled={files.reading}
          onChoose={(serverId, uri) => void files.attachResource(serverId, uri)}
        />
        <textarea
          ref={input}
          {...snippets.inputProps}
          className="input chat-input"
          aria-label={t('chat.composer.message')}
          placeholder={t(
            enterSends
              ? snippets.hasSnippets
                ? 'chat.composer.placeholder.enterSnippets'
                : 'chat.composer.placeholder.enter'
              : snippets.hasSnippets
                ? 'chat.composer.placeholder.ctrlSnippets'
                : 'chat.composer.placeholder.ctrl',
          )}
          rows={3}
          value={text}
          aria-invalid={errors.text ? true : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={files.onPaste}
        />
        {streamingCount > 0 ? (
          <button type="button" className="button" onClick={stopStreaming}>
            {t('chat.stop')}
          </button>
        ) : (
          <button type="button" className="button button-primary" onClick={() => void send()}>
            {t('chat.composer.send')}
          </button>
        )}
      </div>
      {errors.text && <p className="field-error">{t(errors.text)}</p>}
      {waitHint && (
        <p className="chat-composer-hint" role="status">
          {t('chat.composer.wait')}
        </p>
      )}
      {chooseHint && !waitHint && (
        <p className="chat-composer-hint" role="status">
          {t('chat.composer.chooseReply', { button: t('chat.compare.continueWith') })}
        </p>
      )}
    </div>
  );
}
