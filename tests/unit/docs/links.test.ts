/**
 * The docs' links: every relative link in the README and the pages under docs/ leads to a file
 * that exists, and to a heading of it when it names one (GitHub's anchors), and so does every
 * docs/….md a source file names; the guide stays a guide (docs/architecture.md, at most 160
 * lines) and lists every design page of docs/design.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const GUIDE = join(ROOT, 'docs/architecture.md');
const DESIGN = join(ROOT, 'docs/design');

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
const SOURCE_FOLDERS = ['electron', 'renderer', 'tests', 'scripts'];
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css|html)$/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code, where links and headings are read. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Each relative link of a page: markdown links, and the src or href of its HTML. */
function linksOf(path: string): string[] {
  const text = prose(readFileSync(path, 'utf8'));
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function broken(path: string, link: string): string | undefined {
  const [file, anchor] = link.split('#') as [string, string | undefined];
  const target = file === '' ? path : join(dirname(path), decodeURIComponent(file));
  const where = `${relative(ROOT, path)}: ${link}`;
  if (!existsSync(target)) return `${where} (no such file)`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return `${where} (not a page)`;
  return anchorsOf(target).has(anchor) ? undefined : `${where} (no such heading)`;
}

describe('the docs', () => {
  it('link only to files and headings that exist', () => {
    const links = PAGES.flatMap((path) => linksOf(path).map((link) => ({ path, link })));
    expect(links.length).toBeGreaterThan(20);
    expect(links.map(({ path, link }) => broken(path, link)).filter(Boolean)).toEqual([]);
  });

  it('are there wherever a source file names one', () => {
    const files = [
      ...SOURCE_FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))),
      ...readdirSync(ROOT)
        .filter((name) => SOURCE.test(name))
        .map((name) => join(ROOT, name)),
    ];
    const named = files.flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/\bdocs\/[\w./-]+\.md\b/g)].map((match) => ({
        path,
        page: match[0],
      })),
    );
    expect(named.length).toBeGreaterThan(5);
    expect(
      named
        .filter(({ page }) => !existsSync(join(ROOT, page)))
        .map(({ path, page }) => `${relative(ROOT, path)}: ${page}`),
    ).toEqual([]);
  });

  it('keep docs/architecture.md a guide of at most 160 lines', () => {
    expect(readFileSync(GUIDE, 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(160);
  });

  it('list every design page in the guide', () => {
    const linked = new Set(linksOf(GUIDE).map((link) => link.split('#')[0]));
    const designs = readdirSync(DESIGN).filter((name) => name.endsWith('.md'));
    expect(designs.length).toBeGreaterThan(5);
    expect(designs.filter((name) => !linked.has(`design/${name}`))).toEqual([]);
  });
});
