/**
 * The words a search found, marked in the rendered message it opened: ranges over the message's
 * text shown through the CSS Custom Highlight API (`::highlight(chat-search-hit)`), so neither the
 * React tree nor the message's HTML is touched. The marks follow the message as it is drawn again
 * (a row mounted anew, markdown rendered later).
 */
const NAME = 'chat-search-hit';

/** The ranges of `terms` (any case) in the text under `root`'s message bodies. */
export function termRanges(root: HTMLElement, terms: readonly string[]): Range[] {
  const wanted = terms.map((t) => t.toLowerCase()).filter((t) => t.trim() !== '');
  if (wanted.length === 0) return [];
  const ranges: Range[] = [];
  for (const body of root.querySelectorAll('.markdown, .chat-user-text')) {
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').toLowerCase();
      for (const term of wanted) {
        for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + term.length)) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + term.length);
          ranges.push(range);
        }
      }
    }
  }
  return ranges;
}

/** Marks `terms` in `root` until the returned function is called. */
export function highlightTerms(root: HTMLElement, terms: readonly string[]): () => void {
  // Without the API (an older engine), the message's own highlight still shows where the hit is.
  if (typeof Highlight === 'undefined' || !('highlights' in CSS)) return () => {};
  const highlight = new Highlight();
  const mark = () => {
    highlight.clear();
    for (const range of termRanges(root, terms)) highlight.add(range);
  };
  mark();
  CSS.highlights.set(NAME, highlight);
  const observer = new MutationObserver(mark);
  observer.observe(root, { subtree: true, childList: true, characterData: true });
  return () => {
    observer.disconnect();
    if (CSS.highlights.get(NAME) === highlight) CSS.highlights.delete(NAME);
  };
}
