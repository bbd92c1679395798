/**
 * Compare side by side: one message to 2–4 models (or one model at several temperatures), their
 * replies streaming at once in columns (stacked on a narrow window), each with its model, time to
 * first token, tokens per second, tokens and cost (at the person's price); each stops and fails
 * alone, and "Continue with this one" makes a reply the conversation's path (the others stay
 * reachable as its versions).
 */
import { memo, useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/icon';
import { RelayFailure } from '../../components/relay-failure';
import { formatList, formatNumber } from '../../i18n/format';
import { t, useT } from '../../i18n/i18n';
import { formatCost, replyCost } from '../../lib/money';
import { imagesWarning, type AttachmentDrafts } from './attachments';
import { SourcesButton } from './knowledge/sources-button';
import {
  compareChoices,
  compareModels,
  continueWith,
  stopReply,
  type CompareTarget,
} from './chat-actions';
import { useChatStore } from './chat-store';
import { priceOf, useCostStore } from './cost-store';
import type { ChatMessage, ConversationSummary } from './chat-types';
import { RetryCountdown } from './reply-error';
import { sendsMessage } from './send-key';
import { ReplyBody } from './streaming-reply';

const MAX_COLUMNS = 4;

/** The figures under a column: time to first token, speed and tokens, once known. */
function figures(reply: ChatMessage): string[] {
  const out: string[] = [];
  const first = reply.timing?.firstTokenMs;
  const duration = reply.timing?.durationMs;
  if (first !== undefined)
    out.push(
      t('chat.compare.firstToken', {
        seconds: formatNumber(first / 1000, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      }),
    );
  const tokens = reply.usage?.completionTokens;
  if (tokens !== undefined && first !== undefined && duration !== undefined && duration > first)
    out.push(
      t('chat.compare.speed', {
        rate: formatNumber(Math.round(tokens / ((duration - first) / 1000))),
      }),
    );
  if (tokens !== undefined) out.push(t('chat.cost.tokens', { count: tokens }));
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
          ? reply.model
            ? t('chat.compare.noPrice', { model: reply.model })
            : t('chat.cost.noPrice')
          : t('chat.cost.atPrice')
      }
    >
      {cost === null ? t('chat.cost.unknown') : formatCost(cost, prices.currency)}
    </span>
  );
}

/** How near its end (px) a column counts as read to the end: it follows the text from there. */
const AT_END_PX = 24;

/**
 * A column's scroll that follows the end of its text while it streams: whenever the text grows
 * (a resize of what it holds, seen after layout and before paint, so following costs no layout
 * of its own) the column is scrolled to its end, unless the person scrolled up; then it stays
 * where they read until they scroll back to the end. Returns the refs of the scroller and of what
 * it holds.
 */
function useFollowedScroll(streaming: boolean) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useEffect(() => {
    const element = scroller.current;
    const inner = content.current;
    if (!element || !inner || !streaming) return;
    let lastTop = element.scrollTop;
    const onScroll = () => {
      const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
      // Following only ever scrolls down: a scroll up is the person's.
      if (distance <= AT_END_PX) following.current = true;
      else if (element.scrollTop < lastTop - 1) following.current = false;
      lastTop = element.scrollTop;
    };
    const grew = new ResizeObserver(() => {
      if (following.current) element.scrollTop = element.scrollHeight;
    });
    element.addEventListener('scroll', onScroll, { passive: true });
    grew.observe(inner);
    return () => {
      element.removeEventListener('scroll', onScroll);
      grew.disconnect();
    };
  }, [streaming]);
  return { scroller, content };
}

/** A column, rendered again only when its reply changes (one finishing leaves the others be). */
const CompareColumn = memo(function CompareColumn({ reply }: { reply: ChatMessage }) {
  const t = useT();
  const streaming = useChatStore((s) => s.streaming[reply.id] === true);
  const model = reply.model ?? t('chat.compare.model');
  const label =
    reply.temperature === undefined
      ? model
      : t('chat.compare.withTemperature', { model, temperature: formatNumber(reply.temperature) });
  const body = useFollowedScroll(streaming);
  return (
    <article
      className="chat-compare-column"
      aria-label={label}
      data-message-id={reply.id}
      data-status={streaming ? 'streaming' : reply.status}
    >
      <header className="chat-message-head chat-compare-head">
        <span className="chat-message-role" title={label}>
          {label}
        </span>
        {streaming && <span className="chat-badge chat-badge-live">{t('chat.writing')}</span>}
        {!streaming && reply.status === 'interrupted' && (
          <span className="chat-badge">{t('chat.stopped')}</span>
        )}
      </header>
      {/* A scrolled region reached by keyboard too (its text may hold nothing focusable). */}
      <div className="chat-compare-body" ref={body.scroller} tabIndex={0}>
        <div ref={body.content}>
          <ReplyBody
            replyId={reply.id}
            content={reply.content}
            cutShort={reply.status === 'interrupted' || reply.status === 'error'}
          />
          {streaming && <RetryCountdown replyId={reply.id} />}
          {!streaming && reply.error && (
            <RelayFailure
              className="chat-reply-error"
              failure={reply.error}
              connection={{ name: t('chat.relay') }}
              balanceNote={false}
            />
          )}
        </div>
      </div>
      <footer className="chat-message-tools chat-compare-foot">
        {streaming ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => void stopReply(reply.id)}
          >
            {t('chat.stop')}
          </button>
        ) : (
          reply.content !== '' && (
            <button
              type="button"
              className="button button-small button-primary"
              onClick={() => void continueWith(reply.id)}
            >
              {t('chat.compare.continueWith')}
            </button>
          )
        )}
        {!streaming && <SourcesButton replyId={reply.id} />}
        <span className="chat-usage">{figures(reply).join(' · ')}</span>
        {!streaming && <CompareCost reply={reply} />}
      </footer>
    </article>
  );
});

