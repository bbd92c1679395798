/**
 * Reads the files of a zip chosen for import, refusing what could hurt: more entries or more
 * unpacked bytes than `ZipLimits` allow (checked on the headers before anything is unpacked, and
 * again on the bytes actually unpacked, so a bomb whose headers lie is stopped after a few chunks).
 *
 * fflate's `unzipSync` trusts the sizes in the headers; this reads the central directory itself
 * and inflates each entry in small pieces, counting as it goes.
 */
import { Inflate } from 'fflate';
import { said, type Said } from '../words';

export interface ZipLimits {
  /** Most files (folders not counted) read from one zip. */
  maxEntries: number;
  /** Most bytes all its files may unpack to together. */
  maxUncompressedBytes: number;
}

/** A fault of the whole zip: nothing in it is read. Its words by key, in English as `message`. */
export class ZipError extends Error {
  constructor(readonly said: Said) {
    super(said.english);
  }
}

export interface ZipEntry {
  name: string;
  /** The unpacked size its headers declare (checked again as it is unpacked). */
  size: number;
  /** The unpacked bytes, or why this entry cannot be read (the others still can). */
  read(): { bytes: Uint8Array } | { problem: Said };
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** Compressed bytes inflated at a time: at most ~1,000 times as many come out of one piece. */
const PIECE = 16 * 1024;

/** Whether the bytes begin as a zip does (a file or an empty archive). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const signature = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  return signature === LOCAL_HEADER || signature === END_OF_DIRECTORY;
}

/** Megabytes to one decimal, for "{size} MB" in a message. */
function megabytesAbout(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The files of a zip (folders and macOS `__MACOSX/` metadata left out), after checking the whole
 * directory against the limits. Throws ZipError when the zip cannot be read or is too big.
 */
export function readZip(zipName: string, bytes: Uint8Array, limits: ZipLimits): ZipEntry[] {
  const damaged = () => new ZipError(said('zip.damaged', { name: zipName }));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => {
    if (at + 2 > bytes.length) throw damaged();
    return view.getUint16(at, true);
  };
  const u32 = (at: number) => {
    if (at + 4 > bytes.length) throw damaged();
    return view.getUint32(at, true);
  };

  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw damaged();
  const count = u16(end + 10);
  const directoryOffset = u32(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff)
    throw new ZipError(said('zip.zip64', { name: zipName }));

  const headers: Array<{
    name: string;
    flags: number;
    method: number;
    crc: number;
    compressedSize: number;
    size: number;
    localOffset: number;
  }> = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (u32(at) !== DIRECTORY_ENTRY) throw damaged();
    const nameLength = u16(at + 28);
    if (at + 46 + nameLength > bytes.length) throw damaged();
    headers.push({
      flags: u16(at + 8),
      method: u16(at + 10),
      crc: u32(at + 16),
      compressedSize: u32(at + 20),
      size: u32(at + 24),
      localOffset: u32(at + 42),
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
  }

  const files = headers.filter((h) => !h.name.endsWith('/') && !h.name.startsWith('__MACOSX/'));
  if (files.length > limits.maxEntries)
    throw new ZipError(
      said('zip.tooManyFiles', { name: zipName, count: files.length, max: limits.maxEntries }),
    );
  const declared = files.reduce((sum, h) => sum + h.size, 0);
  if (declared > limits.maxUncompressedBytes)
    throw new ZipError(
      said('zip.tooLarge', { name: zipName, size: megabytesAbout(limits.maxUncompressedBytes) }),
    );

  let unpacked = 0;
  return files.map((header) => ({
    name: header.name,
    size: header.size,
    read() {
      const where = `${zipName} › ${header.name}`;
      if (header.flags & 1) return { problem: said('zip.entry.encrypted', { name: where }) };
      if (u32(header.localOffset) !== LOCAL_HEADER)
        return { problem: said('zip.entry.damaged', { name: where }) };
      const start =
        header.localOffset + 30 + u16(header.localOffset + 26) + u16(header.localOffset + 28);
      const data = bytes.subarray(start, start + header.compressedSize);
      if (start + header.compressedSize > bytes.length)
        return { problem: said('zip.entry.damaged', { name: where }) };
      const checked = (bytes: Uint8Array) =>
        crc32(bytes) === header.crc
          ? { bytes }
          : { problem: said('zip.entry.checksum', { name: where }) };
      if (header.method === STORED) {
        if (data.length !== header.size)
          return { problem: said('zip.entry.damaged', { name: where }) };
        unpacked += data.length;
        return checked(data.slice());
      }
      if (header.method !== DEFLATED)
        return {
          problem: said('zip.entry.method', { name: where, method: header.method }),
        };
      const out = inflateAtMost(data, header.size, where);
      if ('problem' in out) return out;
      unpacked += out.bytes.length;
      // Headers were checked; this holds even if several entries share their bytes.
      if (unpacked > limits.maxUncompressedBytes)
        throw new ZipError(
          said('zip.tooLarge', {
            name: zipName,
            size: megabytesAbout(limits.maxUncompressedBytes),
          }),
        );
      return checked(out.bytes);
    },
  }));
}

let crcTable: Uint32Array | undefined;

/** The CRC-32 that zip headers carry for each file's unpacked bytes. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

class TooLarge extends Error {}

/**
 * Inflates deflate data that its header says unpacks to `size` bytes; more than that is a bomb
 * (ZipError, stopped after the piece that overflowed), less or broken data a damaged entry.
 */
function inflateAtMost(
  data: Uint8Array,
  size: number,
  where: string,
): { bytes: Uint8Array } | { problem: Said } {
  const out = new Uint8Array(size);
  let filled = 0;
  const inflater = new Inflate((chunk) => {
    if (filled + chunk.length > size) throw new TooLarge();
    out.set(chunk, filled);
    filled += chunk.length;
  });
  try {
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
    for (let offset = 0; offset < data.length; offset += PIECE)
      inflater.push(data.subarray(offset, offset + PIECE), offset + PIECE >= data.length);
  } catch (error) {
    if (error instanceof TooLarge)
      throw new ZipError(said('zip.entry.bomb', { name: where, size }));
    return { problem: said('zip.entry.unreadable', { name: where }) };
  }
  if (filled !== size) return { problem: said('zip.entry.short', { name: where }) };
  return { bytes: out };
}
