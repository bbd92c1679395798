/** A price list refused: the file's name and the reason in main's words, in the page's language. */
import { describe, expect, it } from 'vitest';
import { AppError, errorInfo } from '../../../electron/main/services/app-error';
import { parsePriceList } from '../../../electron/main/services/models/price-book';
import { errorText } from '../../../electron/main/services/words';

function refusalOf(text: string) {
  try {
    parsePriceList('prices.json', text);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return errorInfo(error)!;
  }
  throw new Error('the price list was taken');
}

describe('a price list that cannot be imported', () => {
  it('is refused by a key, naming where it is wrong', () => {
    const error = refusalOf(JSON.stringify({ 'model-a': { inputPerMillion: -1 } }));
    expect(error.messageId).toBe('import.prices.invalidAt');
    expect(error.values).toMatchObject({ name: 'prices.json', param: expect.any(String) });
    type Args = Parameters<typeof errorText>;
    expect(errorText('en', error.messageId as Args[1], error.values as Args[2])).toBe(
      error.message,
    );
    expect(errorText('de', error.messageId as Args[1], error.values as Args[2])).toContain(
      'kann nicht importiert werden',
    );
  });

  it('says a file that is no list at all is not a price list', () => {
    const error = refusalOf('[1, 2]');
    expect(error.message).toMatch(/^prices\.json cannot be imported: .*No price was changed\.$/);
    expect(error.messageId).toMatch(/^import\.prices\.invalid/);
  });
});
