/**
 * The text of a document the person gave the app (an attachment, a knowledge-base file): plain
 * text, Markdown, source code, CSV, JSON, HTML (its text only), PDF (its text layer, page by page)
 * and Word .docx. Anything else, and what cannot be read for text (a binary, an encrypted or
 * image-only PDF), is refused with a reason a person can act on.
 *
 * Each format goes through the maintained library of its field: pdf.js (Mozilla's PDF reader)
 * for PDF, mammoth for .docx, hast (the unified HTML tree) for HTML. Only the format check and the
 * binary sniff are written here, because they are a few lines that decide between those.
 *
 * It runs in a worker thread (`document-worker.ts`): a large PDF takes seconds to read, and main's
 * event loop must stay free meanwhile.
 */
import { extname } from 'node:path';
import { messageFields, said, type Said } from '../words';
import type { ErrorMessageKey, MessageFields, MessageValues } from '../../../shared/messages/keys';

/** What kind of text a document holds; decides how it is shown, split and delimited. */
export type DocumentFormat =
  'text' | 'markdown' | 'code' | 'csv' | 'json' | 'html' | 'pdf' | 'docx';

export interface DocumentPage {
  /** 1-based, as a reader of the PDF would name it. */
  page: number;
  text: string;
}

export interface DocumentText {
  name: string;
  format: DocumentFormat;
  /** The media type of the file as read (`application/pdf`, `text/markdown`…). */
  mimeType: string;
  /** The size of the file read, in bytes. */
  bytes: number;
  /** The whole text; for a PDF, its pages joined by a blank line. */
  text: string;
  /** A PDF's pages, each with its text (pages without text are left out). */
  pages?: DocumentPage[];
  /** For source code: the language its extension names (`ts`, `py`…). */
  language?: string;
}

export type DocumentRefusalReason =
  | 'unsupported'
  | 'binary'
  | 'too_large'
  | 'encrypted'
  | 'no_text'
  | 'damaged'
  | 'unreadable'
  | 'missing'
  | 'not_regular';

export interface DocumentRefusal {
  name: string;
  reason: DocumentRefusalReason;
  /** A sentence for the person that names the file and says why (in English). */
  message: string;
  /** The sentence's key in main's catalogue and its values: the page shows it in its language. */
  messageId?: ErrorMessageKey;
  values?: MessageValues;
}

export type DocumentResult =
  { ok: true; document: DocumentText } | { ok: false; refusal: DocumentRefusal };

export interface DocumentLimits {
  /** The largest file read at all. */
  maxBytes: number;
  /** The most text kept from one document, in characters. */
  maxChars: number;
  /** The most PDF pages read. */
  maxPages: number;
}

export const DOCUMENT_LIMITS: DocumentLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxChars: 10_000_000,
  maxPages: 2_000,
};

const TEXT_FORMATS: Record<string, { format: DocumentFormat; mimeType: string }> = {
  '.txt': { format: 'text', mimeType: 'text/plain' },
  '.text': { format: 'text', mimeType: 'text/plain' },
  '.log': { format: 'text', mimeType: 'text/plain' },
  '.md': { format: 'markdown', mimeType: 'text/markdown' },
  '.markdown': { format: 'markdown', mimeType: 'text/markdown' },
  '.mdx': { format: 'markdown', mimeType: 'text/markdown' },
  '.csv': { format: 'csv', mimeType: 'text/csv' },
  '.tsv': { format: 'csv', mimeType: 'text/tab-separated-values' },
  '.json': { format: 'json', mimeType: 'application/json' },
  '.jsonl': { format: 'json', mimeType: 'application/jsonl' },
  '.ndjson': { format: 'json', mimeType: 'application/jsonl' },
  '.html': { format: 'html', mimeType: 'text/html' },
  '.htm': { format: 'html', mimeType: 'text/html' },
  '.xhtml': { format: 'html', mimeType: 'application/xhtml+xml' },
};

