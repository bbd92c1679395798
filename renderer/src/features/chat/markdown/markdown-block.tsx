/**
 * One markdown block rendered through react-markdown: GFM (tables), math through KaTeX, code
 * through `CodeBlock`, links and images through the safe components. Raw HTML in the markdown is
 * never rendered as elements: react-markdown shows it as text (no rehype-raw here, ever).
 */
import { memo, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { useT } from '../../../i18n/i18n';
import remarkCitations, { Citation } from '../knowledge/citations';
import { CodeBlock } from './code-block';
import rehypeKatex, {
  mathRenderedFor,
  subscribeRenderedMath,
  type RehypeKatexCachedOptions,
} from './rehype-katex-cached';
import { isPlainParagraph } from './plain-paragraph';
import { renderedBlock } from './rendered-blocks';
import remarkSyntax from './remark-syntax';
import { ImageAsLink, keepUrl, SafeLink } from './safe-links';

/** GFM and math, read as remark-gfm and remark-math read them (see remark-syntax). */
const REMARK_PLUGINS = [remarkSyntax, remarkCitations];
/**
 * KaTeX without its error throwing: a malformed formula shows in red instead of failing the block.
 * Each formula is rendered once and remembered, between frames (see rehype-katex-cached); KaTeX
 * itself is loaded the first time a formula is seen.
 */
const KATEX = { throwOnError: false, strict: false } as const;
/** A formula seen for the first time is rendered between frames, not in the frame. */
const REHYPE_PLUGINS: [typeof rehypeKatex, RehypeKatexCachedOptions][] = [
  [rehypeKatex, { katex: KATEX, defer: true }],
];

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  return '';
}

/**
 * A table in a box of its own that scrolls sideways when the table is wider than the reply, so
 * its cells keep whole words and numbers. The box takes the keyboard focus (arrows scroll it).
 */
function TableBox({ children }: { children?: ReactNode }) {
  const t = useT();
  return (
    <div className="md-table" role="group" aria-label={t('chat.table.label')} tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

function componentsFor(complete: boolean): Components {
  return {
    table: ({ children }) => <TableBox>{children}</TableBox>,
    a: ({ href, children }) => <SafeLink href={href}>{children}</SafeLink>,
    img: ({ src, alt }) => (
      <ImageAsLink src={typeof src === 'string' ? src : undefined} alt={alt} />
    ),
    cite: ({ children, ...props }) => (
      <Citation source={(props as Record<string, unknown>)['data-source'] as string | undefined}>
        {children}
      </Citation>
    ),
    pre: ({ children }) => {
      const code = Array.isArray(children) ? children[0] : children;
      const props = (code as { props?: { className?: string; children?: ReactNode } } | null)
        ?.props;
      const language = /\blanguage-(\S+)/.exec(props?.className ?? '')?.[1];
      const text = textOf(props?.children).replace(/\n$/, '');
      return <CodeBlock code={text} language={language} complete={complete} />;
    },
  };
}

const COMPLETE = componentsFor(true);
const GROWING = componentsFor(false);

export interface MarkdownBlockProps {
  markdown: string;
  /** False for the block still growing while a reply streams. */
  complete: boolean;
}

/** A block's elements (react-markdown's synchronous `Markdown` uses no hooks: called here). */
function parseBlock(markdown: string, complete: boolean): ReactElement {
  return Markdown({
    remarkPlugins: REMARK_PLUGINS,
    rehypePlugins: REHYPE_PLUGINS,
    components: complete ? COMPLETE : GROWING,
    urlTransform: keepUrl,
    children: markdown,
  });
}

/** A block, rendered again only when its text changes. */
export const MarkdownBlockView = memo(function MarkdownBlockView({
  markdown,
  complete,
}: MarkdownBlockProps) {
  // Renders again when a formula it left as TeX has been rendered (only this block).
  const math = useSyncExternalStore(subscribeRenderedMath, () => mathRenderedFor(markdown));
  // Prose without markup is its own paragraph: no parse, and nothing to keep in the cache.
  if (isPlainParagraph(markdown)) return <p>{markdown}</p>;
  return renderedBlock(markdown, complete, math, parseBlock);
});
