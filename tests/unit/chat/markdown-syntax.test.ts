/**
 * The chat reads GFM and math with their syntax extensions alone (remark-syntax), leaving out the
 * code remark-gfm and remark-math carry for writing markdown back: the trees, and so the page,
 * must be exactly theirs.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import { describe, expect, it } from 'vitest';
import remarkSyntax from '../../../renderer/src/features/chat/markdown/remark-syntax';

const SAMPLES = {
  table: '| a | b |\n| :-- | --: |\n| 1 | **2** |\n| `x` | [y](https://example.com) |',
  'task list': '- [x] done\n- [ ] to do\n  - nested ~~struck~~',
  autolinks: 'See www.example.com and https://example.org/path?q=1, or mail a@b.co.',
  footnotes: 'A claim.[^1]\n\n[^1]: The source.',
  strikethrough: '~one~ and ~~two~~',
  'inline math': 'Energy $E = mc^2$, escaped \\$5, and $$x$$ inline.',
  'display math': '$$\n\\int_0^1 x^2\\,dx\n$$\n\nafter',
  'math fence': '```math\n\\sum_k k\n```',
  'code and html': '```ts\nconst a = 1;\n```\n\n<b>raw</b> and <script>x</script>',
  mixed: '# Title\n\n> quote with $a$ and | not | a table |\n\n1. one\n2. two',
};

function html(markdown: string, plugins: 'ours' | 'remark'): string {
  return renderToStaticMarkup(
    createElement(Markdown, {
      remarkPlugins: plugins === 'ours' ? [remarkSyntax] : [remarkGfm, remarkMath],
      children: markdown,
    }),
  );
}

describe('markdown syntax, read only', () => {
  for (const [name, markdown] of Object.entries(SAMPLES)) {
    it(`reads ${name} exactly as remark-gfm and remark-math do`, () => {
      const expected = html(markdown, 'remark');
      expect(html(markdown, 'ours')).toBe(expected);
    });
  }

  it('does read the extensions (a table, math), not plain CommonMark', () => {
    expect(html(SAMPLES.table, 'ours')).toContain('<table>');
    expect(html(SAMPLES['inline math'], 'ours')).toContain('math-inline');
  });
});
