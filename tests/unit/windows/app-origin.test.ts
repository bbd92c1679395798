import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
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
