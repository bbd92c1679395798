/**
 * What the person typed, as inputs, and why it cannot be sent yet. Empty entries are refused
 * before anything is sent, with the positions named: "Lines 3 and 7 are empty."
 */
import { formatList, formatNumber } from '../../i18n/format';
import { t } from '../../i18n/i18n';
import type { InputMode, OpenedFile } from './embeddings-store';
import { MAX_EMBEDDING_INPUTS } from '../../../../electron/shared/limits';

/** The lines of a text area; the line break after the last line does not start an empty one. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** "Lines 3 and 7 are empty. Remove them or write a text there." (ten positions at most). */
export function describeEmpty(positions: readonly number[], what: 'lines' | 'items'): string {
  const shown = positions.slice(0, 10);
  const more = positions.length - shown.length;
  const joined = formatList(shown.map((position) => formatNumber(position)));
  const list =
    more > 0 ? t('embeddings.check.andMore', { list: joined, more: formatNumber(more) }) : joined;
  return t(what === 'lines' ? 'embeddings.check.emptyLines' : 'embeddings.check.emptyItems', {
    count: positions.length,
    list,
  });
}

export function collectInputs(
  mode: InputMode,
  linesText: string,
  listItems: readonly string[],
  file: OpenedFile | undefined,
): { inputs: string[]; error?: string } {
  const inputs =
    mode === 'lines' ? linesOf(linesText) : mode === 'list' ? [...listItems] : (file?.inputs ?? []);
  if (inputs.length === 0) {
    return {
      inputs,
      error: t(mode === 'file' ? 'embeddings.check.noFile' : 'embeddings.check.noText'),
    };
  }
  const empty: number[] = [];
  inputs.forEach((input, index) => {
    if (input.trim() === '') empty.push(index + 1);
  });
  if (empty.length > 0) {
    return { inputs, error: describeEmpty(empty, mode === 'list' ? 'items' : 'lines') };
  }
  if (inputs.length > MAX_EMBEDDING_INPUTS)
    return {
      inputs,
      error: t('embeddings.check.tooMany', {
        count: formatNumber(inputs.length),
        max: formatNumber(MAX_EMBEDDING_INPUTS),
      }),
    };
  return { inputs };
}
