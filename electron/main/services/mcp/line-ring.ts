/**
 * The last lines a server wrote to its error output: kept for the Tools screen and for the
 * diagnosis of a start that failed, in bounded memory however much a server writes.
 */

/** How many lines are kept. */
export const RING_LINES = 200;
/** A longer line is cut to this many characters (with an ellipsis). */
export const RING_LINE_CHARS = 2000;

export class LineRing {
  readonly #lines: string[] = [];
  readonly #maxLines: number;
  readonly #maxChars: number;
  /** The line being written (no newline yet), already cut to size. */
  #partial = '';
  #partialCut = false;
  /** Lines dropped off the front since the start. */
  #dropped = 0;
  readonly #decoder = new TextDecoder();
  /** Told after each change (the service sends the page the new lines, paced). */
  onChange: (() => void) | undefined;

  constructor(maxLines = RING_LINES, maxChars = RING_LINE_CHARS) {
    this.#maxLines = maxLines;
    this.#maxChars = maxChars;
  }

  /** Takes a chunk of output, cut anywhere (inside a line, inside a character). */
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end === -1) {
        this.#grow(text.slice(start));
        this.onChange?.();
        return;
      }
      this.#grow(text.slice(start, end));
      this.#commit();
      start = end + 1;
    }
  }

  /** A line of the app's own (what it noticed about the server), kept among the others. */
  note(line: string): void {
    if (this.#partial !== '') this.#commit();
    this.#grow(line);
    this.#commit();
    this.onChange?.();
  }

  /** The lines kept, oldest first, with the line still being written. */
  lines(): string[] {
    const tail = this.#partial === '' ? [] : [this.#finish(this.#partial, this.#partialCut)];
    return [...this.#lines, ...tail];
  }

  /** The last `count` lines. */
  last(count: number): string[] {
    return this.lines().slice(-count);
  }

  get dropped(): number {
    return this.#dropped;
  }

  clear(): void {
    this.#lines.length = 0;
    this.#partial = '';
    this.#partialCut = false;
  }

  #grow(piece: string): void {
    if (this.#partialCut) return;
    const room = this.#maxChars - this.#partial.length;
    if (piece.length > room) {
      this.#partial += piece.slice(0, Math.max(0, room));
      this.#partialCut = true;
    } else this.#partial += piece;
  }

  #commit(): void {
    const line = this.#finish(this.#partial, this.#partialCut);
    this.#partial = '';
    this.#partialCut = false;
    this.#lines.push(line);
    if (this.#lines.length > this.#maxLines) {
      this.#lines.splice(0, this.#lines.length - this.#maxLines);
      this.#dropped++;
    }
  }

  #finish(line: string, cut: boolean): string {
    const clean = line.replace(/\r$/, '');
    return cut ? `${clean}…` : clean;
  }
}
