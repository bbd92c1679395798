/**
 * rehype-katex with its results remembered. rehype-katex turns KaTeX's HTML string back into a
 * tree by parsing it with the browser's HTML parser (a `<template>`'s innerHTML), and that parse
 * costs several milliseconds per inline formula and tens for a display one (KaTeX's markup is
 * large). While a reply streams, the growing block renders again every frame with the same
 * formulas in it, and frames that rendered them became long tasks. Here each formula is rendered
 * by rehype-katex once, and later renders of the same formula reuse a copy of its tree.
 *
 * With `defer`, a formula not rendered yet stays as its TeX for a moment and is rendered in a task
 * of its own, between frames; the block waiting for it then renders again (`mathWaitingIn`), and
 * only that block. So no frame parses more than what is already remembered, whether a reply is
 * streaming or a long stored one is opened.
 *
 * The output is exactly rehype-katex's: the formula's element is handed to rehype-katex inside a
 * tree of its own, and what it puts in its place is what we remember.
 *
 * KaTeX itself (its code, its style sheet and fonts, and the HTML parser rehype-katex reads its
 * output with: about two thirds of the chat screen's script) is a chunk of its own, fetched the
 * first time a reply holds a formula (`loadKatex`). Until it has arrived a formula stays as its
 * TeX, as a deferred one does, and its block renders again once it is there.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import type { Options } from 'rehype-katex';
import type RehypeKatex from 'rehype-katex';
import { RecentCache } from './recent-cache';

type RehypeKatexPlugin = typeof RehypeKatex;
/** The file rehype-katex reports on (react-markdown's). */
type VFile = Parameters<ReturnType<RehypeKatexPlugin>>[1];

/** rehype-katex once its chunk has arrived. */
let katexPlugin: RehypeKatexPlugin | undefined;
let katexLoading: Promise<RehypeKatexPlugin | undefined> | undefined;
/** Loads KaTeX's chunk; the default is a dynamic import (tests may pass their own). */
let importKatex: () => Promise<{ default: RehypeKatexPlugin }> = () => import('./katex-chunk');

/**
 * Fetches KaTeX (once; a chunk that failed to load is tried again next time a formula needs it).
 * Resolves with rehype-katex, or undefined when the chunk could not be loaded.
 */
export function loadKatex(): Promise<RehypeKatexPlugin | undefined> {
  if (katexPlugin) return Promise.resolve(katexPlugin);
  katexLoading ??= importKatex().then(
    (module) => (katexPlugin = module.default),
    () => {
      katexLoading = undefined;
      return undefined;
    },
  );
  return katexLoading;
}

/** Whether KaTeX's chunk has arrived (formulas can then be rendered in the frame they are seen). */
export function katexLoaded(): boolean {
  return katexPlugin !== undefined;
}

/** For tests: how KaTeX is loaded, and forgetting that it was. */
export function setKatexImport(load: () => Promise<{ default: RehypeKatexPlugin }>): void {
  importKatex = load;
  katexPlugin = undefined;
  katexLoading = undefined;
}

/** Formulas KaTeX failed on that are remembered; the oldest go first past this many. */
const CACHE_SIZE = 1000;

/**
 * How much rendered math is remembered, in hast nodes (all options objects together). One
 * formula is a few hundred nodes (KaTeX writes MathML and positioned HTML), about 200 bytes of
 * heap each: a bound by count (1,000 formulas) let a long session keep tens of megabytes.
 * 5,000 nodes is some twenty-five formulas, about 1 MB: the growing block's (rendered again each
 * frame) and the newest of those in view. Past it, the least recently used go first; a formula
 * scrolled back into view after that is rendered again (a few milliseconds, between frames).
 */
export const MAX_CACHED_MATH_NODES = 5_000;

/** The nodes of a rendered formula, its weight in the cache. */
function nodeCount(nodes: readonly ElementContent[]): number {
  let count = 0;
  for (const node of nodes) {
    count++;
    if (node.type === 'element') count += nodeCount(node.children);
  }
  return count;
}

/** Rendered formulas by their key, bounded by their nodes (`MAX_CACHED_MATH_NODES`). */
function mathCacheOf(): RecentCache<string, ElementContent[]> {
  return new RecentCache<string, ElementContent[]>(Infinity, {
    maxWeight: MAX_CACHED_MATH_NODES,
    weigh: nodeCount,
  });
}

