import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const resources = join(import.meta.dirname, '../../../resources');
const read = (name: string) => readFileSync(join(resources, name));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_MAGIC), 'PNG signature').toBe(true);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** `<sha256>  <path>` lines written by `npm run icons`, paths relative to resources/. */
function recordedHashes(): Map<string, string> {
  const lines = read('icons/source.sha256').toString('utf8').trim().split('\n');
  return new Map(
    lines.map((line) => {
      const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
      if (!match) throw new Error(`Not a sha256sum line: ${line}`);
      return [match[2] ?? '', match[1] ?? ''];
    }),
  );
}

describe('the app icons', () => {
  it('were rendered from the current resources/icon.svg (run `npm run icons` after changing it)', () => {
    expect(recordedHashes().get('icon.svg')).toBe(sha256(read('icon.svg')));
  });

  it('are exactly the files that rendering wrote, none edited by hand since', () => {
    const recorded = recordedHashes();
    const expected = [
      'icon.svg',
      'icon.png',
      'icon.icns',
      'icon.ico',
      ...LINUX_SIZES.map((s) => `icons/${s}x${s}.png`),
    ];
    expect([...recorded.keys()].sort()).toEqual(expected.sort());
    for (const [name, hash] of recorded) expect(sha256(read(name)), name).toBe(hash);
    // Nothing stray in the Linux set: electron-builder takes every <size>x<size>.png it finds.
    expect(readdirSync(join(resources, 'icons')).sort()).toEqual(
      [...LINUX_SIZES.map((s) => `${s}x${s}.png`), 'source.sha256'].sort(),
    );
  });

  it('has a 1024 px PNG and a Linux set whose files are the size their names say', () => {
    expect(pngSize(read('icon.png'))).toEqual({ width: 1024, height: 1024 });
    for (const size of LINUX_SIZES) {
      expect(pngSize(read(`icons/${size}x${size}.png`)), `${size}x${size}.png`).toEqual({
        width: size,
        height: size,
      });
    }
  });

  it('has a macOS .icns whose entries fill the file, up to the 1024 px retina size', () => {
    const icns = read('icon.icns');
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const types = new Map<string, Buffer>();
    for (let at = 8; at < icns.length;) {
      const length = icns.readUInt32BE(at + 4);
      expect(length).toBeGreaterThan(8);
      types.set(icns.toString('latin1', at, at + 4), icns.subarray(at + 8, at + length));
      at += length;
    }
    // ic10 is 512@2x (1024 px), ic07 128 px, ic11 16@2x, is32 the classic 16 px.
    for (const type of ['ic10', 'ic09', 'ic08', 'ic07', 'ic11', 'is32']) {
      expect(types.has(type), type).toBe(true);
    }
    expect(pngSize(types.get('ic10') ?? Buffer.alloc(0))).toEqual({ width: 1024, height: 1024 });
  });

  it('has a Windows .ico from 16 to 256 px, each entry inside the file', () => {
    const ico = read('icon.ico');
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + 16 * i;
      const width = ico.readUInt8(entry) || 256;
      const height = ico.readUInt8(entry + 1) || 256;
      expect(height).toBe(width);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      const image = ico.subarray(offset, offset + length);
      // Large sizes are stored as PNG, small ones as bitmaps (BITMAPINFOHEADER, 40 bytes).
      if (image.subarray(0, 8).equals(PNG_MAGIC)) expect(pngSize(image).width).toBe(width);
      else expect(image.readUInt32LE(0)).toBe(40);
      sizes.push(width);
    }
    for (const size of [16, 24, 32, 48, 64, 128, 256]) expect(sizes).toContain(size);
  });

  it('are the files electron-builder.yml points each platform at', () => {
    const config = parse(
      readFileSync(join(resources, '..', 'electron-builder.yml'), 'utf8'),
    ) as Record<string, { icon?: string }>;
    expect(config['linux']?.icon).toBe('resources/icons');
    expect(config['mac']?.icon).toBe('resources/icon.icns');
    expect(config['win']?.icon).toBe('resources/icon.ico');
  });

  it('are found by electron-builder itself for each platform, with nothing left to convert', async () => {
    // electron-builder's own icon resolution (app-builder-lib), which packaging runs: it only
    // starts its conversion tool, which needs a download, when a file is not usable as it is.
    const { convertIcon } = createRequire(import.meta.url)(
      'app-builder-lib/out/util/iconConverter',
    ) as {
      convertIcon(options: {
        sources: string[];
        fallbackSources: string[];
        roots: string[];
        format: 'set' | 'icns' | 'ico';
        outDir: string;
      }): Promise<{ icons: { file: string; size: number }[]; isFallback: boolean }>;
    };
    const outDir = await mkdtemp(join(tmpdir(), 'relay-icons-'));
    try {
      const resolve = (source: string, format: 'set' | 'icns' | 'ico') =>
        convertIcon({
          sources: [source],
          fallbackSources: [],
          roots: [join(resources, '..'), resources],
          format,
          outDir,
        });
      const linux = await resolve('resources/icons', 'set');
      expect(linux.isFallback).toBe(false);
      expect(linux.icons.map((icon) => icon.size)).toEqual(LINUX_SIZES);
      const mac = await resolve('resources/icon.icns', 'icns');
      expect(mac.icons.map((icon) => icon.file)).toEqual([join(resources, 'icon.icns')]);
      // For Windows it also checks the .ico holds a 256 px image.
      const windows = await resolve('resources/icon.ico', 'ico');
      expect(windows.icons).toEqual([{ file: join(resources, 'icon.ico'), size: 256 }]);
      expect(readdirSync(outDir)).toEqual([]);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});

describe('the tray images', () => {
  const TRAY = {
    'trayTemplate.png': 16,
    'trayTemplate@2x.png': 32,
    'tray-light.png': 24,
    'tray-light@2x.png': 48,
    'tray-dark.png': 24,
    'tray-dark@2x.png': 48,
  } as const;

  /** `<sha256>  tray/<name>` lines written by `npm run icons`. */
  function trayHashes(): Map<string, string> {
    const lines = read('tray/source.sha256').toString('utf8').trim().split('\n');
    return new Map(
      lines.map((line) => {
        const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
        if (!match) throw new Error(`Not a sha256sum line: ${line}`);
        return [match[2] ?? '', match[1] ?? ''];
      }),
    );
  }

  it('were rendered from the current resources/tray/tray.svg and not edited since', () => {
    const recorded = trayHashes();
    expect([...recorded.keys()].sort()).toEqual(
      ['tray/tray.svg', ...Object.keys(TRAY).map((name) => `tray/${name}`)].sort(),
    );
    for (const [name, hash] of recorded) expect(sha256(read(name)), name).toBe(hash);
  });

  it('are the size each system expects, with a @2x beside each and the macOS template named so', () => {
    for (const [name, size] of Object.entries(TRAY)) {
      expect(pngSize(read(`tray/${name}`)), name).toEqual({ width: size, height: size });
    }
    // macOS takes an image as a template by its name ending in "Template".
    expect(Object.keys(TRAY)).toContain('trayTemplate.png');
    expect(
      readdirSync(join(resources, 'tray'))
        .filter((f) => f.endsWith('.png'))
        .sort(),
    ).toEqual(Object.keys(TRAY).sort());
  });
});
