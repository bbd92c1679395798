/**
 * Cuts markdown into top-level blocks (paragraphs, lists, fences, tables…) with marked's lexer,
 * incrementally: while a reply grows, only the text from the start of its last block is lexed
 * again, so the cost of an update does not grow with the length of the reply.
 *
 * Every block but the last is final: text that arrives later cannot change it (a blank line or
 * another block already closed it). The last block is the one still growing.
 */
import { Lexer, type Token } from 'marked';

export interface MarkdownBlock {
  /** Stable identity for React: the block's index and a hash of its text. */
  key: string;
  /** The block's markdown, trailing blank lines excluded. */
  raw: string;
}

export interface BlockSplit {
  /** Blocks that later text can no longer change. */
  complete: readonly MarkdownBlock[];
  /** The last block, still growing while the reply streams ('' when there is none). */
  tail: string;
  /**
   * The link reference definitions (`[id]: url`) seen so far, one per line ('' when none). They
   * are blocks of their own to the lexer, yet `[text][id]` in any other block refers to them, and
   * each block is rendered alone: see `withDefinitions`.
   */
  definitions: string;
}

/**
 * Block tokens only: marked's options (GFM on) without touching its global defaults, and without
 * its inline pass (emphasis, links, code spans…), which the split never reads: react-markdown
 * parses each block itself. The text is already normalised (`normaliseMarkdown`).
 */
const lexer = (src: string): Token[] => new Lexer({ gfm: true }).blockTokens(src, []);

/**
 * A line nested deeper than anyone writes (64 quote markers, or 256 columns of indentation):
 * model output built to exhaust the lexer's recursion.
 */
const TOO_DEEP = /^(?:[ \t]*>){64}|^[ \t]{256}/m;

/**
 * The lexer's tokens, even for text nested deeper than its recursion can follow (it throws a
 * RangeError there, which would unmount the whole chat view). The deep part, up to the next blank
 * line, becomes a block of its own, left to the block renderer, which shows it as plain text if
 * it cannot render it; the text around it is lexed as usual. Only hostile text takes this path.
 */
function lexSafely(src: string): Token[] {
  try {
    return lexer(src);
  } catch {
    const deep = TOO_DEEP.exec(src);
    if (!deep) return [rawBlock(src)];
    const blank = /\n[ \t]*\n/g;
    blank.lastIndex = deep.index;
    const end = blank.exec(src);
    const cut = end ? end.index + 1 : src.length;
    const before = src.slice(0, deep.index);
    return [
      ...(before === '' ? [] : lexSafely(before)),
      rawBlock(src.slice(deep.index, cut)),
      ...(cut < src.length ? lexSafely(src.slice(cut)) : []),
    ];
  }
}

function rawBlock(raw: string): Token {
  return { type: 'paragraph', raw, text: raw, tokens: [] };
}

