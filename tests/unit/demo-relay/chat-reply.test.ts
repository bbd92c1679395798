import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  composeDemoReply,
  continueFrom,
  countPromptTokens,
  promptOf,
  tokenize,
} from '../../../electron/demo-relay/models/chat';

/** The opening and closing fence lines of every fenced code block. */
function fences(markdown: string): string[] {
  return markdown.split('\n').filter((line) => /^`{3,}/.test(line));
}

describe('composeDemoReply', () => {
  it('is deterministic and differs between prompts', () => {
    expect(composeDemoReply('Tell me about lighthouses')).toBe(
      composeDemoReply('Tell me about lighthouses'),
    );
    expect(composeDemoReply('Tell me about lighthouses')).not.toBe(
      composeDemoReply('Tell me about ships'),
    );
  });

  it('has a heading, a list, a table, a fenced code block and says it is synthetic', () => {
    const reply = composeDemoReply('How do tables render in the chat view?');
    expect(reply).toMatch(/^## How do tables render/);
    expect(reply).toMatch(/^- \*\*Words:\*\* 8$/m);
    expect(reply).toMatch(
      /^\| Word \| Letters \| Vowels \|\n\| --- \| ---: \| ---: \|\n\| how \| 3 \| 1 \|/m,
    );
    const fenceLines = fences(reply);
    expect(fenceLines).toHaveLength(2);
    expect(fenceLines[0]).toMatch(/^```(ts|python)$/);
    expect(fenceLines[1]).toBe('```');
    expect(reply).toContain('synthetic demo reply');
  });

  it('keeps the code block closed whatever the prompt contains', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (prompt) => {
        const reply = composeDemoReply(`${prompt} \`\`\`\` | # *`);
        const [open, close] = fences(reply);
        const openTicks = /^`+/.exec(open ?? '')?.[0].length;
        expect(close).toBe('`'.repeat(openTicks ?? 0));
        // The table rows stay three cells wide: no pipe from the prompt leaks into a cell.
        const rows = reply.split('\n').filter((line) => line.startsWith('| '));
        for (const row of rows) expect(row.split('|')).toHaveLength(5);
      }),
      { numRuns: 200 },
    );
  });

  it('answers an empty message too', () => {
    expect(composeDemoReply('')).toContain('## An empty message');
  });
});

describe('tokenize', () => {
  it('splits into pieces that join back to the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(tokenize(text).join('')).toBe(text);
      }),
      { numRuns: 300 },
    );
    expect(tokenize('Hello, world!\n')).toEqual(['Hello', ',', ' world', '!', '\n']);
  });
});

describe('promptOf and countPromptTokens', () => {
  it('answers the last user message', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'second' },
    ];
    expect(promptOf(messages)).toBe('second');
    expect(promptOf([{ role: 'system', content: 'only system' }])).toBe('only system');
    expect(countPromptTokens(messages)).toBe(2 + (3 + 4) + (1 + 4) + (1 + 4) + (1 + 4));
  });
});

describe('continueFrom', () => {
  it('writes the rest of the reply after what was written, so the two make the whole', () => {
    const whole = composeDemoReply('Continue me, please');
    const pieces = tokenize(whole);
    for (const cut of [0, 1, 17, pieces.length - 1, pieces.length]) {
      const written = pieces.slice(0, cut).join('');
      expect(written + continueFrom(pieces, written).join('')).toBe(whole);
    }
    // Cut inside a piece, as a stop can land between two deltas of one word.
    const inside = whole.slice(0, whole.indexOf('synthetic') + 4);
    expect(inside + continueFrom(pieces, inside).join('')).toBe(whole);
  });

  it('closes plainly when the reply so far is not how this reply starts', () => {
    expect(continueFrom(tokenize('Hello there.'), 'Something else').join('')).toBe(
      '\n\nThat is where the demo reply ends.',
    );
  });
});
