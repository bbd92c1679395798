/**
 * Compare side by side: one message to 2–4 models (or one model at several temperatures), their
 * replies streaming at once in columns (stacked on a narrow window), each with its model, time to
 * first token, tokens per second, tokens and cost (at the person's price); each stops and fails
 * alone, and "Continue with this one" makes a reply the conversation's path (the others stay
 * reachable as its versions).
 */
import { useEffect, useState } from 'react';
import { RelayFailure } from '../../components/relay-failure';
import { formatCost, replyCost } from '../../lib/money';
import { requireBridge } from '../../lib/relay-bridge';
import { imagesWarning, type AttachmentDrafts } from './attachments';
import { SourcesButton } from './knowledge/sources-button';
import { compareModels, continueWith, stopReply, type CompareTarget } from './chat-actions';
import { useChatStore } from './chat-store';
import { priceOf, useCostStore } from './cost-store';
import type { ChatMessage, ConversationSummary } from './chat-types';
import { RetryCountdown } from './reply-error';
import { ReplyBody } from './streaming-reply';

const MAX_COLUMNS = 4;

/** The figures under a column: time to first token, speed and tokens, once known. */
function figures(reply: ChatMessage): string[] {
  const out: string[] = [];
  const first = reply.timing?.firstTokenMs;
  const duration = reply.timing?.durationMs;
  if (first !== undefined) out.push(`first token ${(first / 1000).toFixed(2)} s`);
  const tokens = reply.usage?.completionTokens;
  if (tokens !== undefined && first !== undefined && duration !== undefined && duration > first)
    out.push(`${Math.round(tokens / ((duration - first) / 1000))} tokens/s`);
  if (tokens !== undefined) out.push(`${tokens} tokens`);
  return out;
}

/** A column's cost, where the person entered a price for its model; "cost unknown" without. */
function CompareCost({ reply }: { reply: ChatMessage }) {
  const prices = useCostStore((s) => s.prices);
  if (!prices || reply.usage === undefined) return null;
  const cost = replyCost(reply.usage, priceOf(prices, reply.model));
  return (
    <span
      className={cost === null ? 'chat-cost chat-cost-unknown' : 'chat-cost'}
      title={
        cost === null
          ? `No price is entered for ${reply.model ?? 'this model'}: set one on the Models screen.`
          : 'At the price entered on the Models screen'
      }
    >
      {cost === null ? 'cost unknown' : formatCost(cost, prices.currency)}
    </span>
  );
}

function CompareColumn({ reply }: { reply: ChatMessage }) {
  const streaming = useChatStore((s) => s.streaming[reply.id] === true);
  const label = `${reply.model ?? 'Model'}${reply.temperature === undefined ? '' : ` · temperature ${reply.temperature}`}`;
  return (
    <article
      className="chat-compare-column"
      aria-label={label}
      data-message-id={reply.id}
      data-status={streaming ? 'streaming' : reply.status}
    >
      <header className="chat-message-head">
        <span className="chat-message-role">{label}</span>
        {streaming && <span className="chat-badge chat-badge-live">Writing…</span>}
        {!streaming && reply.status === 'interrupted' && (
          <span className="chat-badge">Stopped</span>
        )}
      </header>
      <ReplyBody replyId={reply.id} content={reply.content} />
      {streaming && <RetryCountdown replyId={reply.id} />}
      {!streaming && reply.error && (
        <RelayFailure
          className="chat-reply-error"
          failure={reply.error}
          connection={{ name: 'The relay' }}
          balanceNote={false}
        />
      )}
      <footer className="chat-message-tools">
        {streaming ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => void stopReply(reply.id)}
          >
            Stop
          </button>
        ) : (
          reply.content !== '' && (
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => void continueWith(reply.id)}
            >
              Continue with this one
            </button>
          )
        )}
        {!streaming && <SourcesButton replyId={reply.id} />}
        <span className="chat-usage">{figures(reply).join(' · ')}</span>
        {!streaming && <CompareCost reply={reply} />}
      </footer>
    </article>
  );
}

/** The replies of the open compare, side by side. */
export function CompareColumns() {
  const compare = useChatStore((s) => s.compare);
  if (!compare) return null;
  return (
    <section className="chat-compare" aria-label="Replies side by side">
      {compare.replies.map((reply) => (
        <CompareColumn key={reply.id} reply={reply} />
      ))}
    </section>
  );
}

