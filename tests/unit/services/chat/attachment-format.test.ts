/**
 * What a request sends for a message's files: each text file as a block after the text, named
 * and typed, a PDF page by page; images as parts beside that text; and the estimate in tokens.
 */
import { describe, expect, it } from 'vitest';
import {
  attachmentBlock,
  CHARS_PER_TOKEN,
  estimateTokens,
  imagesRefusedFor,
  messageContent,
  messageWithAttachments,
} from '../../../../electron/main/services/chat/attachment-format';

describe('attachment format', () => {
  it('names a file in its block without letting its name break the block', () => {
    expect(attachmentBlock({ name: 'a"b\nc.txt', mimeType: 'text/plain', text: 'hi' })).toBe(
      '<attached-file name="a b c.txt" type="text/plain">\nhi\n</attached-file>',
    );
    expect(
      attachmentBlock({
        name: 'p.pdf',
        mimeType: 'application/pdf',
        text: 'ignored',
        pages: [
          { page: 1, text: 'one' },
          { page: 3, text: 'three' },
        ],
      }),
    ).toBe(
      '<attached-file name="p.pdf" type="application/pdf" pages="2">\n[Page 1]\none\n\n[Page 3]\nthree\n</attached-file>',
    );
  });

  it('sends a message without images as one string, and with images as parts', () => {
    const note = { name: 'n.txt', mimeType: 'text/plain', text: 'x', kind: 'text' as const };
    expect(messageWithAttachments('Hi', [])).toBe('Hi');
    expect(messageContent('Hi', [note])).toBe(`Hi\n\n${attachmentBlock(note)}`);
    const image = {
      name: 'p.png',
      mimeType: 'image/png',
      text: '',
      kind: 'image' as const,
      data: new Uint8Array([1, 2]),
    };
    expect(messageContent('', [image])).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AQI=' } },
    ]);
    expect(messageContent('Hi', [image, note])).toEqual([
      { type: 'text', text: `Hi\n\n${attachmentBlock(note)}` },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AQI=' } },
    ]);
  });

  it('estimates about four characters a token, and stops images to a model that reads none', () => {
    expect(CHARS_PER_TOKEN).toBe(4);
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
    const files = [{ name: 'p.png', kind: 'image' as const }];
    expect(imagesRefusedFor('m', true, files)).toBeUndefined();
    expect(
      imagesRefusedFor('m', false, [{ name: 'n.txt', kind: 'text' as const }]),
    ).toBeUndefined();
    expect(imagesRefusedFor('m', false, files)).toBeDefined();
  });
});
