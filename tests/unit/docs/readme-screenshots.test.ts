/**
 * The README's pictures, as `npm run screenshots` makes them (tests/screenshots): every picture
 * the README names is in docs/screenshots/, a PNG the size of a window, and every screen is there
 * in both themes. Taking them again is that command's job; here only what it left is checked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const FOLDER = join(ROOT, 'docs/screenshots');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const named = [
  ...new Set(
    [
      ...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(
        /docs\/screenshots\/([\w-]+\.png)/g,
      ),
    ].map((match) => match[1]!),
  ),
];
const inFolder = readdirSync(FOLDER).filter((name) => name.endsWith('.png'));

describe('the README screenshots', () => {
  it('are named by the README, and each one is in docs/screenshots', () => {
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((name) => !inFolder.includes(name))).toEqual([]);
  });

  it('are PNGs of a window (the quick ask one of its own, smaller window)', () => {
    for (const name of inFolder) {
      const bytes = readFileSync(join(FOLDER, name));
      expect(bytes.subarray(0, 8).equals(PNG_MAGIC), `${name}: PNG signature`).toBe(true);
      const size = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
      expect([
        { width: 1280, height: 800 },
        { width: 900, height: 650 },
        { width: 640, height: 560 },
      ]).toContainEqual(size);
    }
  });

  it('show every screen in the light and the dark theme (the other languages in light only)', () => {
    const light = inFolder.filter((name) => name.endsWith('-light.png'));
    const dark = inFolder.filter((name) => name.endsWith('-dark.png'));
    expect(light.length + dark.length).toBe(inFolder.length);
    const screen = (name: string) => name.replace(/-(light|dark)\.png$/, '');
    const otherLanguage = /-(de|fr)$/;
    expect(
      light
        .map(screen)
        .filter((s) => !otherLanguage.test(s))
        .sort(),
    ).toEqual(dark.map(screen).sort());
  });
});
