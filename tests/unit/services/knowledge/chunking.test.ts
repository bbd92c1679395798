import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chunkDocument,
  chunkText,
  type Chunk,
} from '../../../../electron/main/services/knowledge/chunking';

const small = { maxChars: 80, overlapChars: 20 };

/** Every non-blank character of `text` lies in some chunk. */
function uncovered(text: string, chunks: readonly Chunk[]): number[] {
  const covered = new Uint8Array(text.length);
  for (const c of chunks) covered.fill(1, c.start, c.end);
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) if (!covered[i] && /\S/.test(text[i]!)) out.push(i);
  return out;
}

describe('chunkText', () => {
  it('starts a chunk at each Markdown heading and names its heading path', () => {
    const text = [
      '# Guide',
      '',
      'Intro words.',
      '',
      '## Install',
      '',
      'Run the installer.',
      '',
      '### On Linux',
      '',
      'Use the AppImage.',
      '',
      '## Use',
      '',
      'Open the app.',
    ].join('\n');
    const chunks = chunkText(text, 'markdown', { maxChars: 1000, overlapChars: 100 });
    expect(chunks.map((c) => [c.headings, c.text, c.lineStart, c.lineEnd])).toEqual([
      [['Guide'], '# Guide\n\nIntro words.', 1, 3],
      [['Guide', 'Install'], '## Install\n\nRun the installer.', 5, 7],
      [['Guide', 'Install', 'On Linux'], '### On Linux\n\nUse the AppImage.', 9, 11],
      [['Guide', 'Use'], '## Use\n\nOpen the app.', 13, 15],
    ]);
  });

  it('folds a heading with nothing under it into the chunk that follows', () => {
    const text = ['# Guide', '', '## Install', '', 'Run the installer.', '', '## Use', ''].join(
      '\n',
    );
    const chunks = chunkText(text, 'markdown', { maxChars: 1000, overlapChars: 100 });
    expect(chunks.map((c) => [c.headings, c.text])).toEqual([
      [['Guide', 'Install'], '# Guide\n\n## Install\n\nRun the installer.'],
      [['Guide', 'Use'], '## Use'],
    ]);
  });

  it('keeps a fenced code block whole, and a # inside it is not a heading', () => {
    const code = '```sh\n# not a heading\n\necho hi\n```';
    const text = `# Title\n\n${code}\n\nAfter.`;
    const chunks = chunkText(text, 'markdown', { maxChars: 60, overlapChars: 0 });
    expect(chunks.every((c) => c.headings.join('/') === 'Title')).toBe(true);
    expect(chunks.some((c) => c.text.includes(code))).toBe(true);
  });

  it('packs paragraphs up to the size and overlaps the next chunk from a word start', () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} has some words in it.`);
    const text = paragraphs.join('\n\n');
    const chunks = chunkText(text, 'text', small);
    expect(chunks.length).toBeGreaterThan(1);
    for (const [i, c] of chunks.entries()) {
      expect(c.text).toBe(text.slice(c.start, c.end));
      if (i > 0) {
        const previous = chunks[i - 1]!;
        expect(c.start).toBeLessThan(previous.end); // it overlaps
        expect(previous.end - c.start).toBeLessThanOrEqual(small.overlapChars);
        expect(/\s/.test(text[c.start - 1]!)).toBe(true); // from a word start
      }
    }
  });

  it('cuts one long line at spaces, and a long word anywhere', () => {
    const text = `${'word '.repeat(50)}${'x'.repeat(200)}`;
    const chunks = chunkText(text, 'text', { maxChars: 64, overlapChars: 0 });
    expect(uncovered(text, chunks)).toEqual([]);
    expect(chunks.every((c) => c.end - c.start <= 64)).toBe(true);
  });

  it('gives the same text the same hash', () => {
    const [a] = chunkText('Same words.', 'text');
    const [b] = chunkText('\n\nSame words.', 'text');
    expect(a!.hash).toBe(b!.hash);
    expect(a!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(chunkText('Other words.', 'text')[0]!.hash).not.toBe(a!.hash);
  });

  it('has no chunk for blank text', () => {
    expect(chunkText('', 'text')).toEqual([]);
    expect(chunkText(' \n\n\t\n', 'markdown')).toEqual([]);
  });
});

describe('chunkDocument', () => {
  it('cuts a PDF page by page, each chunk with its page and lines on that page', () => {
    const chunks = chunkDocument(
      {
        format: 'pdf',
        text: 'First page.\n\nSecond page\nline two.',
        pages: [
          { page: 1, text: 'First page.' },
          { page: 3, text: 'Second page\nline two.' },
        ],
      },
      { maxChars: 1000, overlapChars: 50 },
    );
    expect(chunks.map((c) => [c.page, c.text, c.lineStart, c.lineEnd])).toEqual([
      [1, 'First page.', 1, 1],
      [3, 'Second page\nline two.', 1, 2],
    ]);
  });
});

describe('chunk properties', () => {
  const words = fc.constantFrom(
    'alpha',
    'beta',
    'gamma',
    'δέλτα',
    '# Head',
    '```',
    '-',
    'x'.repeat(30),
  );
  const textArb = fc
    .array(fc.tuple(words, fc.constantFrom(' ', '\n', '\n\n', '\r\n', '\t', '  ')), {
      maxLength: 200,
    })
    .map((parts) => parts.map(([w, s]) => w + s).join(''));
  const optionsArb = fc.record({
    maxChars: fc.integer({ min: 8, max: 300 }),
    overlapChars: fc.integer({ min: 0, max: 100 }),
  });

  it('cover the text, stay in bounds, overlap at most the overlap, and name the right lines', () => {
    fc.assert(
      fc.property(
        textArb,
        optionsArb,
        fc.constantFrom('text', 'markdown', 'code'),
        (text, options, format) => {
          const chunks = chunkText(text, format, options);
          expect(uncovered(text, chunks)).toEqual([]);
          for (const [i, c] of chunks.entries()) {
            expect(c.text).toBe(text.slice(c.start, c.end));
            expect(c.text.trim().length).toBeGreaterThan(0);
            expect(c.end - c.start).toBeLessThanOrEqual(options.maxChars + options.overlapChars);
            expect(c.lineStart).toBe(text.slice(0, c.start).split('\n').length);
            expect(c.lineEnd).toBe(text.slice(0, Math.max(c.start, c.end - 1)).split('\n').length);
            const previous = chunks[i - 1];
            if (previous) {
              expect(c.start).toBeGreaterThan(previous.start);
              expect(Math.max(0, previous.end - c.start)).toBeLessThanOrEqual(options.overlapChars);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
