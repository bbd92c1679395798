/**
 * rehype-katex with its results remembered. rehype-katex turns KaTeX's HTML string back into a
 * tree by parsing it with the browser's HTML parser (a `<template>`'s innerHTML), and that parse
 * costs several milliseconds per formula (KaTeX's markup is large: HTML and MathML). While a
 * reply streams, the growing block renders again every frame with the same formulas in it, and a
 * frame that renders a few of them became a long task. Here each formula is rendered by
 * rehype-katex once, and later renders of the same formula reuse a copy of its tree.
 *
 * The output is exactly rehype-katex's: the formula's element is handed to rehype-katex inside a
 * tree of its own, and what it puts in its place is what we remember.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import rehypeKatex, { type Options } from 'rehype-katex';

/** The file rehype-katex reports on (react-markdown's). */
type VFile = Parameters<ReturnType<typeof rehypeKatex>>[1];

/** Formulas remembered per options object; the oldest go first past this many. */
const CACHE_SIZE = 1000;

let caches = new WeakMap<object, Map<string, ElementContent[]>>();

/** Forgets every remembered formula (for benchmarks that must start cold each run). */
export function forgetRenderedMath(): void {
  caches = new WeakMap();
}

function cacheFor(options: object): Map<string, ElementContent[]> {
  let cache = caches.get(options);
  if (!cache) {
    cache = new Map();
    caches.set(options, cache);
  }
  return cache;
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

export default function rehypeKatexCached(options: Readonly<Options>) {
  const render = rehypeKatex(options);
  const cache = cacheFor(options);

  function rendered(scope: Element, file: VFile): ElementContent[] {
    // The key: the element's own shape (tag, classes) and its text, all rehype-katex reads.
    const key = JSON.stringify([scope.tagName, scope.properties.className, textOf(scope)]);
    let result = cache.get(key);
    if (!result) {
      const alone: Root = { type: 'root', children: [structuredClone(scope)] };
      const messages = file.messages.length;
      render(alone, file);
      result = alone.children as ElementContent[];
      // A formula KaTeX could not render is reported on the file each time: not remembered.
      if (file.messages.length === messages) {
        cache.set(key, result);
        if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
      } else {
        return result;
      }
    } else {
      // Used again: the newest.
      cache.delete(key);
      cache.set(key, result);
    }
    return structuredClone(result);
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
        parent.children.splice(i, 1, ...replacement);
        i += replacement.length - 1;
      } else {
        walk(child, file);
      }
    }
  }
}
