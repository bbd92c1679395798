/**
 * Below a reply asked with a knowledge base (loaded the first time one is opened): a cited
 * source (its file, where in it, its text, and the file shown or opened), or the retrieval
 * X-ray: every chunk retrieved with its rank, cosine score and where it ended (in the prompt as
 * source n, cut by the token budget, under the threshold, excluded), the question among the
 * chunks on the embeddings map, and the steering: pin, exclude, top-k, threshold, Ask again.
 */
import { useEffect, useMemo, useState } from 'react';
import { Icon } from '../../../components/icon';
import { formatNumber } from '../../../i18n/format';
import { loadNamespace, t, useT, type MessageKey } from '../../../i18n/i18n';
import { failureOf, type FailureInfo } from '../../../lib/errors';
import type { Answer } from '../../../lib/relay-bridge';
import '../../embeddings/embeddings.css';
import type { ShownAnalysis } from '../../embeddings/embeddings-store';
import { PcaScatter } from '../../embeddings/pca-scatter';
import { SimilarityHeatmap } from '../../embeddings/similarity-heatmap';
import { orderBySimilarity, pca2, similarityMatrix, unitRows } from '../../embeddings/vector-math';
import { regenerateReply } from '../chat-actions';
import { useChatStore } from '../chat-store';
import {
  changeConversationKnowledge,
  readConversationKnowledge,
  readRetrieval,
  revealRetrievedFile,
  steerRetrieval,
} from './knowledge-chat-actions';
import { useKnowledgeChatStore } from './knowledge-chat-store';
import './knowledge-chat.css';
import { RETRIEVAL_LIMITS } from '../../../../../electron/shared/limits';

type RetrievalRecord = NonNullable<Answer<'getRetrieval'>>;
type RetrievedChunk = RetrievalRecord['chunks'][number];
type ConversationKnowledge = Answer<'getConversationKnowledge'>;

// Loaded the first time a reply's sources are opened: its words come before it renders.
await loadNamespace('knowledge');

/** Where a chunk sits, as a person reads it: page, lines, headings. */
export function whereOf(position: RetrievedChunk['position']): string {
  const parts: string[] = [];
  if (position.page !== null) parts.push(t('knowledge.where.page', { page: position.page }));
  parts.push(
    position.lineStart === position.lineEnd
      ? t('knowledge.where.line', { line: position.lineStart })
      : t('knowledge.where.lines', { start: position.lineStart, end: position.lineEnd }),
  );
  if (position.headings.length > 0) parts.push(position.headings.join(' › '));
  return parts.join(' · ');
}

const PLACEMENTS: Record<RetrievedChunk['placement'], MessageKey> = {
  prompt: 'knowledge.xray.placement.prompt',
  budget: 'knowledge.xray.placement.budget',
  threshold: 'knowledge.xray.placement.threshold',
  excluded: 'knowledge.xray.placement.excluded',
};

/** A cosine similarity as the scores are shown: three decimals, in the language's own form. */
const formatScore = (value: number) =>
  formatNumber(value, { minimumFractionDigits: 3, maximumFractionDigits: 3 });

function close() {
  useKnowledgeChatStore.getState().opened(undefined);
}

export default function ReplySources({
  replyId,
  source,
}: {
  replyId: string;
  source: number | null;
}) {
  const [record, setRecord] = useState<RetrievalRecord | null>();
  const [failure, setFailure] = useState<FailureInfo>();
  const t = useT();
  useEffect(() => {
    let current = true;
    readRetrieval(replyId).then(
      (found) => current && setRecord(found),
      (error: unknown) => current && setFailure(failureOf(error)),
    );
    return () => {
      current = false;
    };
  }, [replyId]);

  if (failure)
    return (
      <section className="reply-sources" aria-label={t('knowledge.sources.button')}>
        <p role="alert">{t('knowledge.sources.unreadable', { message: failure.message })}</p>
        <button type="button" className="button button-small" onClick={close}>
          {t('knowledge.sources.close')}
        </button>
      </section>
    );
  if (record === undefined) return null;
  if (record === null)
    return (
      <section className="reply-sources" aria-label={t('knowledge.sources.button')}>
        <p>{t('knowledge.sources.noRecord')}</p>
        <button type="button" className="button button-small" onClick={close}>
          {t('knowledge.sources.close')}
        </button>
      </section>
    );
  return source === null ? (
    <RetrievalXray record={record} />
  ) : (
    <CitedSource record={record} source={source} />
  );
}

function FileActions({ record, chunk }: { record: RetrievalRecord; chunk: RetrievedChunk }) {
  const [failure, setFailure] = useState<string>();
  const t = useT();
  const reveal = (action: 'show' | 'open') =>
    revealRetrievedFile(record.messageId, chunk.chunkId, action).then(
      () => setFailure(undefined),
      (error: unknown) => setFailure(failureOf(error).message),
    );
  return (
    <>
      <button type="button" className="button button-small" onClick={() => void reveal('show')}>
        <Icon name="folder" /> {t('knowledge.files.reveal')}
      </button>
      <button type="button" className="button button-small" onClick={() => void reveal('open')}>
        <Icon name="file" /> {t('knowledge.sources.openFile')}
      </button>
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
    </>
  );
}

