/**
 * Formulas from model output nested far deeper than anyone writes (hundreds of \frac or \sqrt)
 * hold the page for seconds when KaTeX's markup for them is built and laid out: they are shown as
 * their TeX, marked as not rendered, instead.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import remarkMath from 'remark-math';
import { beforeAll, describe, expect, it } from 'vitest';
import rehypeKatexCached, {
  loadKatex,
} from '../../../renderer/src/features/chat/markdown/rehype-katex-cached';

// KaTeX is its own chunk in the app, loaded the first time a formula is seen; loaded up front here.
beforeAll(() => loadKatex());

const CACHED = { katex: { throwOnError: false, strict: false } as const };

function html(markdown: string): string {
  return renderToStaticMarkup(
    createElement(Markdown, {
      remarkPlugins: [remarkMath],
      rehypePlugins: [[rehypeKatexCached, CACHED]],
      children: markdown,
    }),
  );
}

describe('KaTeX on hostile nesting', () => {
  it('shows a formula nested hundreds deep as its TeX, not rendered', () => {
    const tex = `${'\\frac{'.repeat(200)}x${'}{y}'.repeat(200)}`;
    const out = html(`$$\n${tex}\n$$`);
    expect(out).not.toContain('class="katex"');
    expect(out).toContain('katex-error');
    expect(out).toContain('nested too deeply');
    expect(out).toContain('\\frac{\\frac{');
  });

  it('counts \\left as nesting too', () => {
    const out = html(`$${'\\left('.repeat(150)}x${'\\right)'.repeat(150)}$`);
    expect(out).not.toContain('class="katex"');
    expect(out).toContain('katex-error');
  });

  it('still renders formulas nested as deep as people write them', () => {
    const arrows = '\\leftarrow '.repeat(80);
    const out = html(
      `$${'\\frac{'.repeat(12)}x${'}{y}'.repeat(12)}$ and $\\sqrt{\\sqrt{x}}$ and $${arrows}$`,
    );
    expect(out).toContain('class="katex"');
    expect(out).not.toContain('katex-error');
  });
});
