/**
 * A resource an MCP server gave, as files the composer's attachments take (`AttachmentDrafts.
 * attachBytes`: the same size cap, text and image checks as a pasted file).
 *
 * Each entry of the read becomes one file, named after the resource as the server listed it,
 * with the extension of its type where the name has none the attachments know (they decide by
 * name). Text goes in as text; bytes go in when they are an image, a PDF, a .docx or text; any
 * other type is refused by name, saying which types a message can carry.
 */
import { extname } from 'node:path';
import type { AttachmentRefusal } from '../../../shared/ipc/routes/chat';
import { formatOf, notAdded } from '../documents/document-text';
import { said } from '../words';
import type { ListedResource } from './mcp-connection';
import type { ResourceContents } from './mcp-service';

export type ResourceFile =
  { ok: true; name: string; bytes: Uint8Array } | { ok: false; refusal: AttachmentRefusal };

/** Extensions by type, for a name that has none the attachments read. */
const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'application/pdf': '.pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'text/plain': '.txt',
  'text/markdown': '.md',
  'text/html': '.html',
  'text/csv': '.csv',
  'application/json': '.json',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'application/yaml': '.yaml',
  'text/yaml': '.yaml',
};

/** Bytes of these types go in as text. */
function isTextType(mimeType: string): boolean {
  return (
    mimeType.startsWith('text/') ||
    /^application\/([\w.+-]+\+)?(json|xml|yaml|x-yaml|javascript|typescript|x-sh|sql)$/.test(
      mimeType,
    )
  );
}

/** A name safe as a file's: no folders, no control characters, not empty. */
function safeName(name: string): string {
  const last = name.replace(/\\/g, '/').split('/').filter(Boolean).at(-1) ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.slice(0, 200) || 'resource';
}

/** The last part of a URI's path, for an entry other than the one listed. */
function nameOfUri(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

/** Extensions the attachments read as text. */
const TEXT_EXTENSIONS = new Set(['.txt', '.md', '.html', '.csv', '.json', '.xml', '.yaml']);

/** The name with the type's extension when the attachments would not read it as that type. */
function nameFor(name: string, mimeType: string, asText: boolean): string {
  const extension = EXTENSIONS[mimeType];
  if (asText) {
    const known = formatOf(name);
    if (known !== undefined && known.format !== 'pdf' && known.format !== 'docx') return name;
    return `${name}${extension !== undefined && TEXT_EXTENSIONS.has(extension) ? extension : '.txt'}`;
  }
  if (extension === undefined) return name;
  return extname(name).toLowerCase() === extension ? name : `${name}${extension}`;
}

export function resourceFiles(
  resource: ListedResource,
  contents: readonly ResourceContents[],
): ResourceFile[] {
  return contents.map((entry, index) => {
    const base = safeName(
      index === 0 || entry.uri === resource.uri
        ? resource.name || nameOfUri(resource.uri)
        : nameOfUri(entry.uri),
    );
    const mimeType = (entry.mimeType ?? resource.mimeType ?? '')
      .toLowerCase()
      .split(';')[0]!
      .trim();
    if ('text' in entry)
      return {
        ok: true,
        name: nameFor(base, mimeType, true),
        bytes: new TextEncoder().encode(entry.text),
      };
    const bytes = new Uint8Array(Buffer.from(entry.blob, 'base64'));
    const carried =
      mimeType in EXTENSIONS && !isTextType(mimeType)
        ? nameFor(base, mimeType, false)
        : isTextType(mimeType)
          ? nameFor(base, mimeType, true)
          : undefined;
    if (carried !== undefined) return { ok: true, name: carried, bytes };
    return {
      ok: false,
      refusal: {
        name: base,
        reason: 'unsupported',
        ...notAdded(
          base,
          said('tools.resource.notSendable', { type: mimeType || 'application/octet-stream' }),
        ),
      },
    };
  });
}