function CitedSource({ record, source }: { record: RetrievalRecord; source: number }) {
  const chunk = record.chunks.find((c) => c.source === source);
  const t = useT();
  return (
    <section className="reply-sources" aria-label={t('knowledge.citation.label', { source })}>
      {chunk ? (
        <>
          <h3 className="reply-sources-title">
            <span className="chat-citation" aria-hidden="true">
              {source}
            </span>{' '}
            {chunk.fileName}
            <span className="reply-sources-where"> · {whereOf(chunk.position)}</span>
          </h3>
          <blockquote className="reply-source-text">{chunk.text}</blockquote>
          <p className="reply-sources-meta">
            {t('knowledge.source.meta', {
              name: chunk.kbName,
              rank: chunk.rank,
              score: formatScore(chunk.score),
            })}
          </p>
        </>
      ) : (
        <p>{t('knowledge.source.missing', { source })}</p>
      )}
      <div className="chat-message-tools">
        {chunk && <FileActions record={record} chunk={chunk} />}
        <button
          type="button"
          className="button button-small"
          onClick={() =>
            useKnowledgeChatStore.getState().opened({ replyId: record.messageId, source: null })
          }
        >
          {t('knowledge.xray.title')}
        </button>
        <button type="button" className="button button-small" onClick={close}>
          {t('knowledge.sources.close')}
        </button>
      </div>
    </section>
  );
}

/** The question (first) and the chunks on the embeddings playground's map and heatmap. */
function RetrievalMap({ record }: { record: RetrievalRecord }) {
  const t = useT();
  const shown = useMemo(() => {
    const map = record.map;
    if (!map || map.chunks.length === 0) return undefined;
    const rows = [map.question, ...map.chunks];
    const n = rows.length;
    const d = map.question.length;
    const data = new Float32Array(n * d);
    rows.forEach((row, i) => data.set(row, i * d));
    const matrix = similarityMatrix(unitRows(data, n, d), n, d);
    const { points, explained } = pca2(data, n, d);
    const analysis: ShownAnalysis = {
      runId: record.messageId,
      indexes: rows.map((_, i) => i),
      n,
      matrix,
      order: orderBySimilarity(matrix, n),
      points,
      explained,
    };
    const items = [
      { index: 0, text: t('knowledge.xray.mapQuestion', { question: record.question }) },
      ...record.chunks.map((c, i) => ({
        index: i + 1,
        text: t('knowledge.xray.mapChunk', {
          rank: c.rank,
          file: c.fileName,
          text: c.text.slice(0, 80),
        }),
      })),
    ];
    return { analysis, run: { items } };
  }, [record, t]);
  if (!shown) return <p className="reply-sources-meta">{t('knowledge.xray.noMap')}</p>;
  return (
    // A box of bounded height that scrolls on its own (by keyboard too): the two pictures at the
    // playground's size would open a reply over a screen and a half tall.
    <section className="reply-xray-map" tabIndex={0} aria-label={t('knowledge.xray.mapLabel')}>
      <div className="reply-xray-map-pictures">
        <PcaScatter run={shown.run} analysis={shown.analysis} />
        <SimilarityHeatmap
          run={shown.run}
          analysis={shown.analysis}
          caption={t('knowledge.xray.mapCaption')}
        />
      </div>
    </section>
  );
}

