/**
 * axe-core in the page under test: an accessibility scan of what is on screen now.
 *
 * The script goes in with `page.evaluate`, which runs outside the page's Content-Security-Policy
 * (the app's own CSP allows no inline or injected script, and should not be loosened for a test).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: Promise<string> | undefined;

/** One rule broken, with where and how to fix it. */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  helpUrl: string;
  targets: string[];
  /** What axe says about the first offending element (for a contrast: the two colours). */
  summary: string;
}

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** Scans the whole page (or `include`, a selector) and returns every violation. */
export async function scanPage(page: Page, include?: string): Promise<AxeViolation[]> {
  source ??= readFile(join(dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8');
  const loaded = await page.evaluate('typeof globalThis.axe === "object"');
  if (!loaded) await page.evaluate(await source);
  return page.evaluate(
    async ({ tags, include }) => {
      type Node = { target: unknown[]; failureSummary?: string; html: string };
      type Result = {
        id: string;
        impact: AxeViolation['impact'];
        help: string;
        helpUrl: string;
        nodes: Node[];
      };
      const axe = (
        globalThis as unknown as {
          axe: { run(context: unknown, options: unknown): Promise<{ violations: Result[] }> };
        }
      ).axe;
      type Animation = {
        finished: Promise<unknown>;
        effect: { getComputedTiming(): { endTime?: number | string } } | null;
      };
      const doc = (globalThis as unknown as { document: { getAnimations(): Animation[] } })
        .document;
      // What is on screen once it has settled: a tooltip caught halfway through its fade has the
      // colours of neither state (its text on a half-blended background), which is no contrast a
      // person reads. Endless animations (a spinner) are left running.
      await Promise.all(
        doc
          .getAnimations()
          .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
          .map((a) => a.finished.catch(() => undefined)),
      );
      const context = include ?? doc;
      const { violations } = await axe.run(context, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      return violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        helpUrl: violation.helpUrl,
        targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
        summary: `${violation.nodes[0]?.html ?? ''}\n${violation.nodes[0]?.failureSummary ?? ''}`,
      }));
    },
    { tags: AXE_TAGS, include },
  );
}

/** The violations that fail a scan: serious and critical ones. */
export function blocking(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A report a person can act on: rule, impact, help, link, and each element that breaks it. */
export function describeViolations(state: string, violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${state}: ${v.id} (${v.impact}) ${v.help}\n  ${v.helpUrl}\n` +
        v.targets
          .slice(0, 8)
          .map((t) => `  - ${t}`)
          .join('\n') +
        (v.targets.length > 8 ? `\n  … and ${v.targets.length - 8} more` : '') +
        (v.summary ? `\n  ${v.summary.replace(/\n/g, '\n  ')}` : ''),
    )
    .join('\n');
}
