/**
 * The conversation's request settings as typed in the composer: a temperature written with the
 * decimal comma most of Europe uses is the number meant, not a refusal; what is not a number
 * in range is refused with the message that says which field and why.
 */
import { describe, expect, it } from 'vitest';
import { readRequestFields } from '../../../renderer/src/features/chat/composer-fields';

describe('the request fields', () => {
  it('reads a temperature written with a decimal point or a decimal comma', () => {
    expect(readRequestFields({ temperature: '0.7', maxTokens: '' })).toEqual({
      ok: true,
      temperature: 0.7,
      maxTokens: null,
    });
    expect(readRequestFields({ temperature: '0,7', maxTokens: '' })).toEqual({
      ok: true,
      temperature: 0.7,
      maxTokens: null,
    });
    expect(readRequestFields({ temperature: ' 1,25 ', maxTokens: '300' })).toEqual({
      ok: true,
      temperature: 1.25,
      maxTokens: 300,
    });
  });

  it('refuses what is not a temperature from 0 to 2, or max tokens that are not a whole number', () => {
    for (const temperature of ['2,5', '0,7,1', '0.7.1', 'warm', '-1', ',']) {
      const read = readRequestFields({ temperature, maxTokens: '' });
      expect(read, temperature).toEqual({
        ok: false,
        errors: { temperature: 'chat.fields.temperature.invalid' },
      });
    }
    for (const maxTokens of ['0', '1.5', '1,000', 'lots']) {
      const read = readRequestFields({ temperature: '', maxTokens });
      expect(read, maxTokens).toEqual({
        ok: false,
        errors: { maxTokens: 'chat.fields.maxTokens.invalid' },
      });
    }
  });
});
