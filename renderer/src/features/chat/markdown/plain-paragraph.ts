/**
 * Prose without markup: a block that markdown can only read as one paragraph holding its own text,
 * character for character. Most of a reply's paragraphs are such prose, and rendering one through
 * the whole markdown pipeline (micromark, mdast, hast, React elements: about half a millisecond
 * each) is most of what a streaming reply costs the page, four compared replies at once. Such a
 * block is given its paragraph directly; the page shows exactly what the pipeline would make of
 * it (tests/unit/chat/markdown-plain-paragraph.test.ts holds the two side by side).
 *
 * Conservative: anything that could start markup anywhere in the block (emphasis, code, links,
 * citations, footnotes, math, HTML, character references, escapes, strikethrough, tables,
 * autolinks), any line break, tab or control character, whitespace at either end, and anything
 * at the start of the line that could open a block (headings, quotes, lists, rules, fences,
 * indented code) sends the block through the pipeline as before.
 */

/** Characters that may start markup inside a line, and line breaks, tabs and controls. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const INLINE_MARKUP = /[\\`*_~[\]<>&$|@\u0000-\u001f\u007f]/;
/** Autolink literals (GFM): `www.`, `http://`, `https://`, whatever their case. */
const AUTOLINK = /www\.|https?:\/\//i;
/** What may open a block at the start of a line: headings, lists, rules, setext lines, fences. */
const BLOCK_START = /^(?:[#+\-=]|\d{1,9}[.)])/;

export function isPlainParagraph(markdown: string): boolean {
  return (
    markdown !== '' &&
    !INLINE_MARKUP.test(markdown) &&
    !/^\s|\s$/.test(markdown) &&
    !BLOCK_START.test(markdown) &&
    !AUTOLINK.test(markdown)
  );
}
