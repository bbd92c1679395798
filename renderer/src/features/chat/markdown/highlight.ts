/**
 * Syntax highlighting, loaded on demand: highlight.js's core and each language are separate
 * chunks fetched the first time a code block needs them, so startup carries none of it.
 */
import type { HLJSApi, LanguageFn } from 'highlight.js';
import { RecentCache } from './recent-cache';

type LanguageModule = { default: LanguageFn };

/** The languages we load, each its own chunk; the strings must stay literal for the bundler. */
const LANGUAGES: Record<string, () => Promise<LanguageModule>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const ALIASES: Record<string, string> = {
  cs: 'csharp',
  'c++': 'cpp',
  golang: 'go',
  html: 'xml',
  js: 'javascript',
  jsx: 'javascript',
  md: 'markdown',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  sh: 'bash',
  svg: 'xml',
  ts: 'typescript',
  tsx: 'typescript',
  yml: 'yaml',
  zsh: 'bash',
};

/** The name we load a fence's language under, or undefined when we have no grammar for it. */
export function languageName(fence: string | undefined): string | undefined {
  if (!fence) return undefined;
  const name = fence.toLowerCase();
  const resolved = ALIASES[name] ?? name;
  return resolved in LANGUAGES ? resolved : undefined;
}

let core: Promise<HLJSApi> | undefined;
const registered = new Map<string, Promise<boolean>>();

function loadCore(): Promise<HLJSApi> {
  core ??= import('highlight.js/lib/core').then((module) => module.default);
  return core;
}

function loadLanguage(name: string): Promise<boolean> {
  let loading = registered.get(name);
  if (!loading) {
    loading = Promise.all([loadCore(), LANGUAGES[name]!()]).then(
      ([hljs, language]) => {
        hljs.registerLanguage(name, language.default);
        return true;
      },
      () => {
        // A chunk that failed to load is tried again next time rather than remembered as failed.
        registered.delete(name);
        return false;
      },
    );
    registered.set(name, loading);
  }
  return loading;
}

/**
 * Code already highlighted, by language and code: a code block mounted again shows it at once
 * (no plain frame, no second render). The 200 most recently used blocks, of at most 1,000,000
 * characters of HTML in all (about 1 MB: one long file pasted by a model must not make the bound
 * by count worth hundreds of megabytes).
 */
export const MAX_HIGHLIGHTED = 200;
export const MAX_HIGHLIGHTED_CHARACTERS = 1_000_000;
const highlighted = new RecentCache<string, string>(MAX_HIGHLIGHTED, {
  maxWeight: MAX_HIGHLIGHTED_CHARACTERS,
  weigh: (html) => html.length,
});

/** The code's HTML if it was highlighted before (see `highlightCode`), else undefined. */
export function highlightedBefore(code: string, fence: string | undefined): string | undefined {
  const name = languageName(fence);
  return name === undefined ? undefined : highlighted.get(`${name}\n${code}`);
}

/**
 * The code as highlight.js's HTML: only `<span class="hljs-…">` around text it has escaped
 * itself. Undefined when the language is unknown or could not be loaded (shown as plain text).
 */
export async function highlightCode(
  code: string,
  fence: string | undefined,
): Promise<string | undefined> {
  const name = languageName(fence);
  if (!name || !(await loadLanguage(name))) return undefined;
  const hljs = await loadCore();
  const html = hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  highlighted.set(`${name}\n${code}`, html);
  return html;
}
