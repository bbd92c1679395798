/**
 * What the language tests look for on a page: text that no catalogue gave (the pseudo-language
 * accents every letter of every message, so a plain letter is a word outside the catalogues).
 */
import type { Page } from 'playwright-core';

/**
 * Text under `selectors` with a plain (unaccented) letter: a word the pseudo-language did not
 * reach. `own` are names the person chose (a connection's, a file's, a model's id) and the
 * languages named in themselves: theirs, not the app's. Main's own messages
 * (`[data-source="main"]`) are not translated yet; a closed dialog is not looked in.
 */
export function plainWords(page: Page, selectors: string[], own: string[]): Promise<string[]> {
  return page.evaluate(
    ({ selectors, own }) => {
      interface Node {
        nodeValue: string | null;
        parentElement: { closest(s: string): unknown } | null;
      }
      const doc = (
        globalThis as unknown as {
          document: {
            querySelectorAll(s: string): ArrayLike<unknown>;
            createTreeWalker(root: unknown, what: number): { nextNode(): Node | null };
          };
        }
      ).document;
      const found: string[] = [];
      for (const selector of selectors) {
        const roots = Array.from(doc.querySelectorAll(selector));
        if (roots.length === 0) found.push(`${selector}: not on the page`);
        for (const root of roots) {
          const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            // A closed dialog shows nothing.
            const skip = 'option[lang], [data-source="main"], dialog:not([open]), script, style';
            if (node.parentElement?.closest(skip)) continue;
            let text = node.nodeValue ?? '';
            for (const name of own) text = text.split(name).join('');
            if (/[A-Za-z]/.test(text)) found.push(text.trim());
          }
        }
      }
      return found;
    },
    { selectors, own },
  );
}
