/**
 * Cuts a document's text into chunks for embedding, along its structure: a Markdown heading
 * starts a new chunk (and names the chunk's heading path; a heading with no text before the next
 * heading shares the next one's chunk), a fenced code block is kept whole
 * when it fits, paragraphs are packed together up to `maxChars`, and a PDF is cut page by page.
 * A block longer than `maxChars` is cut at line ends, else at spaces, else anywhere.
 *
 * Each chunk after the first of a section repeats at most `overlapChars` of the text before it
 * (from a word boundary), so a sentence cut between two chunks is whole in one of them.
 *
 * A chunk is a range of the text it came from (`text.slice(start, end)`, the page's text for a
 * PDF), so its position (page, heading path, lines) is exact, and every non-blank character of
 * the document is in at least one chunk.
 */
import { createHash } from 'node:crypto';
import type { DocumentFormat } from '../documents/document-text';

export interface ChunkOptions {
  /** The longest chunk, in characters, before its overlap. */
  maxChars: number;
  /** The most characters a chunk repeats from the one before it. */
  overlapChars: number;
}

/** About 400 tokens, well under every embeddings model's input limit, and 50 words of overlap. */
export const CHUNK_OPTIONS: ChunkOptions = { maxChars: 1600, overlapChars: 240 };

export interface Chunk {
  text: string;
  /** The range of the source text (the page's, for a PDF) the chunk is. */
  start: number;
  end: number;
  /** 1-based page of a PDF, null otherwise. */
  page: number | null;
  /** The Markdown headings the chunk sits under, outermost first. */
  headings: string[];
  /** 1-based lines of the source text (the page's, for a PDF), inclusive. */
  lineStart: number;
  lineEnd: number;
  /** sha256 of the text, hex: the same text keeps its vector across re-indexing. */
  hash: string;
}

export interface ChunkSource {
  format: DocumentFormat;
  text: string;
  pages?: ReadonlyArray<{ page: number; text: string }>;
}

interface Block {
  start: number;
  end: number;
  headings: string[];
  /** A heading line: it opens a new chunk. */
  opensSection: boolean;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Whether a chunk's text is Markdown headings and nothing else: a few words that match a question
 * better than the passage they name, so search ranks such a chunk after the passages.
 */
export function isHeadingsOnly(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 0 && lines.every((line) => HEADING.test(line));
}

/** The offsets where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line of `offset`. */
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] as number) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** The text's lines with their ranges (without the line break). */
function lines(text: string): Array<{ start: number; end: number; text: string }> {
  const out: Array<{ start: number; end: number; text: string }> = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const lineEnd = end > start && text[end - 1] === '\r' ? end - 1 : end;
    out.push({ start, end: lineEnd, text: text.slice(start, lineEnd) });
    if (nl === -1) return out;
    start = nl + 1;
  }
}

/** Paragraphs (runs of non-blank lines), Markdown headings and fenced code blocks. */
function blocks(text: string, markdown: boolean): Block[] {
  const out: Block[] = [];
  let headings: string[] = [];
  let paragraph: { start: number; end: number } | undefined;
  let fence: { marker: string; start: number } | undefined;
  const flush = () => {
    if (paragraph) out.push({ ...paragraph, headings, opensSection: false });
    paragraph = undefined;
  };
  for (const line of lines(text)) {
    if (markdown) {
      if (fence) {
        const close = FENCE.exec(line.text);
        if (
          close &&
          close[1]![0] === fence.marker[0] &&
          close[1]!.length >= fence.marker.length &&
          line.text.trim() === close[1]
        ) {
          out.push({ start: fence.start, end: line.end, headings, opensSection: false });
          fence = undefined;
        }
        continue;
      }
      const open = FENCE.exec(line.text);
      if (open) {
        flush();
        fence = { marker: open[1]!, start: line.start };
        continue;
      }
      const heading = HEADING.exec(line.text);
      if (heading) {
        flush();
        const level = heading[1]!.length;
        headings = [...headings.slice(0, level - 1), heading[2]!.trim()];
        out.push({ start: line.start, end: line.end, headings, opensSection: true });
        continue;
      }
    }
    if (line.text.trim() === '') flush();
    else if (paragraph) paragraph.end = line.end;
    else paragraph = { start: line.start, end: line.end };
  }
  // A fence never closed runs to the end of the text.
  if (fence) out.push({ start: fence.start, end: text.length, headings, opensSection: false });
  flush();
  return out;
}

