import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import viteConfig from '../../../electron.vite.config';
import {
  isSafeExternalUrl,
  mainWindowOptions,
  quickWindowOptions,
} from '../../../electron/main/windows/main-window-options';

const repoRoot = join(import.meta.dirname, '../../..');

/** The policy that ships. Any source added to a directive, or any directive dropped, fails. */
const EXPECTED_CSP: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

function parsePolicy(policy: string): Record<string, string[]> {
  const directives: Record<string, string[]> = {};
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(directives, `directive ${name} appears twice`).not.toHaveProperty(name);
    directives[name.toLowerCase()] = sources;
  }
  return directives;
}

function cspMetaContents(html: string): string[] {
  const metas = html.match(/<meta\b[^>]*>/gis) ?? [];
  return metas
    .filter((meta) => /http-equiv\s*=\s*["']Content-Security-Policy["']/i.test(meta))
    .map((meta) => /\scontent\s*=\s*"([^"]*)"/i.exec(meta)?.[1] ?? '');
}

describe('main window options', () => {
  const options = mainWindowOptions('/app/out/preload/index.cjs', { packaged: true });
  const web = options.webPreferences ?? {};

  it('runs the page sandboxed and isolated, without Node', () => {
    expect(web.sandbox).toBe(true);
    expect(web.contextIsolation).toBe(true);
    expect(web.nodeIntegration).toBe(false);
    expect(web.nodeIntegrationInWorker).toBe(false);
    expect(web.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and refuses insecure or embedded content', () => {
    expect(web.webSecurity).toBe(true);
    expect(web.allowRunningInsecureContent).toBe(false);
    expect(web.webviewTag).toBe(false);
    expect(web.experimentalFeatures).toBe(false);
    expect(web.navigateOnDragDrop).toBe(false);
    expect(web.plugins).toBe(false);
    expect(web.enableBlinkFeatures).toBeUndefined();
  });

  it('shares no session with other partitions and loads the given preload', () => {
    expect(web.partition).toBeUndefined();
    expect(web.session).toBeUndefined();
    expect(web.preload).toBe('/app/out/preload/index.cjs');
  });

  it('waits for the first paint before showing the window', () => {
    expect(options.show).toBe(false);
  });
});

describe('isSafeExternalUrl', () => {
  it.each(['https://example.com/docs', 'http://localhost:8080/', 'https://openrouter.ai/keys?x=1'])(
    'lets %s open in the browser',
    (url) => {
      expect(isSafeExternalUrl(url)).toBe(true);
    },
  );

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'smb://server/share',
    'ms-settings:privacy',
    'data:text/html,hi',
    'https://user:secret@example.com/',
    '//example.com',
    'not a url',
    '',
  ])('refuses %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });
});

describe('quick ask window options', () => {
  const quick = quickWindowOptions('/app/out/preload/index.cjs', { packaged: true });
  const main = mainWindowOptions('/app/out/preload/index.cjs', { packaged: true });

  it('has exactly the web preferences of the main window: the same preload, sandbox and guards', () => {
    expect(quick.webPreferences).toEqual(main.webPreferences);
  });

  it('is a small panel over other windows, hidden until the shortcut shows it', () => {
    expect(quick).toMatchObject({
      show: false,
      frame: false,
      alwaysOnTop: true,
      skipTaskbar: true,
    });
    expect(quick.width).toBeLessThan(main.width ?? 0);
  });
});

describe.each(['index.html', 'quick.html'])('renderer Content-Security-Policy of %s', (page) => {
  const html = readFileSync(join(repoRoot, 'renderer', page), 'utf8');

  it('is declared exactly once, with exactly the strict policy', () => {
    const policies = cspMetaContents(html);
    expect(policies).toHaveLength(1);
    expect(parsePolicy(policies[0] ?? '')).toEqual(EXPECTED_CSP);
  });

  it('has no inline script in the page', () => {
    const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/\ssrc\s*=/i);
  });

  it('is loosened only for the dev server, never for a build', () => {
    const plugins = (viteConfig as { renderer?: { plugins?: unknown[] } }).renderer?.plugins ?? [];
    const devCsp = plugins
      .flat()
      .find(
        (plugin): plugin is { name: string; apply?: unknown } =>
          typeof plugin === 'object' &&
          plugin !== null &&
          'name' in plugin &&
          plugin.name === 'relay-desktop:dev-csp',
      );
    expect(devCsp?.apply).toBe('serve');
  });
});

describe('source scan', () => {
  const WEAKENINGS = [
    /\bsandbox\s*:\s*false\b/,
    /\bcontextIsolation\s*:\s*false\b/,
    /\bnodeIntegration(InWorker|InSubFrames)?\s*:\s*true\b/,
    /\bwebSecurity\s*:\s*false\b/,
    /\ballowRunningInsecureContent\s*:\s*true\b/,
    /\bwebviewTag\s*:\s*true\b/,
    /\bexposeInMainWorld\s*\([^)]*\bipcRenderer\b(?!\s*\.)/,
    /'unsafe-eval'/,
  ];

  function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.(ts|tsx|html)$/.test(name) ? [path] : [];
    });
  }

  it('finds no security flag turned off anywhere in the app', () => {
    const offenders = [
      ...sourceFiles(join(repoRoot, 'electron')),
      ...sourceFiles(join(repoRoot, 'renderer')),
    ].flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return WEAKENINGS.filter((pattern) => pattern.test(text)).map(
        (pattern) => `${relative(repoRoot, file)}: ${String(pattern)}`,
      );
    });
    expect(offenders).toEqual([]);
  });
});
