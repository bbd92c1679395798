/**
 * Characters that change the direction text is shown in, without showing themselves: an override
 * in a name (`invoice‮fdp.exe` shows as "invoiceexe.pdf") makes it read as something else. Names
 * the app shows are shown without them (`shownText` in `ipc/schemas.ts`).
 */

/** ALM, LRM and RLM; the embeddings and overrides (LRE, RLE, PDF, LRO, RLO); the isolates. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
