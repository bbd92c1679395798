/**
 * What the person typed, as inputs, and why it cannot be sent yet. Empty entries are refused
 * before anything is sent, with the positions named: "Lines 3 and 7 are empty."
 */
import type { InputMode, OpenedFile } from './embeddings-store';

export const MAX_INPUTS = 5000;

/** The lines of a text area; the line break after the last line does not start an empty one. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function describeEmpty(positions: readonly number[], noun: string): string {
  const shown = positions.slice(0, 10);
  const more = positions.length - shown.length;
  if (shown.length === 1 && more === 0) return `${noun} ${shown[0]} is empty.`;
  const list = `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
  return `${noun}s ${list}${more > 0 ? ` (and ${more} more)` : ''} are empty.`;
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
      error:
        mode === 'file' ? 'Open a .txt or .csv file first.' : 'Write at least one text to embed.',
    };
  }
  const empty: number[] = [];
  inputs.forEach((input, index) => {
    if (input.trim() === '') empty.push(index + 1);
  });
  if (empty.length > 0) {
    const what = describeEmpty(empty, mode === 'list' ? 'Item' : 'Line');
    return {
      inputs,
      error: `${what} Remove ${empty.length === 1 ? 'it' : 'them'} or write a text there.`,
    };
  }
  if (inputs.length > MAX_INPUTS)
    return {
      inputs,
      error: `There are ${inputs.length} texts; one run takes at most ${MAX_INPUTS}.`,
    };
  return { inputs };
}
