/**
 * The pseudo-language of the tests (`en-XA`), made from the compiled English catalogue: every
 * letter accented and each message padded to about 140% of its length, placeholders, plural
 * choices and `#` left as they are. A word the page shows unaccented did not come from a catalogue.
 */
import type { Messages } from '@lingui/core';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [
    letter,
    [...'åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][index]!,
  ]),
);

/** One piece of text: accented, and padded with `~` by 40% of its letters. */
export function pseudoText(text: string): string {
  const accented = [...text].map((char) => ACCENTED[char] ?? char).join('');
  const letters = [...text].filter((char) => char in ACCENTED).length;
  return letters === 0 ? accented : accented + '·'.repeat(Math.ceil(letters * 0.4));
}

type Token = string | [string, string?, unknown?];

/** An uncompiled ICU message (in development only): the text outside braces. */
function pseudoSource(message: string): string {
  let depth = 0;
  return message.replace(/[{}]|[^{}]+/g, (part) => {
    if (part === '{') depth += 1;
    else if (part === '}') depth -= 1;
    else if (depth === 0) return pseudoText(part);
    return part;
  });
}

function pseudoMessage(message: unknown): unknown {
  if (typeof message === 'string') return pseudoSource(message);
  if (!Array.isArray(message)) return message;
  return (message as Token[]).map((token) => {
    if (typeof token === 'string') return token === '#' ? token : pseudoText(token);
    const [name, type, format] = token;
    if (format && typeof format === 'object') {
      const choices = Object.fromEntries(
        Object.entries(format).map(([choice, value]) => [
          choice,
          choice === 'offset' ? value : pseudoMessage(value),
        ]),
      );
      return [name, type, choices];
    }
    return token;
  });
}

export function pseudoCatalogue(english: Messages): Messages {
  return Object.fromEntries(
    Object.entries(english).map(([key, message]) => [key, pseudoMessage(message)]),
  ) as Messages;
}
