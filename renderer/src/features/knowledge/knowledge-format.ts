import type { KnowledgeHit } from './knowledge-store';

/** "page 2 · Guide › Install · lines 9–11" */
export function positionText(position: KnowledgeHit['position']): string {
  const parts: string[] = [];
  if (position.page !== null) parts.push(`page ${position.page}`);
  if (position.headings.length > 0) parts.push(position.headings.join(' › '));
  parts.push(
    position.lineStart === position.lineEnd
      ? `line ${position.lineStart}`
      : `lines ${position.lineStart}–${position.lineEnd}`,
  );
  return parts.join(' · ');
}
