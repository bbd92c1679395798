import { describe, expect, it } from 'vitest';
import { inputsFromText, parseCsv } from '../../../../electron/main/services/embeddings/input-file';
import {
  bytesToVector,
  vectorToBytes,
} from '../../../../electron/main/services/embeddings/run-store';
import { runToCsv } from '../../../../electron/main/services/embeddings/export-run';

describe('reading inputs from a file', () => {
  it('parses RFC 4180 CSV: quotes, doubled quotes, commas and line breaks in cells, CRLF', () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\n"two\nlines",x\n')).toEqual([
      ['a', 'b, c', 'say "hi"'],
      ['two\nlines', 'x'],
    ]);
  });

  it('refuses a quoted cell that never closes', () => {
    expect(() => parseCsv('a,"open\n')).toThrow(/never closed/);
  });

  it('takes a named text column when the header has one, every cell otherwise', () => {
    expect(inputsFromText('id,Text\n1,cat\n2,dog\n', '.csv').inputs).toEqual(['cat', 'dog']);
    expect(inputsFromText('cat,dog\nbird,\n', '.csv')).toEqual({
      inputs: ['cat', 'dog', 'bird'],
      skippedEmpty: 1,
    });
  });

  it('reads one input per line of a .txt file, leaving out blank lines and counting them', () => {
    expect(inputsFromText('one\r\n\r\ntwo\rthree\n', '.txt')).toEqual({
      inputs: ['one', 'two', 'three'],
      skippedEmpty: 1,
    });
  });
});

describe('stored vectors', () => {
  it('round-trip through float32 bytes, from a buffer or a view', () => {
    const vector = [0.5, -0.25, Math.fround(0.1)];
    const bytes = vectorToBytes(vector);
    expect(Array.from(bytesToVector(bytes))).toEqual(vector);
    expect(Array.from(bytesToVector(bytes.slice().buffer))).toEqual(vector);
  });

  it('export as CSV quotes texts with commas, quotes or edge spaces', () => {
    const csv = runToCsv(
      { id: 'r', model: 'm', createdAt: '', status: 'done', total: 2, done: 2, dimensions: 1 },
      [
        { index: 0, text: ' a, "b"', vector: Float32Array.from([1]) },
        { index: 1, text: 'plain', vector: Float32Array.from([0.5]) },
      ],
    );
    expect(parseCsv(csv)).toEqual([
      ['index', 'text', 'd0'],
      ['0', ' a, "b"', '1'],
      ['1', 'plain', '0.5'],
    ]);
  });

  it('export as CSV keeps a spreadsheet from running a text as a formula', () => {
    const texts = ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tTAB', '\rCR', '=HYPERLINK("x")'];
    const csv = runToCsv(
      { id: 'r', model: 'm', createdAt: '', status: 'done', total: 7, done: 7, dimensions: 2 },
      texts.map((text, index) => ({ index, text, vector: Float32Array.from([-0.5, 2]) })),
    );
    const rows = parseCsv(csv).slice(1);
    // OWASP's advice: a single quote before the cell, so the text is shown as it was written.
    expect(rows.map((row) => row[1])).toEqual(texts.map((text) => `'${text}`));
    // Negative numbers in the vector columns stay numbers.
    for (const row of rows) expect(row.slice(2)).toEqual(['-0.5', '2']);
  });
});
