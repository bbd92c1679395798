/**
 * "Which embeddings model suits my files?": the person's own questions asked of two bases over
 * the same files with different models, and what each finds shown side by side, with the
 * passages both found marked. A base has no twin yet: a copy with another model is one click.
 */
import { useId, useState } from 'react';
import { useT } from '../../i18n/i18n';
import { copyBaseWithModel, searchBase } from './knowledge-actions';
import type { KnowledgeBase, KnowledgeBaseDetail, KnowledgeHit } from './knowledge-store';
import { formatScore, positionText } from './knowledge-format';
import { ModelSelect } from './model-select';

/** The most questions compared at once (each is embedded by both models). */
export const MAX_COMPARED_QUESTIONS = 10;
const TOP_K = 5;

type Column = { hits: KnowledgeHit[] } | { failure: string };

export interface ComparedQuestion {
  question: string;
  columns: [Column, Column];
}

/** A passage by where it sits in its file: the same file chunked the same way in both bases. */
export function passageKey(hit: KnowledgeHit): string {
  return `${hit.path}\u0000${hit.position.lineStart}\u0000${hit.position.lineEnd}`;
}

/** The questions typed, one a line, blank lines skipped, at most `MAX_COMPARED_QUESTIONS`. */
export function questionsOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, MAX_COMPARED_QUESTIONS);
}

async function searchColumn(id: string, question: string): Promise<Column> {
  const found = await searchBase(id, question, TOP_K);
  return found.ok ? { hits: found.value } : { failure: found.failure.message };
}

function HitsColumn({ column, other }: { column: Column; other: Column }) {
  const t = useT();
  if ('failure' in column) return <p className="knowledge-error">{column.failure}</p>;
  if (column.hits.length === 0) return <p className="muted">{t('knowledge.ask.nothing')}</p>;
  const shared = new Set('hits' in other ? other.hits.map(passageKey) : []);
  return (
    <ol className="knowledge-compare-hits">
      {column.hits.map((hit) => {
        const both = shared.has(passageKey(hit));
        return (
          <li key={hit.chunkId} data-both={both || undefined}>
            <span className="knowledge-hit-score" title={t('knowledge.score.title')}>
              {formatScore(hit.score)}
            </span>{' '}
            <span className="knowledge-hit-file" title={hit.path}>
              {hit.fileName}
            </span>{' '}
            <span className="muted">{positionText(hit.position)}</span>
            {both && (
              <span className="knowledge-compare-both"> · {t('knowledge.compare.both')}</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

export function CompareModels({
  base,
  bases,
  models,
}: {
  base: KnowledgeBaseDetail;
  bases: KnowledgeBase[];
  models: string[];
}) {
  const otherId = useId();
  const questionsId = useId();
  const copyId = useId();
  const twins = bases.filter((b) => b.id !== base.id && b.model !== base.model);
  const [chosen, setChosen] = useState('');
  const other = twins.find((b) => b.id === chosen) ?? twins[0];
  const otherModels = models.filter((m) => m !== base.model);
  const [copyModel, setCopyModel] = useState('');
  const [text, setText] = useState('');
  const [results, setResults] = useState<
    { against: KnowledgeBase; questions: ComparedQuestion[] } | undefined
  >();
  const [running, setRunning] = useState<{ done: number; total: number } | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const questions = questionsOf(text);
  const t = useT();

  async function compare() {
    if (!other) return;
    setFailure(undefined);
    const compared: ComparedQuestion[] = [];
    setRunning({ done: 0, total: questions.length });
    for (const question of questions) {
      const columns = await Promise.all([
        searchColumn(base.id, question),
        searchColumn(other.id, question),
      ]);
      compared.push({ question, columns });
      setRunning({ done: compared.length, total: questions.length });
    }
    setResults({ against: other, questions: compared });
    setRunning(undefined);
  }

  async function copy() {
    const model = copyModel || otherModels[0];
    if (!model) return;
    setFailure(undefined);
    const made = await copyBaseWithModel(base.id, model);
    if (made.ok) setChosen(made.value);
    else setFailure(made.failure.message);
  }

  return (
    <section className="knowledge-compare" aria-labelledby={`${otherId}-title`}>
      <h2 className="knowledge-heading" id={`${otherId}-title`}>
        {t('knowledge.compare.title')}
      </h2>
      {other ? (
        <div className="field">
          <label className="field-label" htmlFor={otherId}>
            {t('knowledge.compare.with')}
          </label>
          <select
            id={otherId}
            className="select"
            value={other.id}
            onChange={(e) => setChosen(e.target.value)}
          >
            {twins.map((b) => (
              <option key={b.id} value={b.id}>
                {t('knowledge.compare.option', { name: b.name, model: b.model })}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <div className="knowledge-compare-copy">
          <p className="muted">{t('knowledge.compare.copyHint', { name: base.name })}</p>
          <label className="visually-hidden" htmlFor={copyId}>
            {t('knowledge.compare.copyModel')}
          </label>
          <ModelSelect
            id={copyId}
            models={otherModels}
            value={copyModel || otherModels[0] || ''}
            empty={t('knowledge.model.noOther')}
            onChange={setCopyModel}
          />
          <button
            type="button"
            className="button"
            disabled={otherModels.length === 0 || base.sources.length === 0}
            onClick={() => void copy()}
          >
            {t('knowledge.compare.copy')}
          </button>
        </div>
      )}
      <div className="field">
        <label className="field-label" htmlFor={questionsId}>
          {t('knowledge.compare.questions', { max: MAX_COMPARED_QUESTIONS })}
        </label>
        <textarea
          id={questionsId}
          className="input"
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <button
        type="button"
        className="button"
        disabled={!other || questions.length === 0 || running !== undefined}
        onClick={() => void compare()}
      >
        {t('knowledge.compare.run')}
      </button>
      {running && (
        <p role="status">
          {t('knowledge.compare.running', {
            index: Math.min(running.done + 1, running.total),
            total: running.total,
          })}
        </p>
      )}
      {failure && (
        <p className="knowledge-error" role="alert">
          {failure}
        </p>
      )}
      {results && (
        <div className="knowledge-compare-results">
          <p className="muted">{t('knowledge.compare.scales')}</p>
          {results.questions.map(({ question, columns }, index) => (
            <section
              key={index}
              className="knowledge-compare-question"
              aria-label={t('knowledge.compare.question', { index: index + 1 })}
            >
              <h3 className="knowledge-subheading">{question}</h3>
              <div className="knowledge-compare-columns">
                <div aria-label={base.model}>
                  <p className="knowledge-compare-model">{base.model}</p>
                  <HitsColumn column={columns[0]} other={columns[1]} />
                </div>
                <div aria-label={results.against.model}>
                  <p className="knowledge-compare-model">{results.against.model}</p>
                  <HitsColumn column={columns[1]} other={columns[0]} />
                </div>
              </div>
            </section>
          ))}
        </div>
      )}
    </section>
  );
}
