/**
 * A run's vectors as a file: JSON (the run, and each input with its vector) or CSV (a row per
 * embedded input: its index, its text, then one column per dimension). Numbers are written so
 * that reading them back as float32 gives exactly the stored values.
 */
import type { ItemRow, RunRow } from './run-store';

export function runToJson(run: RunRow, items: readonly ItemRow[]): string {
  const embedded = items.filter((item) => item.vector !== undefined);
  return JSON.stringify(
    {
      id: run.id,
      model: run.model,
      createdAt: run.createdAt,
      status: run.status,
      dimensions: run.dimensions ?? null,
      inputs: embedded.map((item) => ({
        index: item.index,
        text: item.text,
        ...(item.tokens !== undefined ? { tokens: item.tokens } : {}),
        embedding: Array.from(item.vector as Float32Array),
      })),
    },
    null,
    1,
  );
}

/**
 * A text as a CSV cell. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab
 * or carriage return before one) as a formula, so such a text gets a single quote in front, as
 * OWASP's advice on CSV injection says: shown as written, never run. Only texts: the vector
 * columns are numbers, negative ones included, and are written as they are.
 */
function csvTextCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function runToCsv(run: RunRow, items: readonly ItemRow[]): string {
  const dimensions = run.dimensions ?? 0;
  const header = ['index', 'text'];
  for (let d = 0; d < dimensions; d++) header.push(`d${d}`);
  const lines = [header.join(',')];
  for (const item of items) {
    if (item.vector === undefined) continue;
    lines.push(`${item.index},${csvTextCell(item.text)},${Array.from(item.vector).join(',')}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}