/** The replies of the open compare, side by side. */
export function CompareColumns() {
  const t = useT();
  const compare = useChatStore((s) => s.compare);
  if (!compare) return null;
  return (
    <section className="chat-compare" aria-label={t('chat.compare.replies')}>
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
  const t = useT();
  const [open, setOpen] = useState(false);
  const [models, setModels] = useState<string[]>([]);
  const [targets, setTargets] = useState<Array<{ model: string; temperature: string }>>([]);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const waiting = useChatStore((s) => s.compare !== undefined);
  const enterSends = useChatStore((s) => s.enterSends);
  const [defaultTemperature, setDefaultTemperature] = useState(1);

  useEffect(() => {
    if (!open) return;
    void compareChoices().then(
      (choices) => {
        setModels(choices.models);
        setDefaultTemperature(choices.defaultTemperature);
        setTargets((current) =>
          current.length > 0
            ? current
            : choices.models.slice(0, 2).map((model) => ({ model, temperature: '' })),
        );
      },
      () => setProblem(t('chat.compare.noModels')),
    );
  }, [open]);

  if (waiting) return null;
  if (!open)
    return (
      <div className="chat-compare-bar">
        <button type="button" className="button button-small" onClick={() => setOpen(true)}>
          {t('chat.compare.open')}
        </button>
      </div>
    );

  async function submit() {
    const chosen: CompareTarget[] = [];
    for (const [index, target] of targets.entries()) {
      const temperature = target.temperature.trim();
      const value = Number(temperature);
      if (temperature !== '' && (!Number.isFinite(value) || value < 0 || value > 2)) {
        setProblem(t('chat.compare.badTemperature', { column: formatNumber(index + 1) }));
        return;
      }
      chosen.push({ model: target.model, ...(temperature === '' ? {} : { temperature: value }) });
    }
    if (chosen.length < 2) return setProblem(t('chat.compare.tooFew'));
    if (text.trim() === '') return setProblem(t('chat.composer.empty'));
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
      aria-label={t('chat.compare.form')}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <table className="chat-compare-targets">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">{t('chat.compare.columns')}</span>
            </th>
            <th scope="col">{t('chat.compare.model')}</th>
            <th scope="col">{t('chat.compare.temperature')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('chat.compare.remove')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {targets.map((target, index) => {
            const column = formatNumber(index + 1);
            return (
              <tr key={index}>
                <th scope="row" className="chat-compare-target-name">
                  {t('chat.compare.column', { column })}
                </th>
                <td>
                  <select
                    className="select"
                    aria-label={t('chat.compare.columnModel', { column })}
                    value={target.model}
                    onChange={(event) =>
                      setTargets(
                        targets.map((t, i) =>
                          i === index ? { ...t, model: event.target.value } : t,
                        ),
                      )
                    }
                  >
                    {models.map((model) => (
                      <option key={model} value={model}>
                        {model}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <input
                    className="input chat-compare-temperature"
                    aria-label={t('chat.compare.columnTemperature', { column })}
                    placeholder={t('chat.compare.defaultTemperature', {
                      value: formatNumber(conversation.temperature ?? defaultTemperature),
                    })}
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
                </td>
                <td>
                  {targets.length > 2 && (
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={t('chat.compare.removeColumn', { column })}
                      title={t('chat.compare.removeColumn', { column })}
                      onClick={() => setTargets(targets.filter((_, i) => i !== index))}
                    >
                      <Icon name="close" />
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <label className="field">
        <span className="field-label">{t('chat.compare.message')}</span>
        <textarea
          className="input"
          rows={2}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (!sendsMessage(event, enterSends)) return;
            event.preventDefault();
            void submit();
          }}
        />
      </label>
      {files.files.length > 0 && (
        <p className="chat-compare-files">
          {t('chat.compare.files', {
            count: files.files.length,
            names: formatList(files.files.map((f) => f.name)),
          })}
        </p>
      )}
      {problem && <p className="field-error">{problem}</p>}
      <div className="chat-message-tools chat-compare-form-tools">
        <button type="submit" className="button button-small button-primary">
          {t('chat.compare.send')}
        </button>
        <button type="button" className="button button-small" onClick={() => setOpen(false)}>
          {t('chat.cancel')}
        </button>
        {targets.length < MAX_COLUMNS && models.length > 0 && (
          <button
            type="button"
            className="button button-small chat-compare-add"
            onClick={() => setTargets([...targets, { model: models[0]!, temperature: '' }])}
          >
            <Icon name="plus" />
            {t('chat.compare.addColumn')}
          </button>
        )}
      </div>
    </form>
  );
}
