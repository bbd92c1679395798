import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import rehypeKatexCached, {
  cachedMathNodes,
  forgetRenderedMath,
  katexLoaded,
  MAX_CACHED_MATH_NODES,
  loadKatex,
  mathRenderedFor,
  renderedMathVersion,
  setKatexImport,
  subscribeRenderedMath,
} from '../../../renderer/src/features/chat/markdown/rehype-katex-cached';

const OPTIONS = { throwOnError: false, strict: false } as const;

const CACHED = { katex: OPTIONS };
const DEFERRED = { katex: OPTIONS, defer: true };

function html(markdown: string, plugin: 'katex' | 'cached' | 'deferred'): string {
  return renderToStaticMarkup(
    createElement(Markdown, {
      remarkPlugins: [remarkMath],
      rehypePlugins: [
        plugin === 'katex'
          ? [rehypeKatex, OPTIONS]
          : [rehypeKatexCached, plugin === 'cached' ? CACHED : DEFERRED],
      ],
      children: markdown,
    }),
  );
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

const SAMPLES = {
  inline: 'Inline $a_1^2 + b^2 = c^2$ and $x$ and $a_1^2 + b^2 = c^2$ again.',
  display: '$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$',
  fence: '```math\n\\sum_{k=1}^{n} k\n```',
  malformed: 'Broken $\\frac{1}{$ and fine $y$.',
  nested: '- a list with $z^2$\n\n> a quote with $$w$$',
};

describe('rehype-katex, cached', () => {
  // KaTeX is its own chunk in the app, loaded the first time a formula is seen (tested below).
  beforeAll(() => loadKatex());
  for (const [name, markdown] of Object.entries(SAMPLES)) {
    it(`renders ${name} math exactly as rehype-katex does, again and again`, () => {
      const expected = html(markdown, 'katex');
      expect(expected).toContain('katex');
      expect(html(markdown, 'cached')).toBe(expected);
      // The second time comes from the cache: the same, and the cached tree was not changed.
      expect(html(markdown, 'cached')).toBe(expected);
      expect(html(markdown, 'cached')).toBe(expected);
    });
  }

  it('keeps raw HTML in a formula as text', () => {
    const out = html('$<img src=x onerror=alert(1)>$', 'cached');
    expect(out).not.toContain('<img');
    expect(out).toBe(html('$<img src=x onerror=alert(1)>$', 'katex'));
  });

  it('defers a new formula in the growing block to a task of its own, then renders it', async () => {
    const markdown = 'Deferred $q^{17} + r$ here.';
    const expected = html(markdown, 'katex');
    const notified: number[] = [];
    const unsubscribe = subscribeRenderedMath(() => notified.push(renderedMathVersion()));
    try {
      const first = html(markdown, 'deferred');
      expect(first).not.toContain('katex');
      expect(first).toContain('q^{17} + r');
      expect(mathRenderedFor(markdown)).toBe(0);
      // Asked again before its task ran: still waiting, and queued once.
      expect(html(markdown, 'deferred')).toBe(first);
      await tick();
      expect(notified).toHaveLength(1);
      // The block that waited is told (its snapshot changed); other texts are not.
      expect(mathRenderedFor(markdown)).toBeGreaterThan(0);
      expect(mathRenderedFor('another block')).toBe(0);
      expect(html(markdown, 'deferred')).toBe(expected);
      // Complete blocks share what the growing one rendered.
      expect(html(markdown, 'cached')).toBe(expected);
    } finally {
      unsubscribe();
    }
  });

  it('bounds what it remembers by the size of the rendered formulas, not their count', () => {
    forgetRenderedMath();
    // A formula renders to a few hundred hast nodes, so a bound by count let a long session
    // keep tens of megabytes; the bound is on nodes, and the newest formulas stay.
    let formulas = 0;
    while (cachedMathNodes() < MAX_CACHED_MATH_NODES && formulas < 2000) {
      html(`Own $x_{${formulas}}^{2} + \\frac{${formulas}}{y_{${formulas}}}$`, 'cached');
      formulas++;
    }
    for (let n = formulas; n < formulas + 50; n++) {
      html(`Own $x_{${n}}^{2} + \\frac{${n}}{y_{${n}}}$`, 'cached');
      expect(cachedMathNodes()).toBeLessThanOrEqual(MAX_CACHED_MATH_NODES);
    }
    // Still a cache: the same formula again is the same rendering.
    const last = `Own $x_{${formulas + 49}}^{2} + \\frac{${formulas + 49}}{y_{${formulas + 49}}}$`;
    expect(html(last, 'cached')).toBe(html(last, 'katex'));
    forgetRenderedMath();
    expect(cachedMathNodes()).toBe(0);
  });

  it('renders a formula KaTeX fails on at once after its first deferred try', async () => {
    const markdown = 'Bad $\\frac{2}{$ math.';
    const expected = html(markdown, 'katex');
    html(markdown, 'deferred');
    await tick();
    expect(html(markdown, 'deferred')).toBe(expected);
  });
});

describe('KaTeX loaded only when a formula first needs it', () => {
  const realImport = () => import('../../../renderer/src/features/chat/markdown/katex-chunk');
  let imports = 0;
  let release: (() => void) | undefined;
  let failNext = false;

  // The chunk itself is loaded once ahead (as the browser has it once fetched): a spec's
  // `release` then hands it over within a task or two, whichever spec ran first.
  beforeAll(() => realImport());
  // Each spec starts with KaTeX not loaded and no import tried, whichever ran before it.
  beforeEach(() => {
    imports = 0;
    release = undefined;
    failNext = false;
    forgetRenderedMath();
    setKatexImport(async () => {
      imports++;
      if (failNext) {
        failNext = false;
        throw new Error('chunk failed to load');
      }
      await new Promise<void>((resolve) => (release = resolve));
      return realImport();
    });
  });
  afterAll(() => {
    setKatexImport(realImport);
    forgetRenderedMath();
  });

  it('loads nothing for a reply without formulas', () => {
    const out = html('Plain **text**, a list:\n\n- one\n- two', 'cached');
    expect(out).toContain('<strong>text</strong>');
    expect(imports).toBe(0);
    expect(katexLoaded()).toBe(false);
  });

  it('retries a chunk that failed, then shows the TeX until KaTeX arrives and renders it', async () => {
    const markdown = 'Energy $E = mc^2$ and area $\\pi r^2$.';
    failNext = true;
    const first = html(markdown, 'cached');
    // The TeX stays while KaTeX is not there: nothing is lost, nothing half-rendered.
    expect(first).not.toContain('class="katex"');
    expect(first).toContain('E = mc^2');
    await tick();
    await tick();
    expect(imports).toBe(1);
    expect(katexLoaded()).toBe(false);

    // Seen again: tried again, once, however many formulas and renders ask meanwhile.
    const notified: number[] = [];
    const unsubscribe = subscribeRenderedMath(() => notified.push(renderedMathVersion()));
    try {
      expect(html(markdown, 'deferred')).toBe(first);
      expect(html(markdown, 'cached')).toBe(first);
      await tick();
      expect(imports).toBe(2);
      expect(notified).toHaveLength(0);
      release?.();
      for (let i = 0; i < 10 && mathRenderedFor(markdown) === 0; i++) await tick();
      expect(katexLoaded()).toBe(true);
      // The block that waited is told, and renders exactly what rehype-katex renders.
      expect(notified.length).toBeGreaterThan(0);
      expect(mathRenderedFor(markdown)).toBeGreaterThan(0);
      // One formula per task: both are rendered within a few tasks.
      const expected = html(markdown, 'katex');
      for (let i = 0; i < 10 && html(markdown, 'deferred') !== expected; i++) await tick();
      expect(html(markdown, 'deferred')).toBe(expected);
      expect(imports).toBe(2);
    } finally {
      unsubscribe();
    }
  });
});
