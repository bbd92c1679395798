/** Names are shown without the characters that turn their text around. */
import { describe, expect, it } from 'vitest';
import { withoutBidiControls } from '../../../electron/shared/bidi';
import { conversationSummarySchema } from '../../../electron/shared/ipc/routes/chat';

describe('bidi controls', () => {
  it('are removed, every kind, and nothing else', () => {
    const controls = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(withoutBidiControls(`invoice${controls}fdp.exe`)).toBe('invoicefdp.exe');
    expect(withoutBidiControls('שלום relay — 東京')).toBe('שלום relay — 東京');
  });

  it('never reach the page in a name an answer carries', () => {
    const parsed = conversationSummarySchema.shape.title.parse('Plan\u202egnp.exe');
    expect(parsed).toBe('Plangnp.exe');
  });
});
