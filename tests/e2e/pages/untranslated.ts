/**
 * Words on the page that did not come from a message catalogue: under the pseudo-language every
 * letter a catalogue gives is accented, so a plain (unaccented) letter is a word left out.
 */
import type { Page } from 'playwright-core';

export interface PlainWordsOptions {
  /** What is not the app's words at all (a message the person wrote, a model's reply). */
  skip?: string;
  /** Also the accessible names and hints: aria-label, title, placeholder and alt. */
  attributes?: boolean;
}

/**
 * The text inside `selectors` with a plain letter. Names the person chose (a connection's, a
 * conversation's title) are given in `own` and removed first. Main's own messages (marked
 * `data-source="main"`: main keeps English under the pseudo-language), the languages named in
 * themselves, dates and times (`<time>`, as Intl writes them) and closed dialogs (which show
 * nothing) are left out.
 */
export function plainWords(
  page: Page,
  selectors: readonly string[],
  own: readonly string[],
  { skip = '', attributes = false }: PlainWordsOptions = {},
): Promise<string[]> {
  return page.evaluate(
    ({ selectors, own, skip, attributes }) => {
      interface Element {
        getAttribute(name: string): string | null;
        closest(s: string): unknown;
        querySelectorAll(s: string): ArrayLike<Element>;
      }
      interface Node {
        nodeValue: string | null;
        parentElement: Element | null;
      }
      const doc = (
        globalThis as unknown as {
          document: {
            querySelectorAll(s: string): ArrayLike<Element>;
            createTreeWalker(root: unknown, what: number): { nextNode(): Node | null };
          };
        }
      ).document;
      // The longest first: "demo-embedding-small" before "demo-embedding".
      const longestFirst = [...own].sort((a, b) => b.length - a.length);
      const plain = (text: string) => {
        for (const name of longestFirst) text = text.split(name).join('');
        return /[A-Za-z]/.test(text);
      };
      const skipped = [
        'option[lang]',
        '[data-source="main"]',
        'dialog:not([open])',
        // A date or time as Intl writes it.
        'time',
        'script',
        'style',
        skip,
      ]
        .filter(Boolean)
        .join(', ');
      const found: string[] = [];
      for (const selector of selectors) {
        const roots = Array.from(doc.querySelectorAll(selector));
        if (roots.length === 0) found.push(`${selector}: not on the page`);
        for (const root of roots) {
          const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement?.closest(skipped)) continue;
            const text = node.nodeValue ?? '';
            if (plain(text)) found.push(text.trim());
          }
          if (!attributes) continue;
          const named = [
            root,
            ...Array.from(root.querySelectorAll('[aria-label], [title], [placeholder], [alt]')),
          ];
          for (const element of named) {
            if (element.closest(skipped)) continue;
            for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
              const value = element.getAttribute(name);
              if (value && plain(value)) found.push(`${name}="${value}"`);
            }
          }
        }
      }
      return found;
    },
    { selectors, own, skip, attributes },
  );
}
