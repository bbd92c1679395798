/**
 * The growing end of a streaming reply, with markup that has opened and not yet closed taken out,
 * so that half-written markdown never flashes as its raw markers: `The **Longest` shows as "The
 * Longest" until `**` closes it and it turns bold; a code span or a fence line half written waits
 * for its end. Only the last block is given here (the earlier ones are complete), and only while
 * the reply streams: the finished reply is rendered as written.
 */

/** A fenced code block: its code shows as it arrives (the fence is not shown as text). */
const FENCE_OPEN = /^ {0,3}(?:`{3,}|~{3,})/;

/** Finds each match of `pattern` in `text`: start and length. */
function spans(text: string, pattern: RegExp): Array<[number, number]> {
  return [...text.matchAll(pattern)].map((match) => [match.index, match[0].length]);
}

/** `text` with `length` characters at `at` taken out. */
function cut(text: string, at: number, length: number): string {
  return text.slice(0, at) + text.slice(at + length);
}

export function hideUnclosedMarkup(tail: string): string {
  if (FENCE_OPEN.test(tail)) {
    // A closing fence half written (a line of one or two backticks or tildes) waits.
    return tail.replace(/\n {0,3}(?:`{1,2}|~{1,2})$/, '\n');
  }
  // An opening fence half written (one or two backticks alone on the last line) waits.
  let text = tail.replace(/(^|\n) {0,3}`{1,2}$/, '$1');

  // Code spans: an odd count of backtick runs leaves the last one open; it waits.
  const ticks = spans(text, /`+/g);
  if (ticks.length % 2 === 1) {
    const [at, length] = ticks[ticks.length - 1]!;
    text = cut(text, at, length);
  }

  // Inside closed code spans markers are text: they are masked (same length) before counting.
  const masked = () => text.replace(/`+[^`]*`+/g, (span) => ' '.repeat(span.length));

  // Strong, strikethrough: the last of an odd count waits.
  for (const marker of [/\*\*/g, /~~/g, /(?<![\w_])__|__(?![\w_])/g]) {
    const found = spans(masked(), marker);
    if (found.length % 2 === 1) {
      const [at, length] = found[found.length - 1]!;
      text = cut(text, at, length);
    }
  }
  // Emphasis with one star (not a list bullet, not part of a double star): the same.
  const stars = spans(masked(), /(?<!\*)\*(?!\*)/g).filter(
    ([at]) => !/(?:^|\n)[ \t]*$/.test(text.slice(0, at)) || !/^\*[ \t]/.test(text.slice(at)),
  );
  if (stars.length % 2 === 1) {
    const [at, length] = stars[stars.length - 1]!;
    text = cut(text, at, length);
  }
  // A link whose text or address is still arriving shows its text alone.
  text = text
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*$/, '$1')
    .replace(/(^|[^\]\\])\[([^\]\n]*)$/, '$1$2');
  return text;
}
