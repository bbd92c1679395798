/**
 * A search snippet as plain text: replies are markdown, and a snippet cut from one would show its
 * markers (`## Draft a reminder…`, `**bold**`, `[a link](https://…)`). This removes the syntax and
 * keeps the words, on one line. It works on a fragment (FTS5 cuts snippets anywhere, `…` marks a
 * cut), and leaves alone every character it does not know, such as the hit markers around the
 * matched words.
 */
const LINE_START = String.raw`(^|\n|…)[ \t]*`;
/** The hit markers FTS5 puts around matched words (see store.ts): a word boundary here. */
const MARKS = String.raw`\u0002\u0003`;

const RULES: Array<[RegExp, string]> = [
  // Code fences and horizontal rules: lines of syntax only.
  [/^[ \t]*(?:`{3,}|~{3,})[^\n]*$/gm, ''],
  [/^[ \t]*(?:[-*_][ \t]*){3,}$/gm, ''],
  // Table separator rows (`| --- | ---: |`).
  [/^[ \t]*\|?[ \t]*:?-{3,}:?(?:[ \t]*\|[ \t]*:?-{3,}:?)*[ \t]*\|?[ \t]*$/gm, ''],
  // Block markers at the start of a line (or of a cut snippet): headings, quotes, list items.
  [new RegExp(`${LINE_START}#{1,6}[ \\t]+`, 'g'), '$1'],
  [new RegExp(`${LINE_START}(?:>[ \\t]?)+`, 'g'), '$1'],
  [new RegExp(`${LINE_START}(?:[-*+]|\\d{1,9}[.)])[ \\t]+(?:\\[[ xX]\\][ \\t]+)?`, 'g'), '$1'],
  // Images and links keep their text: `[text](url)`, `![alt](url)`, `[text][id]`, a URL cut off.
  [/!?\[([^\]\n]*)\](?:\([^)\n]*\)?|\[[^\]\n]*\])?/g, '$1'],
  // Emphasis and strikethrough: the markers, not the words.
  [/\*\*|__|~~/g, ''],
  [new RegExp(`(^|[\\s([{"'…${MARKS}])[*_]+(?=\\S)`, 'g'), '$1'],
  [new RegExp(`(\\S)[*_]+(?=[\\s)\\]}.,;:!?"'…${MARKS}]|$)`, 'g'), '$1'],
  // Code spans and table cells.
  [/`+/g, ''],
  [/[ \t]*\|[ \t]*/g, ' '],
];

export function plainSnippet(markdown: string): string {
  let text = markdown;
  for (const [pattern, replacement] of RULES) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim();
}