/** Cuts a block longer than `max` at line ends, else spaces, else anywhere. */
function splitBlock(text: string, block: Block, max: number): Block[] {
  const out: Block[] = [];
  let start = block.start;
  let opensSection = block.opensSection;
  while (block.end - start > max) {
    const limit = start + max;
    let cut = text.lastIndexOf('\n', limit - 1);
    if (cut <= start) {
      cut = -1;
      for (let i = limit - 1; i > start; i--) {
        if (/\s/.test(text[i]!)) {
          cut = i;
          break;
        }
      }
    }
    if (cut <= start) cut = limit;
    // A piece ends before the break and the next starts after any blank characters.
    let end = cut;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (end > start) out.push({ start, end, headings: block.headings, opensSection });
    opensSection = false;
    start = cut;
    while (start < block.end && /\s/.test(text[start]!)) start++;
  }
  if (start < block.end)
    out.push({ start, end: block.end, headings: block.headings, opensSection });
  return out;
}

/** Moves `from` forward to the start of a word, never past `limit`. */
function wordStart(text: string, from: number, limit: number): number {
  if (from === 0 || /\s/.test(text[from - 1]!)) return from;
  let i = from;
  while (i < limit && !/\s/.test(text[i]!)) i++;
  while (i < limit && /\s/.test(text[i]!)) i++;
  return i;
}

/** Chunks of one text (a document, or one page of a PDF). */
export function chunkText(
  text: string,
  format: DocumentFormat,
  options: ChunkOptions = CHUNK_OPTIONS,
  page: number | null = null,
): Chunk[] {
  const max = Math.max(1, Math.floor(options.maxChars));
  const overlap = Math.max(0, Math.floor(options.overlapChars));
  const pieces = blocks(text, format === 'markdown').flatMap((b) => splitBlock(text, b, max));
  const ranges: Array<{
    start: number;
    end: number;
    headings: string[];
    opensSection: boolean;
    /** Only heading lines so far: the next piece joins it, whatever it is, if it fits. */
    headingsOnly: boolean;
  }> = [];
  for (const piece of pieces) {
    const current = ranges.at(-1);
    const fits = current !== undefined && piece.end - current.start <= max;
    if (current && fits && current.headingsOnly) {
      // A heading with nothing under it yet (a title, then a sub-heading) is not a chunk of its
      // own: alone, its few words match a question better than the text it names.
      current.end = piece.end;
      current.headings = piece.headings;
      current.headingsOnly = piece.opensSection;
    } else if (current && fits && !piece.opensSection) {
      current.end = piece.end;
      current.headingsOnly = false;
    } else {
      ranges.push({ ...piece, headingsOnly: piece.opensSection });
    }
  }
  const starts = lineStarts(text);
  return ranges.map((range, i) => {
    let start = range.start;
    const previous = ranges[i - 1];
    if (previous && overlap > 0 && !range.opensSection) {
      const from = Math.max(previous.start + 1, range.start - overlap);
      start = wordStart(text, from, range.start);
    }
    const body = text.slice(start, range.end);
    return {
      text: body,
      start,
      end: range.end,
      page,
      headings: range.headings,
      lineStart: lineOf(starts, start),
      lineEnd: lineOf(starts, Math.max(start, range.end - 1)),
      hash: createHash('sha256').update(body).digest('hex'),
    };
  });
}

/** A document's chunks: its pages one by one for a PDF, its whole text otherwise. */
export function chunkDocument(source: ChunkSource, options: ChunkOptions = CHUNK_OPTIONS): Chunk[] {
  if (source.pages !== undefined && source.pages.length > 0)
    return source.pages.flatMap((p) => chunkText(p.text, source.format, options, p.page));
  return chunkText(source.text, source.format, options);
}
