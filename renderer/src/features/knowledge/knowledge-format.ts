import { formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import type { KnowledgeHit } from './knowledge-store';

/** "page 2 · Guide › Install · lines 9–11" */
export function positionText(position: KnowledgeHit['position']): string {
  const parts: string[] = [];
  if (position.page !== null) parts.push(t('knowledge.where.page', { page: position.page }));
  if (position.headings.length > 0) parts.push(position.headings.join(' › '));
  parts.push(
    position.lineStart === position.lineEnd
      ? t('knowledge.where.line', { line: position.lineStart })
      : t('knowledge.where.lines', { start: position.lineStart, end: position.lineEnd }),
  );
  return parts.join(' · ');
}

/** A cosine similarity as the scores are shown: three decimals, in the language's own form. */
export function formatScore(score: number): string {
  return formatNumber(score, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
}