/** Source code and configuration, by extension, with the language name a code fence would use. */
const CODE_LANGUAGES: Record<string, string> = {
  '.ts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.jsx': 'jsx',
  '.mjs': 'js',
  '.cjs': 'js',
  '.py': 'python',
  '.rb': 'ruby',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
  '.scala': 'scala',
  '.swift': 'swift',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.cs': 'csharp',
  '.fs': 'fsharp',
  '.php': 'php',
  '.pl': 'perl',
  '.lua': 'lua',
  '.r': 'r',
  '.jl': 'julia',
  '.dart': 'dart',
  '.ex': 'elixir',
  '.exs': 'elixir',
  '.erl': 'erlang',
  '.hs': 'haskell',
  '.clj': 'clojure',
  '.ml': 'ocaml',
  '.sh': 'bash',
  '.bash': 'bash',
  '.zsh': 'bash',
  '.fish': 'fish',
  '.ps1': 'powershell',
  '.bat': 'bat',
  '.sql': 'sql',
  '.css': 'css',
  '.scss': 'scss',
  '.less': 'less',
  '.vue': 'vue',
  '.svelte': 'svelte',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.toml': 'toml',
  '.ini': 'ini',
  '.cfg': 'ini',
  '.conf': 'ini',
  '.xml': 'xml',
  '.svg': 'xml',
  '.graphql': 'graphql',
  '.proto': 'protobuf',
  '.tf': 'hcl',
  '.gradle': 'groovy',
  '.groovy': 'groovy',
  '.m': 'objectivec',
  '.zig': 'zig',
  '.nim': 'nim',
  '.asm': 'asm',
  '.s': 'asm',
  '.tex': 'latex',
  '.rst': 'rst',
  '.adoc': 'asciidoc',
  '.env': 'ini',
  '.dockerfile': 'dockerfile',
  '.make': 'makefile',
  '.cmake': 'cmake',
  '.diff': 'diff',
  '.patch': 'diff',
};

/** Files known by their whole name rather than an extension. */
const CODE_NAMES: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  'cmakelists.txt': 'cmake',
  '.gitignore': 'ini',
  '.editorconfig': 'ini',
};

/** Formats people are likely to try, each with what to do instead. */
const KNOWN_UNSUPPORTED: Record<string, ErrorMessageKey> = {
  '.doc': 'documents.unsupported.doc',
  '.rtf': 'documents.unsupported.rtf',
  '.odt': 'documents.unsupported.odt',
  '.pages': 'documents.unsupported.pages',
  '.xls': 'documents.unsupported.spreadsheet',
  '.xlsx': 'documents.unsupported.spreadsheet',
  '.ods': 'documents.unsupported.spreadsheet',
  '.ppt': 'documents.unsupported.presentation',
  '.pptx': 'documents.unsupported.presentation',
  '.key': 'documents.unsupported.presentation',
  '.epub': 'documents.unsupported.epub',
  '.zip': 'documents.unsupported.archive',
};

/** Where a file's format comes from: its extension (or its whole name), then what it holds. */
export function formatOf(
  name: string,
): { format: DocumentFormat; mimeType: string; language?: string } | undefined {
  const lower = name.toLowerCase();
  const extension = extname(lower);
  if (extension === '.pdf') return { format: 'pdf', mimeType: 'application/pdf' };
  if (extension === '.docx') {
    return {
      format: 'docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    };
  }
  const text = TEXT_FORMATS[extension];
  if (text) return text;
  const language = CODE_LANGUAGES[extension] ?? CODE_NAMES[lower];
  if (language) return { format: 'code', mimeType: 'text/plain', language };
  return undefined;
}

/**
 * Whether bytes look like a binary file rather than text: a NUL in the first 8 KB (no text
 * encoding the app reads has one), or text that is not valid UTF-8 in more than a few places.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return true;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head);
  let replaced = 0;
  for (const char of decoded) if (char === '\uFFFD') replaced++;
  return replaced > Math.max(4, decoded.length / 100);
}

function refusal(name: string, reason: DocumentRefusalReason, why: Said): DocumentResult {
  return { ok: false, refusal: { name, reason, ...notAdded(name, why) } };
}

/** "<name> was not added: <why>.", in English and by key, for a refused file. */
export function notAdded(name: string, why: Said): MessageFields {
  return messageFields(said('documents.notAdded', { name, why }));
}

function clip(text: string, limits: DocumentLimits): string {
  return text.length > limits.maxChars ? text.slice(0, limits.maxChars) : text;
}

/** UTF-8 text, with a leading byte-order mark dropped and line ends made `\n`. */
function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n');
}

/**
 * Reads the text of a document from its bytes. `name` is the file's name (its extension decides
 * the format); nothing here touches the disk.
 */
