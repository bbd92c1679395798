import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Figures of the reliability suite (issue 7). Each test file records its section's figures to
 * `reliability-results/<section-slug>.json`; `tests/reliability/write-report.ts` turns all of them
 * into docs/reliability.md and refuses when a section is missing or was measured in reduced mode.
 */

export const FULL = Boolean(process.env.RELIABILITY_FULL);
export type Mode = 'full' | 'reduced';
export const MODE: Mode = FULL ? 'full' : 'reduced';

/** The full count of the issue in `npm run test:reliability`, the reduced one in `npm test`. */
export function count(full: number, reduced: number): number {
  return FULL ? full : reduced;
}

export interface Figure {
  name: string;
  value: number | string;
  unit?: string | undefined;
  /** What the issue asks for, e.g. ">= 500" or "0". */
  target?: string | undefined;
  ok?: boolean | undefined;
}

export interface SectionResult {
  section: number;
  title: string;
  measuredAt: string;
  mode: Mode;
  figures: Figure[];
  notes: string[];
}

export const RESULTS_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'reliability-results',
);

export function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Where reduced runs (`npm test`) put their figures: apart, so that an `npm test` on the same
 * checkout never replaces the figures of a full run.
 */
export const REDUCED_DIR = join(RESULTS_DIR, 'reduced');

/**
 * Path of a section's result file, e.g. `reliability-results/7-hostile-model-output.json` in a
 * full run, `reliability-results/reduced/7-hostile-model-output.json` in a reduced one.
 */
export function resultPath(section: number, title: string, mode: Mode = MODE): string {
  return join(mode === 'full' ? RESULTS_DIR : REDUCED_DIR, `${section}-${slug(title)}.json`);
}

/**
 * Writes one section's figures. Call it once per section, after the checks ran (so a file only
 * exists for a section whose tests got that far); `notes` say how the figures were measured.
 */
export function recordFigures(
  section: number,
  title: string,
  figures: Figure[],
  notes: string[] = [],
): string {
  const result: SectionResult = {
    section,
    title,
    measuredAt: new Date().toISOString(),
    mode: MODE,
    figures,
    notes,
  };
  const path = resultPath(section, title);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
  return path;
}
