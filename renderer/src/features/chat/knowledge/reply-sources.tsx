/**
 * Below a reply asked with a knowledge base (loaded the first time one is opened): a cited
 * source (its file, where in it, its text, and the file shown or opened), or the retrieval
 * X-ray: every chunk retrieved with its rank, cosine score and where it ended (in the prompt as
 * source n, cut by the token budget, under the threshold, excluded), the question among the
 * chunks on the embeddings map, and the steering: pin, exclude, top-k, threshold, Ask again.
 */
import { useEffect, useMemo, useState } from 'react';
import { Icon } from '../../../components/icon';
import { failureOf, type FailureInfo } from '../../../lib/errors';
import { requireBridge, type Answer } from '../../../lib/relay-bridge';
import '../../embeddings/embeddings.css';
import type { ShownAnalysis } from '../../embeddings/embeddings-store';
import { PcaScatter } from '../../embeddings/pca-scatter';
import { SimilarityHeatmap } from '../../embeddings/similarity-heatmap';
import { orderBySimilarity, pca2, similarityMatrix, unitRows } from '../../embeddings/vector-math';
import { regenerateReply } from '../chat-actions';
import { useChatStore } from '../chat-store';
import { useKnowledgeChatStore } from './knowledge-chat-store';
import './knowledge-chat.css';

type RetrievalRecord = NonNullable<Answer<'getRetrieval'>>;
type RetrievedChunk = RetrievalRecord['chunks'][number];
type ConversationKnowledge = Answer<'getConversationKnowledge'>;

/** Where a chunk sits, as a person reads it: page, lines, headings. */
export function whereOf(position: RetrievedChunk['position']): string {
  const parts: string[] = [];
  if (position.page !== null) parts.push(`page ${position.page}`);
  parts.push(
    position.lineStart === position.lineEnd
      ? `line ${position.lineStart}`
      : `lines ${position.lineStart}–${position.lineEnd}`,
  );
  if (position.headings.length > 0) parts.push(position.headings.join(' › '));
  return parts.join(' · ');
}

const PLACEMENTS: Record<RetrievedChunk['placement'], string> = {
  prompt: 'In the prompt',
  budget: 'Cut by the token budget',
  threshold: 'Under the threshold',
  excluded: 'Excluded by you',
};

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
  useEffect(() => {
    let current = true;
    requireBridge()
      .getRetrieval({ messageId: replyId })
      .then(
        (found) => current && setRecord(found),
        (error: unknown) => current && setFailure(failureOf(error)),
      );
    return () => {
      current = false;
    };
  }, [replyId]);

  if (failure)
    return (
      <section className="reply-sources" aria-label="Sources">
        <p role="alert">The sources could not be read: {failure.message}</p>
        <button type="button" className="button button-small" onClick={close}>
          Close
        </button>
      </section>
    );
  if (record === undefined) return null;
  if (record === null)
    return (
      <section className="reply-sources" aria-label="Sources">
        <p>This reply was not asked with a knowledge base.</p>
        <button type="button" className="button button-small" onClick={close}>
          Close
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
  const reveal = (action: 'show' | 'open') =>
    requireBridge()
      .revealRetrievedFile({ messageId: record.messageId, chunkId: chunk.chunkId, action })
      .then(
        () => setFailure(undefined),
        (error: unknown) => setFailure(failureOf(error).message),
      );
  return (
    <>
      <button type="button" className="button button-small" onClick={() => void reveal('show')}>
        <Icon name="folder" /> Show in folder
      </button>
      <button type="button" className="button button-small" onClick={() => void reveal('open')}>
        <Icon name="file" /> Open file
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
  return (
    <section className="reply-sources" aria-label={`Source ${source}`}>
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
            From “{chunk.kbName}”, rank {chunk.rank}, score {chunk.score.toFixed(3)}
          </p>
        </>
      ) : (
        <p>The reply cites source {source}, but it was given no source with that number.</p>
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
          Retrieval X-ray
        </button>
        <button type="button" className="button button-small" onClick={close}>
          Close
        </button>
      </div>
    </section>
  );
}

/** The question (first) and the chunks on the embeddings playground's map and heatmap. */
function RetrievalMap({ record }: { record: RetrievalRecord }) {
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
      { index: 0, text: `Question: ${record.question}` },
      ...record.chunks.map((c, i) => ({
        index: i + 1,
        text: `#${c.rank} ${c.fileName}: ${c.text.slice(0, 80)}`,
      })),
    ];
    return { analysis, run: { items } };
  }, [record]);
  if (!shown)
    return <p className="reply-sources-meta">The chunks of these bases cannot share one map.</p>;
  return (
    <div className="reply-xray-map">
      <PcaScatter run={shown.run} analysis={shown.analysis} />
      <SimilarityHeatmap run={shown.run} analysis={shown.analysis} />
    </div>
  );
}

