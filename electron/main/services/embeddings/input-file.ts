/**
 * Reads the inputs of a run from a file the person opened: a .txt file holds one input per line,
 * a .csv file one per cell (or, when its header names a `text` or `input` column, that column).
 * Anything else, or a file that is not UTF-8 text, is refused with a sentence that says why.
 */
import { readRegularFile } from '../files/regular-file';
import { basename, extname } from 'node:path';
import { MAX_EMBEDDING_INPUT_CHARS } from '../../../shared/ipc/routes/embeddings';
import { MAX_EMBEDDING_INPUTS } from '../../../shared/limits';
import { AppError } from '../app-error';
import { said, type Said } from '../words';

/** Larger files are refused before they are read. */
export const MAX_INPUT_FILE_BYTES = 8 * 1024 * 1024;

/** Where a CSV cannot be read (caught below and said with the file's name). */
class CsvError extends Error {}

export interface InputFile {
  fileName: string;
  inputs: string[];
  skippedEmpty: number;
}

/** RFC 4180 rows: quoted cells may hold commas, quotes (doubled) and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  const endRow = () => {
    endCell();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') endCell();
    else if (ch === '\r' || ch === '\n') {
      endRow();
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else cell += ch;
    i++;
  }
  if (quoted) throw new CsvError('a quoted cell is never closed');
  if (cell !== '' || row.length > 0) endRow();
  return rows;
}

const TEXT_COLUMNS = ['text', 'input', 'inputs', 'sentence', 'content'];

/** The inputs in a file's text, by its extension. */
export function inputsFromText(
  text: string,
  extension: string,
): { inputs: string[]; skippedEmpty: number } {
  let cells: string[];
  if (extension === '.csv') {
    const rows = parseCsv(text);
    const header = rows[0]?.map((c) => c.trim().toLowerCase()) ?? [];
    const column = header.findIndex((name) => TEXT_COLUMNS.includes(name));
    cells =
      column >= 0 ? rows.slice(1).map((row) => row[column] ?? '') : rows.flatMap((row) => row);
  } else {
    cells = text.split(/\r\n|\r|\n/);
    // The line break that ends the last line does not start an empty one.
    if (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  }
  const inputs = cells.filter((cell) => cell.trim() !== '');
  return { inputs, skippedEmpty: cells.length - inputs.length };
}

export async function readInputFile(path: string): Promise<InputFile> {
  const fileName = basename(path);
  const extension = extname(path).toLowerCase();
  const refuse = (why: Said | string) =>
    new AppError('invalid_request', said('embeddings.input.refused', { name: fileName, why }));
  if (extension !== '.txt' && extension !== '.csv') throw refuse(said('embeddings.input.why.type'));
  // A regular file only, and never more than the cap: a pipe or a device is never read.
  const read = await readRegularFile(path, MAX_INPUT_FILE_BYTES);
  if (!read.ok) {
    switch (read.problem) {
      case 'missing':
        throw refuse(said('embeddings.input.why.notFound'));
      case 'not_regular':
        throw refuse(said('embeddings.input.why.notAFile'));
      case 'too_large':
      case 'changed': {
        const size = read.problem === 'too_large' ? read.size : MAX_INPUT_FILE_BYTES + 1;
        throw refuse(
          said('embeddings.input.why.tooLarge', { size: (size / 1024 / 1024).toFixed(1), max: 8 }),
        );
      }
      case 'unreadable':
        throw refuse(said('embeddings.input.why.unreadable'));
    }
  }
  const bytes = read.bytes;
  if (bytes.includes(0)) throw refuse(said('embeddings.input.why.notText'));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw refuse(said('embeddings.input.why.notUtf8'));
  }
  let parsed: { inputs: string[]; skippedEmpty: number };
  try {
    parsed = inputsFromText(text, extension);
  } catch (error) {
    throw refuse(error instanceof Error ? error.message : said('embeddings.input.why.notCsv'));
  }
  if (parsed.inputs.length === 0) throw refuse(said('embeddings.input.why.empty'));
  if (parsed.inputs.length > MAX_EMBEDDING_INPUTS)
    throw refuse(
      said('embeddings.input.why.tooMany', {
        count: parsed.inputs.length,
        max: MAX_EMBEDDING_INPUTS,
      }),
    );
  const long = parsed.inputs.findIndex((input) => input.length > MAX_EMBEDDING_INPUT_CHARS);
  if (long >= 0)
    throw refuse(
      said('embeddings.input.why.tooLong', {
        position: long + 1,
        length: parsed.inputs[long]?.length ?? 0,
        max: MAX_EMBEDDING_INPUT_CHARS,
      }),
    );
  return { fileName, ...parsed };
}
