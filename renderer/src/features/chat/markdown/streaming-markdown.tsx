import { useMemo, useRef } from 'react';
import { createBlockSplitter } from './blocks';
import { MarkdownBlockView } from './markdown-block';

export interface StreamingMarkdownProps {
  text: string;
  /** True while the text is still arriving: its last block is still growing. */
  streaming: boolean;
}

/**
 * Markdown that may still be arriving. Complete blocks are rendered once and kept (memoized,
 * keyed by index and hash); only the last, growing block renders again on each update, and only
 * the text from its start is lexed again.
 */
export function StreamingMarkdown({ text, streaming }: StreamingMarkdownProps) {
  const splitter = useRef<ReturnType<typeof createBlockSplitter>>(null);
  splitter.current ??= createBlockSplitter();
  const split = useMemo(() => splitter.current!.update(text), [text]);
  const tailIndex = split.complete.length;

  return (
    <div className="markdown">
      {split.complete.map((block) => (
        <MarkdownBlockView key={block.key} markdown={block.raw} complete />
      ))}
      {split.tail !== '' && (
        <MarkdownBlockView
          key={streaming ? `${tailIndex}:tail` : `${tailIndex}:last`}
          markdown={split.tail}
          complete={!streaming}
        />
      )}
    </div>
  );
}