/** Markdown as the lexer reads it: marked normalises line endings, so we do it first, once. */
export function normaliseMarkdown(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** FNV-1a over UTF-16 code units: cheap, and enough to tell two blocks at one index apart. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** Blocks of a finished text, all at once. */
export function splitBlocks(text: string): MarkdownBlock[] {
  const splitter = createBlockSplitter();
  const { complete, tail } = splitter.update(text);
  return tail === '' ? [...complete] : [...complete, blockAt(complete.length, tail)];
}

function blockAt(index: number, raw: string): MarkdownBlock {
  return { key: `${index}:${hashText(raw)}`, raw };
}

export interface BlockSplitter {
  /** The split of `text`; cheap when `text` extends the text of the previous call. */
  update(text: string): BlockSplit;
}

export function createBlockSplitter(): BlockSplitter {
  let seen = '';
  let complete: MarkdownBlock[] = [];
  /** Where the text after the complete blocks starts. */
  let tailStart = 0;
  /** Definitions among the complete blocks. */
  let definitions: string[] = [];
  let last: BlockSplit = { complete, tail: '', definitions: '' };

  /** The last text given, as given, and whether it held a carriage return. */
  let given = '';
  let givenHadReturn = false;

  return {
    update(input) {
      if (input === given) return last;
      // A text that grew from the last one has a return only if the last one or its new part
      // has: a streaming reply's text is not scanned whole at each frame for one.
      const grown = input.length > given.length && input.startsWith(given);
      const hasReturn = grown
        ? givenHadReturn || input.includes('\r', Math.max(0, given.length - 1))
        : input.includes('\r');
      given = input;
      givenHadReturn = hasReturn;
      const text = hasReturn ? input.replace(/\r\n?/g, '\n') : input;
      if (text === seen) return last;
      // Without returns, a text grown from the last one extends what was split (no second scan).
      if (!(grown && !hasReturn) && !text.startsWith(seen)) {
        // Edited or replaced, not grown: start again.
        complete = [];
        tailStart = 0;
        definitions = [];
      }
      seen = text;

      const tokens = lexSafely(text.slice(tailStart));
      // The last token that is not blank lines is still growing; everything before it is final.
      let lastContent = tokens.length - 1;
      while (lastContent >= 0 && tokens[lastContent]!.type === 'space') lastContent--;

      let offset = tailStart;
      let grew = false;
      for (let i = 0; i < lastContent; i++) {
        const token = tokens[i]!;
        if (token.type === 'def') definitions.push(trimBlankLines(token.raw));
        else if (token.type !== 'space') {
          if (!grew) {
            complete = complete.slice();
            grew = true;
          }
          complete.push(blockAt(complete.length, trimBlankLines(token.raw)));
        }
        offset += token.raw.length;
      }
      tailStart = offset;
      const lastToken = lastContent >= 0 ? tokens[lastContent]! : undefined;
      const lastRaw = lastToken ? trimBlankLines(lastToken.raw) : '';
      // A definition last (where they often go) already counts, though it may still grow.
      const tailIsDefinition = lastToken?.type === 'def';
      const all = tailIsDefinition ? [...definitions, lastRaw] : definitions;
      last = { complete, tail: tailIsDefinition ? '' : lastRaw, definitions: all.join('\n') };
      return last;
    },
  };
}

/**
 * How many complete blocks render as one group. A streaming reply renders again every frame; with
 * its complete blocks in groups that keep their identity, React skips every full group at once
 * and walks only the last group and the tail, so a frame costs the same at block 2,000 as at
 * block 20 (each block alone would be visited, and its memo compared, every frame).
 */
export const BLOCKS_PER_GROUP = 32;

/**
 * `complete` cut into groups of `BLOCKS_PER_GROUP`, each group the same array as in `previous`
 * while it holds the same blocks (the splitter only appends blocks, and makes new ones when the
 * text starts again), so that a memoized group renders again only when its blocks changed.
 */
export function groupBlocks(
  complete: readonly MarkdownBlock[],
  previous: ReadonlyArray<readonly MarkdownBlock[]> = [],
): Array<readonly MarkdownBlock[]> {
  const groups: Array<readonly MarkdownBlock[]> = [];
  for (let start = 0; start < complete.length; start += BLOCKS_PER_GROUP) {
    const end = Math.min(start + BLOCKS_PER_GROUP, complete.length);
    const before = previous[groups.length];
    // Blocks are only ever appended, or all made anew: the ends tell whether the group changed.
    const same =
      before !== undefined &&
      before.length === end - start &&
      before[0] === complete[start] &&
      before[before.length - 1] === complete[end - 1];
    groups.push(same ? before : complete.slice(start, end));
  }
  return groups;
}

function trimBlankLines(raw: string): string {
  return raw.replace(/\n+$/, '');
}

/** Code (fenced or indented) and display math, where a `[x]` is text, not a link. */
const CODE_OR_MATH = /^(?: {0,3}(?:```|~~~)| {4}|\t| {0,3}\$\$)/;

/**
 * A block's markdown with the message's link reference definitions after it, so that
 * `[text][id]` resolves although the block is rendered alone. Only blocks with a `]` that are not
 * code or math get them (appended to an open code fence they would show as code).
 */
export function withDefinitions(raw: string, definitions: string): string {
  if (definitions === '' || !raw.includes(']') || CODE_OR_MATH.test(raw)) return raw;
  return `${raw}\n\n${definitions}`;
}
