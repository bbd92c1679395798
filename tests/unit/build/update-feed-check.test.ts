/**
 * The build refuses an update feed that is not https (electron-builder's `beforePack` hook), so
 * no package can carry one; the app refuses it as well.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repoRoot = join(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
const check = require('../../../scripts/check-update-feed.cjs') as (() => Promise<void>) & {
  default: () => Promise<void>;
};
const before = process.env.RELAY_UPDATE_URL;

afterEach(() => {
  if (before === undefined) delete process.env.RELAY_UPDATE_URL;
  else process.env.RELAY_UPDATE_URL = before;
});

describe('the update feed at build time', () => {
  it('is checked before anything is packed', () => {
    const config = parse(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as {
      beforePack?: string;
    };
    expect(config.beforePack).toBe('./scripts/check-update-feed.cjs');
  });

  it.each([
    'http://downloads.example.com/relay-desktop/',
    'ftp://downloads.example.com/',
    'downloads.example.com',
    '',
  ])('refuses %j', async (url) => {
    process.env.RELAY_UPDATE_URL = url;
    await expect(check.default()).rejects.toThrow(/RELAY_UPDATE_URL/);
  });

  it.each(['https://downloads.example.com/relay-desktop/', 'http://127.0.0.1:8123/feed/'])(
    'takes %s',
    async (url) => {
      process.env.RELAY_UPDATE_URL = url;
      await expect(check.default()).resolves.toBeUndefined();
    },
  );
});
