import { crc32 as zlibCrc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderDemoImage } from '../../../electron/demo-relay/models/images';
import { crc32, encodePng } from '../../../electron/demo-relay/png';

interface Chunk {
  type: string;
  data: Buffer;
  crc: number;
  crcInput: Buffer;
}

/** A small PNG reader, enough to check what the encoder wrote. */
function readChunks(png: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    chunks.push({
      type,
      data,
      crc: png.readUInt32BE(offset + 8 + length),
      crcInput: png.subarray(offset + 4, offset + 8 + length),
    });
    offset += 12 + length;
  }
  return chunks;
}

/** Undoes the PNG filters (None and Sub are all the encoder uses) and returns RGB bytes. */
function decodeRgb(png: Buffer): { width: number; height: number; rgb: Buffer } {
  const chunks = readChunks(png);
  const header = chunks.find((chunk) => chunk.type === 'IHDR')!.data;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const raw = inflateSync(
    Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data)),
  );
  const stride = width * 3;
  const rgb = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const value = raw[y * (stride + 1) + 1 + i]!;
      const left = filter === 1 && i >= 3 ? rgb[y * stride + i - 3]! : 0;
      rgb[y * stride + i] = (value + left) & 0xff;
    }
  }
  return { width, height, rgb };
}

describe('crc32', () => {
  it('matches the reference value and zlib', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    const bytes = Buffer.from('IEND and some more bytes \u00ff');
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });
});

describe('encodePng', () => {
  const width = 5;
  const height = 3;
  const pixels = new Uint8Array(width * height * 3).map((_, index) => (index * 37 + 11) & 0xff);
  const png = encodePng(width, height, pixels);

  it('writes the signature, then IHDR, IDAT and IEND with valid CRCs', () => {
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = readChunks(png);
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    for (const chunk of chunks) expect(chunk.crc).toBe(zlibCrc32(chunk.crcInput));
  });

  it('declares the size and 8-bit RGB in IHDR', () => {
    const header = readChunks(png)[0]!.data;
    expect(header.length).toBe(13);
    expect(header.readUInt32BE(0)).toBe(width);
    expect(header.readUInt32BE(4)).toBe(height);
    expect([...header.subarray(8)]).toEqual([8, 2, 0, 0, 0]);
  });

  it('inflates to one filter byte plus 3 bytes per pixel per row, and decodes to the same pixels', () => {
    const idat = readChunks(png)[1]!.data;
    expect(inflateSync(idat).length).toBe((width * 3 + 1) * height);
    expect([...decodeRgb(png).rgb]).toEqual([...pixels]);
  });

  it('refuses a pixel buffer of the wrong size', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow(RangeError);
  });
});

describe('renderDemoImage', () => {
  it('draws the requested size, deterministically per prompt', () => {
    const first = renderDemoImage('a lighthouse at dusk', 96, 64);
    const { width, height, rgb } = decodeRgb(first);
    expect([width, height]).toEqual([96, 64]);
    expect(rgb.length).toBe(96 * 64 * 3);
    expect(renderDemoImage('a lighthouse at dusk', 96, 64).equals(first)).toBe(true);
    expect(renderDemoImage('a lighthouse at dawn', 96, 64).equals(first)).toBe(false);
    expect(renderDemoImage('a lighthouse at dusk', 96, 64, 1).equals(first)).toBe(false);
    // Another request's seed, another picture; the same seed, the same bytes.
    const seeded = renderDemoImage('a lighthouse at dusk', 96, 64, 0, 'image-2');
    expect(seeded.equals(first)).toBe(false);
    expect(renderDemoImage('a lighthouse at dusk', 96, 64, 0, 'image-2').equals(seeded)).toBe(true);
  });

  it('renders the largest size', () => {
    const png = renderDemoImage('big', 2048, 2048);
    const header = readChunks(png)[0]!.data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4)]).toEqual([2048, 2048]);
  });
});