/** Rendered formulas, one bound for all: keyed by the options object's number and the formula. */
let mathCache = mathCacheOf();
let optionsIds = new WeakMap<object, number>();
let nextOptionsId = 0;
/** Formulas KaTeX reported errors on: rendered at once each time, never deferred. */
let failed = new Set<string>();

/** Notes a formula KaTeX failed on; the set keeps the newest `CACHE_SIZE` of them. */
function noteFailed(key: string): void {
  failed.delete(key);
  failed.add(key);
  if (failed.size > CACHE_SIZE) failed.delete(failed.values().next().value!);
}

/** Forgets every remembered formula (for benchmarks that must start cold each run). */
export function forgetRenderedMath(): void {
  mathCache = mathCacheOf();
  optionsIds = new WeakMap();
  failed = new Set();
  pending.clear();
  waiting = new Map();
  renderedFor = new Map();
}

/** The formulas rendered with these options: a view of the one cache. */
function cacheFor(
  options: object,
): Pick<RecentCache<string, ElementContent[]>, 'get' | 'has' | 'set'> {
  const prefix = () => {
    let id = optionsIds.get(options);
    if (id === undefined) {
      id = nextOptionsId++;
      optionsIds.set(options, id);
    }
    return `${id}\u0000`;
  };
  return {
    get: (key) => mathCache.get(prefix() + key),
    has: (key) => mathCache.has(prefix() + key),
    set: (key, value) => mathCache.set(prefix() + key, value),
  };
}

/** The hast nodes remembered now (for tests). */
export function cachedMathNodes(): number {
  return mathCache.weight;
}

function classesOf(element: Element): unknown[] {
  const className = element.properties.className;
  return Array.isArray(className) ? className : [];
}

