/**
 * The files an import carries: a zip export holds the bytes of every file its messages name as
 * `files/<sha256>`, once each. Each one named is checked before anything is written: that the
 * zip holds it, that it is within the size a file attached to a message can be (by its headers,
 * before it is unpacked), that its bytes are the ones named (SHA-256), and that an image is the
 * kind of image it says. One that fails is refused by name with why, and left out of its message;
 * the conversation and the other files still go in.
 *
 * It runs in the import worker with the rest of the reading, so it loads nothing heavy.
 */
import { createHash } from 'node:crypto';
import type { ChatExport, ExportedAttachment, Refused } from './transfer';
import type { ZipEntry } from './zip-reader';

/** The largest file an import takes: the most the attachment size setting allows (50 MB). */
export const MAX_IMPORTED_FILE_BYTES = 50 * 1024 * 1024;

/** Where a file's bytes are in a zip export. */
export const filePath = (sha256: string) => `files/${sha256}`;

const IMAGE_SIGNATURES: Readonly<Record<string, (b: Uint8Array) => boolean>> = {
  'image/png': (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => ascii(b, 0, 4) === 'GIF8',
  'image/webp': (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
};

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

type Messages = ChatExport['conversations'][number]['messages'];

/** Each message's files, with the conversation's title, in file order. */
function* attached(documents: readonly { document: ChatExport }[]) {
  for (const { document } of documents)
    for (const conversation of document.conversations)
      for (const message of conversation.messages as Messages)
        if (message.attachments !== undefined && message.attachments.length > 0)
          yield { title: conversation.title, message };
}

/** Why a file the manifest names cannot be taken from the zip, or its checked bytes. */
function check(
  file: ExportedAttachment,
  entry: ZipEntry | undefined,
  maxFileBytes: number,
): { bytes: Uint8Array } | { problem: string } {
  if (entry === undefined)
    return { problem: `the zip does not hold its bytes (${filePath(file.sha256)})` };
  if (Math.max(file.bytes, entry.size) > maxFileBytes)
    return {
      problem: `it is larger than the ${megabytes(maxFileBytes)} a file sent with a message can be, so it was not unpacked`,
    };
  const read = entry.read();
  if ('problem' in read)
    return { problem: `its entry in the zip cannot be read (${read.problem})` };
  const sha256 = createHash('sha256').update(read.bytes).digest('hex');
  if (sha256 !== file.sha256 || read.bytes.length !== file.bytes)
    return {
      problem: 'its bytes do not match the SHA-256 the export names, so it was damaged or changed',
    };
  return { bytes: read.bytes };
}

/**
 * Takes from a zip's `files/` entries the bytes of every file its documents' messages name, and
 * refuses by name each one that cannot be taken, removing it from its message. Each content is
 * unpacked and checked once, however many messages name it.
 */
export function takeFiles(
  zipName: string,
  entries: ReadonlyMap<string, ZipEntry>,
  documents: readonly { document: ChatExport }[],
  maxFileBytes: number,
): { files: Map<string, Uint8Array>; refused: Refused[]; bytes: number } {
  const files = new Map<string, Uint8Array>();
  const problems = new Map<string, string>();
  const refused: Refused[] = [];
  const said = new Set<string>();
  let bytes = 0;
  for (const { title, message } of attached(documents)) {
    message.attachments = message.attachments!.filter((file) => {
      let problem = problems.get(file.sha256);
      if (problem === undefined && !files.has(file.sha256)) {
        const taken = check(file, entries.get(filePath(file.sha256)), maxFileBytes);
        if ('problem' in taken) problem = taken.problem;
        else {
          files.set(file.sha256, taken.bytes);
          bytes += taken.bytes.length;
        }
        if (problem !== undefined) problems.set(file.sha256, problem);
      }
      if (problem === undefined && file.kind === 'image') {
        const matches = IMAGE_SIGNATURES[file.mimeType];
        if (matches === undefined || !matches(files.get(file.sha256)!))
          problem = `its bytes are not the ${file.mimeType} image the export says it is`;
      }
      if (problem === undefined) return true;
      const name = `${zipName} › ${file.name}`;
      const reason = `${file.name}, sent in “${title}”, was not imported: ${problem}. The conversation was imported without it.`;
      if (!said.has(reason)) {
        said.add(reason);
        refused.push({ name, reason });
      }
      return false;
    });
  }
  return { files, refused, bytes };
}

/**
 * A lone JSON export carries no files: each one its messages name is listed as left out (and
 * taken out of its message), so the person knows to import the zip export instead.
 */
export function leaveOutFiles(
  name: string,
  documents: readonly { document: ChatExport }[],
): Refused[] {
  const refused: Refused[] = [];
  const said = new Set<string>();
  for (const { title, message } of attached(documents)) {
    for (const file of message.attachments!) {
      const reason = `${file.name}, sent in “${title}”, was not imported: ${name} is a JSON export, which names the files sent but does not carry them. Import the conversation’s zip export to have them.`;
      if (said.has(reason)) continue;
      said.add(reason);
      refused.push({ name: `${name} › ${file.name}`, reason });
    }
    message.attachments = [];
  }
  return refused;
}
