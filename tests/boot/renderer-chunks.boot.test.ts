/**
 * What the built renderer loads when: the start-up script, the chat screen's chunk, and the code
 * the chat screen fetches only when a reply needs it (KaTeX with its style sheet and fonts, which
 * are most of the chat's script, and highlight.js with each grammar). A static import of either
 * from the chat screen would put it back on the path of every start that opens the chat.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';

const { appRoot } = inject('boot');
const assets = join(appRoot, 'out', 'renderer', 'assets');
const names = await readdir(assets);
const read = (name: string) => readFile(join(assets, name), 'utf8');

/** The one file of the build whose name starts with `prefix-` and ends with `ext`. */
function only(prefix: string, ext: string): string {
  const found = names.filter((n) => n.startsWith(`${prefix}-`) && n.endsWith(ext));
  expect(found, `${prefix}-*${ext} in ${assets}`).toHaveLength(1);
  return found[0]!;
}

/** Chunks a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:from|import)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)].map((m) => m[1]!);
}

/** Chunks a chunk imports dynamically (`import("./x.js")`). */
function dynamicImports(code: string): string[] {
  return [...code.matchAll(/import\(\s*["'`]\.\/([^"'`]+\.js)["'`]\s*\)/g)].map((m) => m[1]!);
}

/**
 * The chat's code: the chat screen's chunk and the chunk of chat pieces it shares with the quick
 * ask window (`chat-<hash>.js`, with `chat-<hash>.css`), which it imports statically.
 */
function chatShared(ext: string): string {
  const found = names.filter((n) => /^chat-[\w-]{8}\./.test(n) && n.endsWith(ext));
  expect(found, `chat-<hash>${ext} in ${assets}`).toHaveLength(1);
  return found[0]!;
}

async function chatCode(): Promise<string> {
  const screen = only('chat-screen', '.js');
  const shared = chatShared('.js');
  expect(staticImports(await read(screen))).toContain(shared);
  return (await read(screen)) + (await read(shared));
}

describe('the chat screen loads KaTeX and highlight.js only when a reply needs them', () => {
  it('keeps KaTeX, its style sheet and fonts out of the start-up page and the chat chunk', async () => {
    const html = await readFile(join(appRoot, 'out', 'renderer', 'index.html'), 'utf8');
    const chat = await chatCode();
    const katex = only('katex-chunk', '.js');
    const katexCss = only('katex-chunk', '.css');
    // KaTeX's own code (its parser's error message) is in its chunk, not in the chat's.
    expect(await read(katex)).toContain('KaTeX parse error');
    expect(chat).not.toContain('KaTeX parse error');
    expect(staticImports(chat)).not.toContain(katex);
    // The chat screen asks for it by name, through the preload map Vite writes (with its CSS).
    expect(chat).toContain(`./${katex}`);
    expect(chat).toContain(`./${katexCss}`);
    // Nothing of KaTeX at start: not the script, not the style sheet, not a font.
    expect(html).not.toMatch(/katex/i);
    expect(await read(chatShared('.css'))).not.toMatch(/KaTeX_/);
    expect(await read(katexCss)).toMatch(/KaTeX_Main-Regular-[\w-]+\.woff2/);
  });

  it('keeps highlight.js and its grammars in chunks of their own, fetched on demand', async () => {
    const chat = await chatCode();
    const core = only('core', '.js');
    expect(await read(core)).toContain('Could not find the language');
    expect(chat).not.toContain('Could not find the language');
    expect(staticImports(chat)).not.toContain(core);
    const grammars = dynamicImports(chat);
    for (const language of ['python', 'typescript', 'bash', 'sql']) {
      expect(grammars.some((g) => g.startsWith(`${language}-`))).toBe(true);
    }
  });

  it('loads the chat screen itself only when it is opened', async () => {
    const html = await readFile(join(appRoot, 'out', 'renderer', 'index.html'), 'utf8');
    const entry = /<script type="module"[^>]*src="\.\/assets\/([^"]+)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const start = await read(entry!);
    expect(staticImports(start)).not.toContain(only('chat-screen', '.js'));
  });
});