function RetrievalXray({ record }: { record: RetrievalRecord }) {
  const [settings, setSettings] = useState<ConversationKnowledge>();
  const [failure, setFailure] = useState<string>();
  const [topK, setTopK] = useState(String(record.topK));
  const [minScore, setMinScore] = useState(String(record.minScore));
  const stream = useChatStore((s) => s.stream);
  const conversationId = record.conversationId;

  useEffect(() => {
    let current = true;
    requireBridge()
      .getConversationKnowledge({ conversationId })
      .then(
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
    void run(() => requireBridge().steerRetrieval({ conversationId, chunkId, action }));

  async function askAgain() {
    const k = Number(topK);
    const score = Number(minScore);
    if (!Number.isInteger(k) || k < 1 || k > 50) {
      setFailure('Top-k is a whole number from 1 to 50.');
      return;
    }
    if (!Number.isFinite(score) || score < -1 || score > 1) {
      setFailure('The threshold is a score from -1 to 1.');
      return;
    }
    const saved = await run(() =>
      requireBridge().setConversationKnowledge({ conversationId, topK: k, minScore: score }),
    );
    if (!saved) return;
    close();
    await regenerateReply(conversationId, stream, record.messageId);
  }

  const inPrompt = record.chunks.filter((c) => c.placement === 'prompt').length;
  return (
    <section className="reply-sources reply-xray" aria-label="Retrieval X-ray">
      <h3 className="reply-sources-title">Retrieval X-ray</h3>
      <p className="reply-sources-meta">
        “{record.question}”: {record.chunks.length} chunks retrieved, {inPrompt} in the prompt (
        {record.promptTokens} of {record.budgetTokens} tokens); top-k {record.topK}, threshold{' '}
        {record.minScore}.
      </p>
      <table className="reply-xray-table">
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">Source</th>
            <th scope="col">Score</th>
            <th scope="col">Where it went</th>
            <th scope="col">Chunk</th>
            <th scope="col">
              <span className="visually-hidden">Steering</span>
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
                <td>{chunk.score.toFixed(3)}</td>
                <td>
                  {PLACEMENTS[chunk.placement]}
                  {chunk.pinned ? ' (pinned)' : ''}
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
                    aria-label={`${pinned ? 'Unpin' : 'Pin'} chunk ${chunk.rank}`}
                    onClick={() => steer(chunk.chunkId, pinned ? 'unpin' : 'pin')}
                  >
                    {pinned ? 'Unpin' : 'Pin'}
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    aria-pressed={excluded}
                    aria-label={`${excluded ? 'Include' : 'Exclude'} chunk ${chunk.rank}`}
                    onClick={() => steer(chunk.chunkId, excluded ? 'include' : 'exclude')}
                  >
                    {excluded ? 'Include' : 'Exclude'}
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
          Top-k{' '}
          <input
            className="input"
            type="number"
            min={1}
            max={50}
            value={topK}
            onChange={(event) => setTopK(event.target.value)}
          />
        </label>
        <label>
          Threshold{' '}
          <input
            className="input"
            type="number"
            min={-1}
            max={1}
            step={0.05}
            value={minScore}
            onChange={(event) => setMinScore(event.target.value)}
          />
        </label>
        <button type="submit" className="button button-small button-primary">
          Ask again
        </button>
        <button type="button" className="button button-small" onClick={close}>
          Close
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