export async function extractDocument(
  name: string,
  bytes: Uint8Array,
  limits: DocumentLimits = DOCUMENT_LIMITS,
): Promise<DocumentResult> {
  if (bytes.length > limits.maxBytes) {
    return refusal(
      name,
      'too_large',
      said('documents.why.tooLarge', { megabytes: Math.round(limits.maxBytes / (1024 * 1024)) }),
    );
  }
  const known = formatOf(name);
  if (known === undefined) {
    const hint = KNOWN_UNSUPPORTED[extname(name.toLowerCase())];
    if (hint) return refusal(name, 'unsupported', said(hint));
    // A text file with an unusual extension still goes in; anything else is refused.
    if (bytes.length === 0 || looksBinary(bytes)) {
      return refusal(name, 'binary', said('documents.why.notText'));
    }
    return textDocument(name, bytes, { format: 'text', mimeType: 'text/plain' }, limits, undefined);
  }
  switch (known.format) {
    case 'pdf':
      return pdfDocument(name, bytes, limits);
    case 'docx':
      return docxDocument(name, bytes, limits);
    default:
      if (looksBinary(bytes)) {
        return refusal(name, 'binary', said('documents.why.binary', { extension: extname(name) }));
      }
      return textDocument(name, bytes, known, limits, await htmlReader(known.format));
  }
}

function textDocument(
  name: string,
  bytes: Uint8Array,
  known: { format: DocumentFormat; mimeType: string; language?: string },
  limits: DocumentLimits,
  htmlText: ((html: string) => string) | undefined,
): DocumentResult {
  const raw = decodeText(bytes);
  const text = htmlText ? htmlText(raw) : raw;
  if (text.trim() === '') return refusal(name, 'no_text', said('documents.why.noText'));
  const document: DocumentText = {
    name,
    format: known.format,
    mimeType: known.mimeType,
    bytes: bytes.length,
    text: clip(text, limits),
  };
  if (known.language) document.language = known.language;
  return { ok: true, document };
}

/**
 * For an HTML document, what reads the text a reader sees in it: no tags, scripts or styles;
 * blocks on lines of their own. The HTML parser is loaded the first time one is read, not at the
 * app's start.
 */
async function htmlReader(format: DocumentFormat): Promise<((html: string) => string) | undefined> {
  if (format !== 'html') return undefined;
  const [{ fromHtml }, { toText }] = await Promise.all([
    import('hast-util-from-html'),
    import('hast-util-to-text'),
  ]);
  return (html) =>
    toText(fromHtml(html), { whitespace: 'normal' })
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
}

/** pdf.js's exception names (its classes are not exported in a way that survives bundling). */
function pdfErrorName(error: unknown): string {
  return error instanceof Error ? error.name : '';
}

async function pdfDocument(
  name: string,
  bytes: Uint8Array,
  limits: DocumentLimits,
): Promise<DocumentResult> {
  // The legacy build is the one pdf.js supports in Node; loaded on first use, as most people
  // never give the app a PDF.
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
    data: new Uint8Array(bytes),
    // Fonts are never turned into code (CVE-2024-4367), never fetched, never rendered.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let pdf: Awaited<typeof task.promise>;
  try {
    pdf = await task.promise;
  } catch (error) {
    await task.destroy();
    if (pdfErrorName(error) === 'PasswordException') {
      return refusal(name, 'encrypted', said('documents.why.pdfEncrypted'));
    }
    return refusal(name, 'damaged', said('documents.why.pdfDamaged'));
  }
  try {
    if (pdf.numPages > limits.maxPages) {
      return refusal(
        name,
        'too_large',
        said('documents.why.tooManyPages', { pages: pdf.numPages, max: limits.maxPages }),
      );
    }
    const pages: DocumentPage[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages && length < limits.maxChars; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
      text = text
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim();
      if (text === '') continue;
      pages.push({ page: number, text });
      length += text.length;
    }
    if (pages.length === 0) {
      return refusal(name, 'no_text', said('documents.why.pdfNoText'));
    }
    return {
      ok: true,
      document: {
        name,
        format: 'pdf',
        mimeType: 'application/pdf',
        bytes: bytes.length,
        text: clip(pages.map((p) => p.text).join('\n\n'), limits),
        pages,
      },
    };
  } finally {
    await pdf.destroy();
  }
}

async function docxDocument(
  name: string,
  bytes: Uint8Array,
  limits: DocumentLimits,
): Promise<DocumentResult> {
  const mammoth = await import('mammoth');
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) }));
  } catch {
    return refusal(name, 'damaged', said('documents.why.docxDamaged'));
  }
  const text = value
    .replace(/\r\n?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text === '') return refusal(name, 'no_text', said('documents.why.docxNoText'));
  return {
    ok: true,
    document: {
      name,
      format: 'docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: bytes.length,
      text: clip(text, limits),
    },
  };
}
