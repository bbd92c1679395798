/**
 * A keyboard-only walk: Tab from the top of the page until focus comes round again, recording
 * every stop, where it is, and how its focus shows.
 */
import type { Page } from 'playwright-core';

export interface TabStop {
  /** Index of the element among the page's controls (see `controls`), or -1. */
  index: number;
  /** "button Save", "input Search messages": what it is, by role-ish tag and name. */
  name: string;
  region: 'sidebar' | 'screen' | 'dialog' | 'other';
  /** The computed outline while focused by keyboard. */
  outlineWidth: number;
  outlineStyle: string;
}

export interface Walk {
  /** Every control a keyboard user should reach, in document order (a radio group counts once). */
  controls: string[];
  stops: TabStop[];
}

/** The DOM the page-side code uses (the tests compile without the DOM library). */
interface El {
  tagName: string;
  id: string;
  type?: string;
  name?: string;
  disabled?: boolean;
  textContent: string | null;
  tabIndex: number;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  closest(selector: string): El | null;
  checkVisibility(options?: object): boolean;
  blur(): void;
  matches(selector: string): boolean;
}
interface Doc {
  activeElement: El | null;
  body: El;
  querySelectorAll(selector: string): ArrayLike<El>;
}
type Global = { document: Doc; getComputedStyle(el: El): Record<string, string> };

/**
 * Marks the controls of the page (or of the open modal dialog, when there is one) and walks them
 * with Tab, at most `limit` presses.
 */
export async function walkWithTab(page: Page, limit = 250): Promise<Walk> {
  const controls = await page.evaluate(() => {
    const { document } = globalThis as unknown as Global;
    const modal = document.querySelectorAll('dialog[open]')[0];
    const selector =
      'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
    const all = Array.from(document.querySelectorAll(selector)).filter((el) => {
      if (el.disabled || el.tabIndex < 0) return false;
      if (el.closest('[inert], [aria-hidden="true"]')) return false;
      if (modal && !el.closest('dialog[open]')) return false;
      return el.checkVisibility({ visibilityProperty: true });
    });
    const names: string[] = [];
    const groups = new Map<string, number>();
    for (const el of all) {
      const label =
        el.getAttribute('aria-label') ??
        (el.id ? (document.querySelectorAll(`label[for="${el.id}"]`)[0]?.textContent ?? '') : '') ??
        '';
      const text = (label || el.textContent || el.getAttribute('placeholder') || '').trim();
      const name = `${el.tagName.toLowerCase()}${el.type ? `[${el.type}]` : ''} ${text}`.slice(
        0,
        80,
      );
      // A radio group is one Tab stop: arrows move inside it.
      const group = el.type === 'radio' && el.name ? `radio:${el.name}` : undefined;
      if (group && groups.has(group)) {
        el.setAttribute('data-walk', String(groups.get(group)));
        continue;
      }
      if (group) groups.set(group, names.length);
      el.setAttribute('data-walk', String(names.length));
      names.push(name);
    }
    document.activeElement?.blur();
    return names;
  });

  const stops: TabStop[] = [];
  for (let press = 0; press < limit; press += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const { document, getComputedStyle } = globalThis as unknown as Global;
      const el = document.activeElement;
      if (!el || el === document.body) return undefined;
      const style = getComputedStyle(el);
      const region = el.closest('dialog[open]')
        ? 'dialog'
        : el.closest('nav.sidebar')
          ? 'sidebar'
          : el.closest('main')
            ? 'screen'
            : 'other';
      return {
        index: Number(el.getAttribute('data-walk') ?? -1),
        name: `${el.tagName.toLowerCase()} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim()}`.slice(
          0,
          80,
        ),
        region: region as TabStop['region'],
        outlineWidth: parseFloat(style['outlineWidth'] ?? '0'),
        outlineStyle: style['outlineStyle'] ?? 'none',
      };
    });
    if (!stop) continue;
    if (stops.length > 0 && stop.index === stops[0]!.index) break;
    stops.push(stop);
  }
  // Tab starts where focus was last; the walk is a full round, so start it at the page's top.
  const known = stops.filter((stop) => stop.index >= 0);
  const first =
    known.length > 0 ? stops.indexOf(known.reduce((a, b) => (b.index < a.index ? b : a))) : 0;
  return { controls, stops: [...stops.slice(first), ...stops.slice(0, first)] };
}
