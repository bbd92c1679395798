import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  answerAppRequest,
  CONTENT_SECURITY_POLICY,
  contentTypeOf,
  resolveRendererFile,
} from '../../../electron/main/windows/app-origin';

const root = '/opt/relay/out/renderer';

describe('resolveRendererFile', () => {
  it('maps app URLs to files in the renderer folder', () => {
    expect(resolveRendererFile(root, 'app://relay/index.html')).toBe(join(root, 'index.html'));
    expect(resolveRendererFile(root, 'app://relay/')).toBe(join(root, 'index.html'));
    expect(resolveRendererFile(root, 'app://relay/assets/index-abc.js?v=1#x')).toBe(
      join(root, 'assets/index-abc.js'),
    );
  });

  it('keeps dot segments inside the folder (the URL parser folds them before we see them)', () => {
    expect(resolveRendererFile(root, 'app://relay/../main/index.js')).toBe(
      join(root, 'main/index.js'),
    );
    expect(resolveRendererFile(root, 'app://relay/%2e%2e/%2e%2e/etc/passwd')).toBe(
      join(root, 'etc/passwd'),
    );
  });

  it.each([
    'app://relay/assets/..%2f..%2f..%2fetc/passwd',
    'app://relay/assets%5c..%5c..%5csecret',
    'app://relay/%00.js',
    'app://relay/%E0%A4%A',
    'app://other/index.html',
    'file:///etc/passwd',
    'https://relay/index.html',
    'not a url',
  ])('refuses %s', (url) => {
    expect(resolveRendererFile(root, url)).toBeUndefined();
  });
});

describe('the app protocol', () => {
  it('sends a strict policy with frame-ancestors as a header, and types files by extension', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
    expect(contentTypeOf('a/b.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('x.unknown')).toBe('application/octet-stream');
  });
});

describe('answerAppRequest', () => {
  const hash = 'a'.repeat(64);

  it('types a gallery file by the name asked for, never by the file it resolved to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'relay-app-protocol-'));
    try {
      const page = join(dir, 'page.html');
      await writeFile(page, '<script>alert(1)</script>');
      // Whatever the gallery answers, an image URL is never served as a page.
      const response = await answerAppRequest(`app://relay/gallery/${hash}.png`, {
        rendererDir: dir,
        galleryFile: async () => page,
      });
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves the renderer with its policy, and 404 for what is not there or not allowed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'relay-app-protocol-'));
    try {
      await writeFile(join(dir, 'index.html'), '<!doctype html>');
      const page = await answerAppRequest('app://relay/index.html', { rendererDir: dir });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toBe('<!doctype html>');
      for (const url of [
        'app://relay/missing.js',
        'app://other/index.html',
        `app://relay/gallery/${hash}.png`,
      ]) {
        const answer = await answerAppRequest(url, {
          rendererDir: dir,
          galleryFile: async () => undefined,
        });
        expect(answer.status, url).toBe(404);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
