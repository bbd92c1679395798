/**
 * The reply the chat-render benchmark streams: 30,000 characters of markdown as a model writes
 * it, with 10 code fences in several languages, a GFM table, inline and display math, lists,
 * headings, emphasis and links. Deterministic, so every run streams the same text.
 */
const LANGUAGES = ['ts', 'python', 'rust', 'go', 'bash', 'json', 'sql', 'java', 'css', 'c'];

const WORDS = (
  'the relay streams each token as it arrives while the window keeps its place and the ' +
  'history stays searchable so that a long answer never blocks typing nor loses a word ' +
  'because every block is parsed once and only the growing tail is rendered again'
).split(' ');

function sentence(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length]!);
  const text = out.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + '.';
}

function paragraph(seed: number): string {
  return [
    sentence(seed, 14),
    `It uses **bold words**, *emphasis*, \`inline code\` and [a link](https://example.com/${seed}).`,
    sentence(seed + 1, 18),
    `Inline math such as $a_${seed % 9}^2 + b^2 = c^2$ sits in the text.`,
  ].join(' ');
}

function codeFence(index: number): string {
  const language = LANGUAGES[index % LANGUAGES.length]!;
  const lines: string[] = [];
  for (let i = 0; i < 22; i++) {
    lines.push(`  value_${index}_${i} = compute(${i}, "item ${i}") // step ${i} of the loop`);
  }
  return ['```' + language, `function example${index}() {`, ...lines, '}', '```'].join('\n');
}

function table(): string {
  const rows = ['| Model | Tokens | Latency (ms) | Notes |', '|---|---:|---:|---|'];
  for (let i = 0; i < 12; i++)
    rows.push(`| model-${i} | ${1000 + i * 37} | ${40 + i} | row ${i} |`);
  return rows.join('\n');
}

function list(seed: number): string {
  return [1, 2, 3, 4].map((i) => `- ${sentence(seed + i, 9)}`).join('\n');
}

const MATH =
  '$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3} \\qquad \\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}\n$$';

export const CORPUS_LENGTH = 30_000;

export function buildCorpus(length = CORPUS_LENGTH): string {
  const parts: string[] = ['# A long answer'];
  let fences = 0;
  let section = 0;
  let size = parts[0]!.length;
  const add = (block: string) => {
    parts.push(block);
    size += block.length + 2;
  };
  // Spread the fences, the table and the math evenly over the reply.
  const per = length / 11;
  while (size < length - 200) {
    add(paragraph(section));
    if (size > per * (fences + 1) && fences < 10) add(codeFence(fences++));
    if (section === 6) add(table());
    if (section % 5 === 2) add(MATH);
    if (section % 4 === 3) add(list(section));
    if (section % 8 === 7) add(`## Section ${section}`);
    section++;
  }
  while (fences < 10) add(codeFence(fences++));
  const text = parts.join('\n\n');
  return text.length > length ? text : text + '\n\n' + 'x'.repeat(length - text.length - 2);
}

/** The reply cut into deltas of `size` characters, as the stream delivers them. */
export function toDeltas(text: string, size = 3): string[] {
  const deltas: string[] = [];
  for (let i = 0; i < text.length; i += size) deltas.push(text.slice(i, i + size));
  return deltas;
}
