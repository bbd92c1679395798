import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import { describe, expect, it } from 'vitest';
import rehypeKatexCached from '../../../renderer/src/features/chat/markdown/rehype-katex-cached';

const OPTIONS = { throwOnError: false, strict: false } as const;

function html(markdown: string, plugin: typeof rehypeKatex | typeof rehypeKatexCached): string {
  return renderToStaticMarkup(
    createElement(Markdown, {
      remarkPlugins: [remarkMath],
      rehypePlugins: [[plugin, OPTIONS]],
      children: markdown,
    }),
  );
}

const SAMPLES = {
  inline: 'Inline $a_1^2 + b^2 = c^2$ and $x$ and $a_1^2 + b^2 = c^2$ again.',
  display: '$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$',
  fence: '```math\n\\sum_{k=1}^{n} k\n```',
  malformed: 'Broken $\\frac{1}{$ and fine $y$.',
  nested: '- a list with $z^2$\n\n> a quote with $$w$$',
};

describe('rehype-katex, cached', () => {
  for (const [name, markdown] of Object.entries(SAMPLES)) {
    it(`renders ${name} math exactly as rehype-katex does, again and again`, () => {
      const expected = html(markdown, rehypeKatex);
      expect(expected).toContain('katex');
      expect(html(markdown, rehypeKatexCached)).toBe(expected);
      // The second time comes from the cache: the same, and the cached tree was not changed.
      expect(html(markdown, rehypeKatexCached)).toBe(expected);
      expect(html(markdown, rehypeKatexCached)).toBe(expected);
    });
  }

  it('keeps raw HTML in a formula as text', () => {
    const out = html('$<img src=x onerror=alert(1)>$', rehypeKatexCached);
    expect(out).not.toContain('<img');
    expect(out).toBe(html('$<img src=x onerror=alert(1)>$', rehypeKatex));
  });
});
