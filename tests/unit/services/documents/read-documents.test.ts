/**
 * Reading documents for their text: every format the app takes, and every kind of file it must
 * refuse by name with a reason, through the worker thread the app uses.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  extractDocument,
  formatOf,
  looksBinary,
} from '../../../../electron/main/services/documents/document-text';
import {
  readDocumentsInProcess,
  readDocumentsInWorker,
} from '../../../../electron/main/services/documents/read-documents';
import { NOTES_PAGES, REPORT_PARAGRAPHS } from '../../../fixtures/documents/contents';
import { startSourceDocumentWorker } from '../../../fakes/source-workers';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/documents');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-documents-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fixture(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(FIXTURES, name)));
}

describe('the text of each format', () => {
  it('reads a PDF page by page, with page numbers', async () => {
    const result = await extractDocument('notes.pdf', await fixture('notes.pdf'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document).toMatchObject({ format: 'pdf', mimeType: 'application/pdf' });
    expect(result.document.pages?.map((p) => p.page)).toEqual([1, 2, 3]);
    for (const [index, text] of NOTES_PAGES.entries()) {
      expect(result.document.pages?.[index]?.text).toContain(text);
    }
    expect(result.document.text).toContain(NOTES_PAGES[2]);
  });

  it('reads a Word document', async () => {
    const result = await extractDocument('report.docx', await fixture('report.docx'));
    expect(result).toMatchObject({ ok: true, document: { format: 'docx' } });
    if (result.ok) expect(result.document.text).toBe(REPORT_PARAGRAPHS.join('\n\n'));
  });

  it('reads the text of an HTML page, without its tags, scripts or styles', async () => {
    const html =
      '<html><head><style>p{color:red}</style><script>alert(1)</script></head><body><h1>Tides</h1><p>High water at <b>noon</b>.</p></body></html>';
    const result = await extractDocument('page.html', new TextEncoder().encode(html));
    expect(result.ok && result.document.text).toBe('Tides\n\nHigh water at noon.');
  });

  it('reads text, Markdown, CSV, JSON and code as they are, with CRLF made LF', async () => {
    const cases: Array<[string, string, string]> = [
      ['a.txt', 'one\r\ntwo', 'text'],
      ['b.md', '# Title\n\nBody', 'markdown'],
      ['c.csv', 'a,b\r\n1,2', 'csv'],
      ['d.json', '{"a":1}', 'json'],
      ['e.py', 'print("hi")', 'code'],
      ['Dockerfile', 'FROM node:20', 'code'],
    ];
    for (const [name, text, format] of cases) {
      const result = await extractDocument(name, new TextEncoder().encode(`\uFEFF${text}`));
      expect(result, name).toMatchObject({ ok: true, document: { format } });
      expect(result.ok && result.document.text).toBe(text.replace(/\r\n/g, '\n'));
    }
    expect(formatOf('e.py')?.language).toBe('python');
  });

  it('takes a text file with an unknown extension, but no binary', async () => {
    const text = await extractDocument('notes.weird', new TextEncoder().encode('plain words'));
    expect(text).toMatchObject({ ok: true, document: { format: 'text' } });
    expect(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]))).toBe(true);
  });
});

describe('what is refused, by name, with why', () => {
  it.each([
    ['locked.pdf', 'encrypted', /protected by a password/],
    ['scanned.pdf', 'no_text', /no text layer .* OCR/],
  ])('%s: %s', async (name, reason, message) => {
    const result = await extractDocument(name, await fixture(name));
    expect(result).toMatchObject({ ok: false, refusal: { name, reason } });
    expect(!result.ok && result.refusal.message).toMatch(message);
    expect(!result.ok && result.refusal.message).toMatch(new RegExp(`^${name} was not added`));
  });

  it('refuses binaries, formats it does not read (saying what to do), damaged PDFs and big files', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    expect(await extractDocument('photo.png', png)).toMatchObject({
      ok: false,
      refusal: { reason: 'binary' },
    });
    expect(await extractDocument('program.txt', png)).toMatchObject({
      ok: false,
      refusal: { reason: 'binary' },
    });
    const sheet = await extractDocument('budget.xlsx', new Uint8Array([1, 2, 3]));
    expect(sheet).toMatchObject({ ok: false, refusal: { reason: 'unsupported' } });
    expect(!sheet.ok && sheet.refusal.message).toMatch(/save the sheet as CSV/);
    expect(
      await extractDocument('fake.pdf', new TextEncoder().encode('%PDF-1.7 this is not a pdf')),
    ).toMatchObject({ ok: false, refusal: { reason: 'damaged' } });
    expect(
      await extractDocument('big.txt', new Uint8Array(11), {
        maxBytes: 10,
        maxChars: 100,
        maxPages: 10,
      }),
    ).toMatchObject({ ok: false, refusal: { reason: 'too_large' } });
    expect(await extractDocument('empty.md', new Uint8Array())).toMatchObject({
      ok: false,
      refusal: { reason: 'no_text' },
    });
  });
});

describe('reading from disk in a worker thread', () => {
  // A worker started from source (compiled on the fly) reads two PDFs: slow on busy cores.
  it('gives one result per path in order, the good ones read and the others refused by name', async () => {
    const text = join(dir, 'plan.md');
    await writeFile(text, '# Plan\n\nSail at six.');
    const gone = join(dir, 'gone.txt');
    await writeFile(gone, 'soon deleted');
    await unlink(gone);
    const fifo = join(dir, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const paths = [
      join(FIXTURES, 'notes.pdf'),
      text,
      gone,
      fifo,
      dir,
      join(FIXTURES, 'locked.pdf'),
    ];
    const heard: number[] = [];
    const read = readDocumentsInWorker(startSourceDocumentWorker);
    const results = await read(paths, { onResult: (index) => heard.push(index) });
    expect(heard).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => (r.ok ? r.document.format : r.refusal.reason))).toEqual([
      'pdf',
      'markdown',
      'missing',
      'not_regular',
      'not_regular',
      'encrypted',
    ]);
    // The same outcome without a worker.
    const inProcess = await readDocumentsInProcess()(paths);
    expect(inProcess).toEqual(results);
  }, 60_000);

  it('can be cancelled, and then says so', async () => {
    const controller = new AbortController();
    const read = readDocumentsInWorker(startSourceDocumentWorker);
    const reading = read([join(FIXTURES, 'notes.pdf')], { signal: controller.signal });
    controller.abort(new Error('cancelled by the person'));
    await expect(reading).rejects.toThrow('cancelled by the person');
  });
});
