/**
 * The settings form's tool fields: the largest tool result kept is read as a whole number of
 * characters from 1,000 to 1,000,000 and sent with the other tool settings; anything else is
 * refused with the field named and nothing sent.
 */
import { describe, expect, it } from 'vitest';
import {
  readSettingsFields,
  type SettingsFields,
} from '../../../renderer/src/features/settings/settings-form';

const FIELDS: SettingsFields = {
  temperature: '1',
  maxTokens: '',
  requestSeconds: '120',
  idleSeconds: '60',
  attachmentMb: '20',
  contextTokens: '128000',
  imageMaxSide: '1536',
  toolTokenBudget: '8000',
  toolMaxSteps: '10',
  toolMaxResultChars: '100000',
};

describe('the tool fields of the settings form', () => {
  it('sends the largest tool result with the budget and the steps', () => {
    const read = readSettingsFields({ ...FIELDS, toolMaxResultChars: ' 20000 ' });
    expect(read.ok && read.changes.tools).toEqual({
      tokenBudget: 8000,
      maxSteps: 10,
      maxResultChars: 20_000,
    });
  });

  it('refuses a largest result that is not a whole number from 1,000 to 1,000,000', () => {
    for (const text of ['999', '1000001', '', '12.5', '-5000', '10k']) {
      const read = readSettingsFields({ ...FIELDS, toolMaxResultChars: text });
      expect(read.ok, text).toBe(false);
      if (!read.ok) expect(Object.keys(read.errors)).toEqual(['toolMaxResultChars']);
    }
    expect(readSettingsFields({ ...FIELDS, toolMaxResultChars: '1000' }).ok).toBe(true);
    expect(readSettingsFields({ ...FIELDS, toolMaxResultChars: '1000000' }).ok).toBe(true);
  });
});
