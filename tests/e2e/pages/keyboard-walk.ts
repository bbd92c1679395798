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

/** The page's notes of a walk (see `walkWithTab`). */
interface TabWalkRecorder {
  noted: (TabStop | null)[];
  /** Whether the next Tab's keydown notes nothing (the place was read already). */
  skip: boolean;
  presses: number;
  stopNow(): TabStop | null;
}

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

  // Where focus is after each press, noted by the page itself: a listener of Tab's keydown notes
  // where the press before left it (as a read between presses would, after the page answered
  // it), and each read adds where the last press left it. The presses go in a run with one read
  // at its end, rather than a read after each.
  await page.evaluate(() => {
    const global = globalThis as unknown as Global & {
      addEventListener(
        type: string,
        listener: (event: { key: string }) => void,
        capture: boolean,
      ): void;
      __relayTabWalk?: TabWalkRecorder;
    };
    const { document, getComputedStyle } = global;
    const stopNow = (): TabStop | null => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
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
    };
    const recorder: TabWalkRecorder = { noted: [], skip: true, presses: 0, stopNow };
    if (!global.__relayTabWalk)
      global.addEventListener(
        'keydown',
        (event) => {
          const walk = global.__relayTabWalk;
          if (!walk || event.key !== 'Tab') return;
          walk.presses += 1;
          // The first press of a run: where focus is now was read already (or is the start).
          if (walk.skip) walk.skip = false;
          else walk.noted.push(walk.stopNow());
        },
        true,
      );
    global.__relayTabWalk = recorder;
  });
  /** Where focus was after each press since the last read, and the presses the page saw. */
  const read = () =>
    page.evaluate(() => {
      const walk = (globalThis as unknown as { __relayTabWalk: TabWalkRecorder }).__relayTabWalk;
      const noted = [...walk.noted.splice(0), walk.stopNow()];
      walk.skip = true;
      return { noted, presses: walk.presses };
    });

  const stops: TabStop[] = [];
  let pressed = 0;
  // A first run as long as a full round should be (every control, then back to the first), then
  // one press at a time: focus ends where a walk read after every press leaves it.
  let run = controls.length + 1;
  walk: while (pressed < limit) {
    run = Math.min(run, limit - pressed);
    for (let press = 0; press < run; press += 1) await page.keyboard.press('Tab');
    pressed += run;
    const { noted, presses } = await read();
    if (presses !== pressed || noted.length !== run)
      throw new Error(
        `The keyboard walk saw ${presses} Tab presses of ${pressed} (${noted.length} noted of ${run}): the page stopped Tab's keydown.`,
      );
    for (const stop of noted) {
      if (!stop) continue;
      if (stops.length > 0 && stop.index === stops[0]!.index) break walk;
      stops.push(stop);
    }
    run = 1;
  }
  // Tab starts where focus was last; the walk is a full round, so start it at the page's top.
  const known = stops.filter((stop) => stop.index >= 0);
  const first =
    known.length > 0 ? stops.indexOf(known.reduce((a, b) => (b.index < a.index ? b : a))) : 0;
  return { controls, stops: [...stops.slice(first), ...stops.slice(0, first)] };
}