function textOf(node: ElementContent | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** An element rehype-katex renders: math from remark-math, or the <code> of a ```math fence. */
function isMath(element: Element): boolean {
  const classes = classesOf(element);
  return (
    classes.includes('language-math') ||
    classes.includes('math-display') ||
    classes.includes('math-inline')
  );
}

/**
 * How deep a formula may nest (braces and \left…\right) and still be rendered. People write a
 * dozen levels at most; model output built as a bomb (hundreds of \frac or \sqrt) holds the page
 * for seconds while KaTeX's markup for it is built and laid out, so it is shown as its TeX.
 */
export const MAX_FORMULA_DEPTH = 64;

/** The deepest nesting of a formula's TeX: groups `{…}` and `\left…\right`, escapes skipped. */
export function formulaDepth(tex: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    if (c === '\\') {
      // \left and \right, not \leftarrow or \rightarrow.
      const name = /^[a-zA-Z]+/.exec(tex.slice(i + 1, i + 12))?.[0];
      if (name === 'left') {
        depth++;
        i += 4;
      } else if (name === 'right') {
        depth--;
        i += 5;
      } else {
        i++;
      }
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
    }
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

/** In place of a formula nested too deeply: its TeX, marked as KaTeX marks a formula in error. */
function tooDeep(tex: string): ElementContent[] {
  return [
    {
      type: 'element',
      tagName: 'span',
      properties: {
        className: ['katex-error'],
        title: 'This formula is nested too deeply to render.',
        style: 'color:#cc0000',
      },
      children: [{ type: 'text', value: tex }],
    },
  ];
}

export interface RehypeKatexCachedOptions {
  /** rehype-katex's options; formulas are remembered per options object. */
  katex: Readonly<Options>;
  /** Render formulas not remembered yet between frames, leaving their TeX until then. */
  defer?: boolean;
}

/** Formulas whose rendering is waiting for a task of its own, by options object and key. */
const pending = new Map<string, (version: number) => void>();
let version = 0;
const listeners = new Set<() => void>();
let scheduled = false;

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setTimeout(runPending, 0);
}

/** Renders one waiting formula per task, so that no task holds more than one. */
function runPending(): void {
  scheduled = false;
  if (pending.size === 0) return;
  if (!katexPlugin) {
    // The formulas wait for KaTeX's chunk; a chunk that failed leaves them as TeX until a
    // formula is seen again (which schedules another try).
    void loadKatex().then((plugin) => plugin && schedule());
    return;
  }
  const next = pending.entries().next();
  if (next.done) return;
  const [key, render] = next.value;
  pending.delete(key);
  version++;
  render(version);
  for (const listener of listeners) listener();
  if (pending.size > 0) schedule();
}

/** The formulas each markdown text (a block's) is waiting for, by the text. */
let waiting = new Map<string, Set<string>>();

function wait(doc: string, key: string): void {
  let keys = waiting.get(doc);
  if (!keys) {
    keys = new Set();
    waiting.set(doc, keys);
  }
  keys.add(key);
}

/** When a formula of each text was last rendered for it (a version), for the texts that waited. */
let renderedFor = new Map<string, number>();
const RENDERED_FOR_SIZE = 2000;

function done(key: string, at: number): void {
  for (const [doc, keys] of waiting) {
    if (!keys.delete(key)) continue;
    if (keys.size === 0) waiting.delete(doc);
    renderedFor.delete(doc);
    renderedFor.set(doc, at);
    if (renderedFor.size > RENDERED_FOR_SIZE) renderedFor.delete(renderedFor.keys().next().value!);
  }
}

/** For `useSyncExternalStore`: called each time a deferred formula has been rendered. */
export function subscribeRenderedMath(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
/**
 * Changes when a formula this markdown text waited for has been rendered: the block showing the
 * text renders again then, and no other block does. (Not changed by the render that defers.)
 */
export function mathRenderedFor(markdown: string): number {
  return renderedFor.get(markdown) ?? 0;
}
export function renderedMathVersion(): number {
  return version;
}

/** A file for rendering outside react-markdown's pass: collects rehype-katex's messages only. */
function scratchFile(): VFile {
  const messages: unknown[] = [];
  return {
    messages,
    message() {
      messages.push({});
      return {};
    },
  } as unknown as VFile;
}

export default function rehypeKatexCached({
  katex: options,
  defer = false,
}: RehypeKatexCachedOptions) {
  let transformer: ReturnType<RehypeKatexPlugin> | undefined;
  /** rehype-katex's transform, once its chunk is there. */
  const render = (tree: Root, file: VFile): void => {
    transformer ??= katexPlugin!(options);
    transformer(tree, file);
  };
  const cache = cacheFor(options);

  function rendered(scope: Element, file: VFile): ElementContent[] | undefined {
    // The key: the element's own shape (tag, classes) and its text, all rehype-katex reads.
    const tex = textOf(scope);
    if (formulaDepth(tex) > MAX_FORMULA_DEPTH) return tooDeep(tex);
    const key = JSON.stringify([scope.tagName, scope.properties.className, tex]);
    let result = cache.get(key);
    // Not rendered yet: between frames if asked to defer, and always while KaTeX is loading.
    if (!result && (!katexPlugin || (defer && !failed.has(key)))) {
      wait(String(file.value), key);
      if (!pending.has(key)) {
        const alone = structuredClone(scope);
        pending.set(key, (at) => {
          if (cache.has(key)) {
            done(key, at);
            return;
          }
          const root: Root = { type: 'root', children: [alone] };
          const file = scratchFile();
          render(root, file);
          if (file.messages.length === 0) remember(key, root.children as ElementContent[]);
          else noteFailed(key);
          done(key, at);
        });
      }
      // Also when it was queued already: a KaTeX chunk that failed to load is tried again.
      schedule();
      return undefined;
    }
    if (!result) {
      const alone: Root = { type: 'root', children: [structuredClone(scope)] };
      const messages = file.messages.length;
      render(alone, file);
      result = alone.children as ElementContent[];
      // A formula KaTeX could not render is reported on the file each time: not remembered.
      if (file.messages.length === messages) {
        remember(key, result);
      } else {
        return result;
      }
    }
    // (A hit was made the most recently used by `get`.)
    return structuredClone(result);
  }

  function remember(key: string, result: ElementContent[]): void {
    cache.set(key, result);
  }

  return function transform(tree: Root, file: VFile): void {
    walk(tree, file);
  };

  /** Replaces each formula (a ```math fence's <pre> as a whole) with its rendering. */
  function walk(parent: Element | Root, file: VFile): void {
    for (let i = 0; i < parent.children.length; i++) {
      const child = parent.children[i]!;
      if (child.type !== 'element') continue;
      const fence =
        child.tagName === 'pre' &&
        child.children.some(
          (code) =>
            code.type === 'element' &&
            code.tagName === 'code' &&
            classesOf(code).includes('language-math'),
        );
      if (fence || isMath(child)) {
        const replacement = rendered(child, file);
        // Deferred: the formula's TeX stays, as remark-math wrote it, until it is rendered.
        if (replacement === undefined) continue;
        parent.children.splice(i, 1, ...replacement);
        i += replacement.length - 1;
      } else {
        walk(child, file);
      }
    }
  }
}
