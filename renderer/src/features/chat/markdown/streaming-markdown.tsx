import { Component, memo, useMemo, useRef, type ReactNode } from 'react';
import {
  createBlockSplitter,
  groupBlocks,
  withDefinitions,
  type BlockSplit,
  type MarkdownBlock,
} from './blocks';
import { MarkdownBlockView } from './markdown-block';
import { RecentCache } from './recent-cache';
import { hideUnclosedMarkup } from './unclosed';

interface BlockBoundaryProps {
  markdown: string;
  children: ReactNode;
}

/**
 * One block that fails to render (model output built to exhaust the parser or KaTeX, e.g. nesting
 * thousands deep) shows as its plain text, instead of the error unmounting the whole chat view.
 */
class BlockBoundary extends Component<BlockBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidUpdate(previous: BlockBoundaryProps): void {
    // A growing block that failed is tried again when its text changes.
    if (this.state.failed && previous.markdown !== this.props.markdown) {
      this.setState({ failed: false });
    }
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return <p className="md-unrendered">{this.props.markdown}</p>;
  }
}

/** A block inside its boundary, rendered again only when its text changes. */
const SafeBlock = memo(function SafeBlock({
  markdown,
  complete,
}: {
  markdown: string;
  complete: boolean;
}) {
  return (
    <BlockBoundary markdown={markdown}>
      <MarkdownBlockView markdown={markdown} complete={complete} />
    </BlockBoundary>
  );
});

/**
 * Complete blocks, rendered again only when the group changes (a block added to the last group,
 * or the link definitions they refer to): a frame of a streaming reply skips every full group.
 * Each group is one element in the page too (a plain block: margins collapse across it as
 * between blocks), so the browser lays out the reply's dozens of groups at each frame rather
 * than its thousands of blocks: four compared replies grew each frame's layout with their length.
 */
const BlockGroup = memo(function BlockGroup({
  blocks,
  definitions,
}: {
  blocks: readonly MarkdownBlock[];
  definitions: string;
}) {
  return (
    <div className="md-group">
      {blocks.map((block) => (
        <SafeBlock key={block.key} markdown={withDefinitions(block.raw, definitions)} complete />
      ))}
    </div>
  );
});

/**
 * Finished texts already cut into blocks, by their text: a reply mounted again (scrolled back into
 * view, a version switched back to) is not lexed again. The 200 most recently used, of at most
 * 300,000 characters in all (a split costs about a byte of heap per character of its text: the
 * blocks are slices of texts the page holds anyway, with their keys), so that long replies do
 * not grow it past some 300 kB.
 */
export const MAX_SPLIT_TEXTS = 200;
export const MAX_SPLIT_CHARACTERS = 300_000;
const splits = new RecentCache<string, BlockSplit>(MAX_SPLIT_TEXTS, {
  maxWeight: MAX_SPLIT_CHARACTERS,
  weigh: (_, text) => text.length,
});

export interface StreamingMarkdownProps {
  text: string;
  /** True while the text is still arriving: its last block is still growing. */
  streaming: boolean;
  /**
   * True for a reply that ended before its end (stopped, failed): its last block keeps hiding
   * the markup that opened and never closed, as it did while it streamed, rather than showing
   * a bare `**` or backtick.
   */
  cutShort?: boolean;
}

/**
 * Markdown that may still be arriving. Complete blocks are rendered once and kept (memoized,
 * keyed by index and hash, in groups that a frame skips whole); only the last, growing block
 * renders again on each update, and only the text from its start is lexed again. While it streams, markup that opened in the last block
 * and has not closed yet waits (see `hideUnclosedMarkup`), and a caret marks where the text ends. A reply cut short keeps the last block's unclosed
 * markup hidden once it has stopped: only that block is read again, never the whole reply.
 */
export function StreamingMarkdown({ text, streaming, cutShort = false }: StreamingMarkdownProps) {
  const splitter = useRef<ReturnType<typeof createBlockSplitter>>(null);
  splitter.current ??= createBlockSplitter();
  const split = useMemo(() => {
    const known = streaming ? undefined : splits.get(text);
    if (known) return known;
    const fresh = splitter.current!.update(text);
    if (!streaming) splits.set(text, fresh);
    return fresh;
  }, [text, streaming]);
  const grouped = useRef<Array<readonly MarkdownBlock[]>>([]);
  const groups = useMemo(
    () => (grouped.current = groupBlocks(split.complete, grouped.current)),
    [split.complete],
  );
  const tailIndex = split.complete.length;

  return (
    <div className="markdown" data-streaming={streaming || undefined}>
      {groups.map((blocks, index) => (
        <BlockGroup key={index} blocks={blocks} definitions={split.definitions} />
      ))}
      {/*
       * While the reply streams, the growing block keeps one key as blocks complete before it: its
       * element is kept and only its text changes (a new key at every completed block had the page
       * remove and insert it at most frames, restyling its neighbours, four columns at a time).
       */}
      {split.tail !== '' && (
        <SafeBlock
          key={streaming ? 'tail' : `${tailIndex}:last`}
          markdown={withDefinitions(
            streaming || cutShort ? hideUnclosedMarkup(split.tail) : split.tail,
            split.definitions,
          )}
          complete={!streaming}
        />
      )}
    </div>
  );
}