/**
 * "Compare…": the models (or temperatures) to send the next message to, and the message, with the
 * files attached in the composer (sent to every model; images refused here, before sending, for a
 * model that reads none).
 */
export function CompareLauncher({
  conversation,
  files,
}: {
  conversation: ConversationSummary;
  files: AttachmentDrafts;
}) {
  const [open, setOpen] = useState(false);
  const [models, setModels] = useState<string[]>([]);
  const [targets, setTargets] = useState<Array<{ model: string; temperature: string }>>([]);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const waiting = useChatStore((s) => s.compare !== undefined);

  useEffect(() => {
    if (!open) return;
    void requireBridge()
      .listModels()
      .then(
        (list) => {
          const chat = list.models.filter((m) => m.kind === 'chat').map((m) => m.id);
          setModels(chat);
          setTargets((current) =>
            current.length > 0
              ? current
              : chat.slice(0, 2).map((model) => ({ model, temperature: '' })),
          );
        },
        () => setProblem('The models could not be listed.'),
      );
  }, [open]);

  if (waiting) return null;
  if (!open)
    return (
      <div className="chat-compare-bar">
        <button type="button" className="button button-small" onClick={() => setOpen(true)}>
          Compare models…
        </button>
      </div>
    );

  async function submit() {
    const chosen: CompareTarget[] = [];
    for (const [index, target] of targets.entries()) {
      const temperature = target.temperature.trim();
      const value = Number(temperature);
      if (temperature !== '' && (!Number.isFinite(value) || value < 0 || value > 2)) {
        setProblem(`Column ${index + 1}: a temperature is a number from 0 to 2.`);
        return;
      }
      chosen.push({ model: target.model, ...(temperature === '' ? {} : { temperature: value }) });
    }
    if (chosen.length < 2) return setProblem('Choose at least two models or temperatures.');
    if (text.trim() === '') return setProblem('Write a message first.');
    // Images to a model that reads none: said here, naming it; nothing is sent, nothing is lost.
    for (const model of new Set(chosen.map((c) => c.model))) {
      const images = await imagesWarning(model, files.files);
      if (images !== undefined) return setProblem(images);
    }
    setProblem(undefined);
    const attachmentIds = files.files.map((f) => f.id);
    if (await compareModels(conversation.id, text, chosen, attachmentIds)) {
      if (attachmentIds.length > 0) files.sent();
      setText('');
      setOpen(false);
    }
  }

  return (
    <form
      className="chat-compare-form"
      aria-label="Compare models"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="chat-compare-targets">
        {targets.map((target, index) => (
          <div className="chat-compare-target" key={index}>
            <select
              className="select"
              aria-label={`Model of column ${index + 1}`}
              value={target.model}
              onChange={(event) =>
                setTargets(
                  targets.map((t, i) => (i === index ? { ...t, model: event.target.value } : t)),
                )
              }
            >
              {models.map((model) => (
                <option key={model} value={model}>
                  {model}
                </option>
              ))}
            </select>
            <input
              className="input chat-compare-temperature"
              aria-label={`Temperature of column ${index + 1}`}
              placeholder={`${conversation.temperature ?? 'default'}`}
              inputMode="decimal"
              value={target.temperature}
              onChange={(event) =>
                setTargets(
                  targets.map((t, i) =>
                    i === index ? { ...t, temperature: event.target.value } : t,
                  ),
                )
              }
            />
            {targets.length > 2 && (
              <button
                type="button"
                className="button button-small"
                aria-label={`Remove column ${index + 1}`}
                onClick={() => setTargets(targets.filter((_, i) => i !== index))}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {targets.length < MAX_COLUMNS && models.length > 0 && (
          <button
            type="button"
            className="button button-small"
            onClick={() => setTargets([...targets, { model: models[0]!, temperature: '' }])}
          >
            Add a column
          </button>
        )}
      </div>
      <textarea
        className="input"
        aria-label="Message to compare"
        rows={2}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {files.files.length > 0 && (
        <p className="chat-compare-files">
          With {files.files.length === 1 ? 'the file' : `${files.files.length} files`} attached
          below: {files.files.map((f) => f.name).join(', ')}
        </p>
      )}
      {problem && <p className="field-error">{problem}</p>}
      <div className="chat-message-tools">
        <button type="submit" className="button button-small button-primary">
          Send to all
        </button>
        <button type="button" className="button button-small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
