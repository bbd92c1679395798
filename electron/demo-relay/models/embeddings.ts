/**
 * The demo embedding model: a hashed bag of features, not a neural network, but its vectors do
 * carry some meaning, so the embeddings playground shows sensible neighbours:
 *
 * - words (minus a few stop words), so texts sharing words are close;
 * - character 2- to 4-grams of each space-padded word, so `running` is near `runner` and typos
 *   stay close;
 * - a small hand-written table of concepts (cat/kitten/kitty, dog/puppy, ...). Hashing alone cannot
 *   know that `cat` and `kitten` are related; this table is how the demo pretends to, for the
 *   handful of words it lists. Anything outside it is matched on spelling only.
 *
 * Each feature is hashed to one of `EMBEDDING_DIMENSIONS` slots with a hashed sign (which keeps
 * unrelated texts near cosine 0), and the vector is L2-normalised. Same text, same vector.
 */
import { fnv1a } from './hash';

export const EMBEDDING_DIMENSIONS = 256;

const WORD_WEIGHT = 1;
const CONCEPT_WEIGHT = 2.5;
const NGRAM_WEIGHT = 0.35;

const STOP_WORDS = new Set(
  'a an the and or but of to in on at by for with from is are was were be been it its this that these those as i you he she we they my your our their'.split(
    ' ',
  ),
);

const CONCEPTS: Record<string, readonly string[]> = {
  cat: ['cat', 'cats', 'kitten', 'kittens', 'kitty', 'feline', 'tomcat'],
  dog: ['dog', 'dogs', 'puppy', 'puppies', 'pup', 'hound', 'canine'],
  money: [
    'invoice',
    'invoices',
    'bill',
    'billing',
    'receipt',
    'payment',
    'payments',
    'price',
    'cost',
    'pay',
  ],
  car: ['car', 'cars', 'automobile', 'vehicle', 'vehicles', 'truck', 'sedan'],
  happy: ['happy', 'glad', 'joyful', 'cheerful', 'delighted', 'joy'],
  sad: ['sad', 'unhappy', 'sorrow', 'gloomy', 'miserable'],
  food: ['food', 'meal', 'dinner', 'lunch', 'breakfast', 'eat', 'eating'],
  fruit: ['fruit', 'apple', 'apples', 'banana', 'bananas', 'orange', 'pear', 'grape'],
  computer: ['computer', 'laptop', 'pc', 'desktop', 'notebook'],
  code: [
    'code',
    'program',
    'programming',
    'software',
    'function',
    'typescript',
    'javascript',
    'python',
  ],
  weather: ['weather', 'rain', 'sunny', 'snow', 'storm', 'forecast', 'cloudy'],
  big: ['big', 'large', 'huge', 'enormous', 'giant'],
  small: ['small', 'tiny', 'little', 'miniature'],
};

const CONCEPT_OF = new Map<string, string>(
  Object.entries(CONCEPTS).flatMap(([concept, words]) =>
    words.map((word) => [word, concept] as const),
  ),
);

/** The vector of one text, `dimensions` long (a prefix of the full vector, renormalised). */
export function embedText(text: string, dimensions = EMBEDDING_DIMENSIONS): number[] {
  const vector = new Float64Array(EMBEDDING_DIMENSIONS);
  const add = (feature: string, weight: number): void => {
    const hash = fnv1a(feature);
    const slot = hash % EMBEDDING_DIMENSIONS;
    vector[slot] = (vector[slot] ?? 0) + (hash & 0x80000000 ? -weight : weight);
  };

  const words = normalise(text).match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    if (STOP_WORDS.has(word)) continue;
    add(`w:${word}`, WORD_WEIGHT);
    const concept = CONCEPT_OF.get(word);
    if (concept) add(`c:${concept}`, CONCEPT_WEIGHT);
    const padded = ` ${word} `;
    for (let n = 2; n <= 4; n++) {
      for (let i = 0; i + n <= padded.length; i++) add(`g:${padded.slice(i, i + n)}`, NGRAM_WEIGHT);
    }
  }
  // Text of stop words or punctuation only still gets a stable, non-zero vector.
  if (vector.every((value) => value === 0)) add(`t:${text}`, 1);

  return normaliseLength(Array.from(vector.subarray(0, dimensions)));
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Little-endian float32 bytes in base64: what `encoding_format: "base64"` asks for. */
export function toBase64Float32(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

function normalise(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** L2-normalised, and rounded to float32 so the `float` and `base64` answers hold the same numbers. */
function normaliseLength(values: number[]): number[] {
  const length = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  if (length === 0) {
    // A prefix can be all zeros when few features were hashed; fall back to a unit vector.
    return values.map((_, index) => (index === 0 ? 1 : 0));
  }
  return values.map((value) => Math.fround(value / length));
}
