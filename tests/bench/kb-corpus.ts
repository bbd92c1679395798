/**
 * The knowledge base benchmarks' corpus: 2,000 files of 25 chunks of 60 made-up words, drawn
 * from a Zipf-like vocabulary (the seeded generator of seeded.ts), 50,000 chunks in all. kb-query
 * stores the chunks directly; kb-index writes them as Markdown files, one `##` section per chunk,
 * and indexes the folder the way the app does.
 */
import { seededRandom, syntheticWord } from './seeded';

export const FILES = 2_000;
export const CHUNKS_PER_FILE = 25;
export const WORDS_PER_CHUNK = 60;
const VOCABULARY = 5_000;

const wordAt = (index: number): string => syntheticWord(index, 5, 'a');

/** `words` words, small indexes far more often than large ones (Zipf-like). */
export function corpusSentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(wordAt(Math.floor(VOCABULARY ** next()) - 1));
  return out.join(' ');
}

/** The corpus's numbers, the same sequence for the same seed. */
export function corpusRandom(seed = 7): () => number {
  return seededRandom(seed);
}

/** File `f` as Markdown: one section per chunk, each short enough to stay whole. */
export function corpusMarkdown(f: number, next: () => number): string {
  const sections: string[] = [];
  for (let c = 0; c < CHUNKS_PER_FILE; c++)
    sections.push(`## Document ${f}, part ${c + 1}\n\n${corpusSentence(next, WORDS_PER_CHUNK)}`);
  return `${sections.join('\n\n')}\n`;
}