function RetrievalXray({ record }: { record: RetrievalRecord }) {
  const [settings, setSettings] = useState<ConversationKnowledge>();
  const [failure, setFailure] = useState<string>();
  const [topK, setTopK] = useState(String(record.topK));
  const [minScore, setMinScore] = useState(String(record.minScore));
  const stream = useChatStore((s) => s.stream);
  const conversationId = record.conversationId;
  const t = useT();

  useEffect(() => {
    let current = true;
    readConversationKnowledge(conversationId).then(
      (found) => current && setSettings(found),
      (error: unknown) => current && setFailure(failureOf(error).message),
    );
    return () => {
      current = false;
    };
  }, [conversationId]);

  const run = (work: () => Promise<ConversationKnowledge>) =>
    work().then(
      (next) => {
        setSettings(next);
        setFailure(undefined);
        return true;
      },
      (error: unknown) => {
        setFailure(failureOf(error).message);
        return false;
      },
    );
  const steer = (chunkId: string, action: 'pin' | 'unpin' | 'exclude' | 'include') =>
    void run(() => steerRetrieval(conversationId, chunkId, action));

  async function askAgain() {
    const k = Number(topK);
    const score = Number(minScore);
    const { topK: kRange, minScore: scoreRange } = RETRIEVAL_LIMITS;
    if (!Number.isInteger(k) || k < kRange.min || k > kRange.max) {
      setFailure(
        t('knowledge.xray.badTopK', {
          min: formatNumber(kRange.min),
          max: formatNumber(kRange.max),
        }),
      );
      return;
    }
    if (!Number.isFinite(score) || score < scoreRange.min || score > scoreRange.max) {
      setFailure(
        t('knowledge.xray.badThreshold', {
          min: formatNumber(scoreRange.min),
          max: formatNumber(scoreRange.max),
        }),
      );
      return;
    }
    const saved = await run(() =>
      changeConversationKnowledge(conversationId, { topK: k, minScore: score }),
    );
    if (!saved) return;
    close();
    await regenerateReply(conversationId, stream, record.messageId);
  }

  const inPrompt = record.chunks.filter((c) => c.placement === 'prompt').length;
  return (
    <section className="reply-sources reply-xray" aria-label={t('knowledge.xray.title')}>
      <h3 className="reply-sources-title">{t('knowledge.xray.title')}</h3>
      <p className="reply-sources-meta">
        {t('knowledge.xray.summary', {
          question: record.question,
          chunks: record.chunks.length,
          inPrompt,
          promptTokens: formatNumber(record.promptTokens),
          budgetTokens: record.budgetTokens,
          topK: record.topK,
          threshold: formatNumber(record.minScore),
        })}
      </p>
      <table className="reply-xray-table">
        <thead>
          <tr>
            <th scope="col">{t('knowledge.xray.rank')}</th>
            <th scope="col">{t('knowledge.xray.source')}</th>
            <th scope="col">{t('knowledge.xray.score')}</th>
            <th scope="col">{t('knowledge.xray.placement')}</th>
            <th scope="col">{t('knowledge.xray.chunk')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('knowledge.xray.steering')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {record.chunks.map((chunk) => {
            const pinned = settings?.pinned.includes(chunk.chunkId) ?? chunk.pinned;
            const excluded = settings?.excluded.includes(chunk.chunkId) ?? false;
            return (
              <tr key={chunk.chunkId} data-placement={chunk.placement}>
                <td>{chunk.rank}</td>
                <td>{chunk.source === null ? '–' : `[${chunk.source}]`}</td>
                <td>{formatScore(chunk.score)}</td>
                <td>
                  {t(
                    chunk.pinned
                      ? 'knowledge.xray.placement.pinned'
                      : 'knowledge.xray.placement.plain',
                    { placement: t(PLACEMENTS[chunk.placement]) },
                  )}
                </td>
                <td>
                  <details>
                    <summary>
                      {chunk.fileName}{' '}
                      <span className="reply-sources-where">{whereOf(chunk.position)}</span>
                    </summary>
                    <blockquote className="reply-source-text">{chunk.text}</blockquote>
                    <div className="chat-message-tools">
                      <FileActions record={record} chunk={chunk} />
                    </div>
                  </details>
                </td>
                <td className="reply-xray-steer">
                  <button
                    type="button"
                    className="button button-small"
                    aria-pressed={pinned}
                    aria-label={t(
                      pinned ? 'knowledge.xray.unpin.label' : 'knowledge.xray.pin.label',
                      {
                        rank: chunk.rank,
                      },
                    )}
                    onClick={() => steer(chunk.chunkId, pinned ? 'unpin' : 'pin')}
                  >
                    {t(pinned ? 'knowledge.xray.unpin' : 'knowledge.xray.pin')}
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    aria-pressed={excluded}
                    aria-label={t(
                      excluded ? 'knowledge.xray.include.label' : 'knowledge.xray.exclude.label',
                      { rank: chunk.rank },
                    )}
                    onClick={() => steer(chunk.chunkId, excluded ? 'include' : 'exclude')}
                  >
                    {t(excluded ? 'knowledge.xray.include' : 'knowledge.xray.exclude')}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <RetrievalMap record={record} />
      <form
        className="reply-xray-ask"
        onSubmit={(event) => {
          event.preventDefault();
          void askAgain();
        }}
      >
        <label>
          {t('knowledge.xray.topK')}{' '}
          <input
            className="input"
            type="number"
            min={RETRIEVAL_LIMITS.topK.min}
            max={RETRIEVAL_LIMITS.topK.max}
            value={topK}
            onChange={(event) => setTopK(event.target.value)}
          />
        </label>
        <label>
          {t('knowledge.xray.threshold')}{' '}
          <input
            className="input"
            type="number"
            min={RETRIEVAL_LIMITS.minScore.min}
            max={RETRIEVAL_LIMITS.minScore.max}
            step={0.05}
            value={minScore}
            onChange={(event) => setMinScore(event.target.value)}
          />
        </label>
        <button type="submit" className="button button-small button-primary">
          {t('knowledge.xray.askAgain')}
        </button>
        <button type="button" className="button button-small" onClick={close}>
          {t('knowledge.sources.close')}
        </button>
        {failure && (
          <p className="field-error" role="alert">
            {failure}
          </p>
        )}
      </form>
    </section>
  );
}
