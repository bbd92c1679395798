/**
 * The markdown the chat reads: GFM (tables, task lists, strikethrough, autolinks, footnotes) and
 * math (`$…$`, `$$…$$`), as remark-gfm and remark-math add them, but for reading only.
 *
 * remark-gfm and remark-math also register how to write each construct back as markdown, which
 * pulls mdast-util-to-markdown and markdown-table into the bundle (about 40 KB of script) for a
 * view that never writes markdown. Registering only the syntax and the tree builders keeps the
 * parse the same and leaves that code out of the chat screen's chunk.
 */
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mathFromMarkdown } from 'mdast-util-math';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';
import type { Processor } from 'unified';

/** Where remark-parse reads its extensions from (its own type augments unified's `Data`). */
interface ParserData {
  micromarkExtensions?: unknown[];
  fromMarkdownExtensions?: unknown[];
}

/**
 * Made once and shared by every parse. The chat renders each block with a processor of its own
 * (hundreds a second while replies stream), and building these afresh for each one (remark-gfm's
 * way) made up a sixth of a block's render. They hold no state of a parse: each parse combines
 * them into its own tables.
 */
const MICROMARK_EXTENSIONS = [gfm(), math()];
const FROM_MARKDOWN_EXTENSIONS = [gfmFromMarkdown(), mathFromMarkdown()];

export default function remarkSyntax(this: Processor): undefined {
  const data = this.data() as ParserData;
  (data.micromarkExtensions ??= []).push(...MICROMARK_EXTENSIONS);
  (data.fromMarkdownExtensions ??= []).push(...FROM_MARKDOWN_EXTENSIONS);
}
