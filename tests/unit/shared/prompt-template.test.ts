import { describe, expect, it } from 'vitest';
import {
  checkTemplate,
  fillTemplate,
  MAX_VARIABLES,
  missingValues,
} from '../../../electron/shared/prompt-template';

describe('prompt variables', () => {
  it('reads required, defaulted and optional placeholders, each name once', () => {
    const checked = checkTemplate(
      'Write {{ tone = friendly }} notes on {{topic}} for {{topic}}. {{notes?}}',
    );
    expect(checked).toEqual({
      ok: true,
      variables: [
        { name: 'tone', defaultValue: 'friendly', required: true },
        { name: 'topic', defaultValue: '', required: true },
        { name: 'notes', defaultValue: '', required: false },
      ],
    });
  });

  it('takes text without placeholders, and single braces as text', () => {
    expect(checkTemplate('const x = { a: 1 };')).toEqual({ ok: true, variables: [] });
  });

  it.each([
    ['Hello {{name', 'The {{ at line 1, column 7 is not closed with }}.'],
    ['Hello name}}', 'A closing }} at line 1, column 11 has no opening {{ before it.'],
    ['a\n{{ {{x}}', 'The {{ at line 2, column 1 is not closed with }}.'],
    ['{{}}', 'The placeholder at line 1, column 1 has no name: write it like {{topic}}.'],
    ['{{=x}}', 'The placeholder at line 1, column 1 has no name: write it like {{topic}}.'],
  ])('refuses unbalanced or empty braces by position: %j', (text, message) => {
    expect(checkTemplate(text)).toMatchObject({ ok: false, message });
  });

  it('refuses a name that is not a name', () => {
    const checked = checkTemplate('Hi {{first name}}');
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.message).toMatch(
      /"first name" at line 1, column 4 is not a variable name/,
    );
    expect(checkTemplate('{{1st}}').ok).toBe(false);
    expect(checkTemplate(`{{${'a'.repeat(41)}}}`).ok).toBe(false);
  });

  it('refuses two different defaults for one variable, and too many variables', () => {
    expect(checkTemplate('{{a=1}} {{a=2}}')).toMatchObject({
      ok: false,
      message: '{{a}} has two different defaults ("1" and "2"); give it one.',
    });
    expect(checkTemplate('{{a=1}} {{a=1}} {{a}}').ok).toBe(true);
    const many = Array.from({ length: MAX_VARIABLES + 1 }, (_, i) => `{{v${i}}}`).join(' ');
    expect(checkTemplate(many)).toMatchObject({ ok: false });
  });

  it('fills values and defaults, and never reads a value as a placeholder', () => {
    const text = 'Dear {{name}}, in {{tone=plain}} words: {{extra?}}.';
    expect(fillTemplate(text, { name: 'Ada {{tone}}', extra: 'x' })).toBe(
      'Dear Ada {{tone}}, in plain words: x.',
    );
    expect(fillTemplate(text, { name: 'Ada', tone: 'kind', extra: 'hi' })).toBe(
      'Dear Ada, in kind words: hi.',
    );
  });

  describe('an optional variable left empty', () => {
    it('drops its line when the rest of the line is a label', () => {
      const text = 'Bug: {{title}}\nSeverity: {{severity?}}.\n- **Area:** {{area?}}\nThanks.';
      expect(fillTemplate(text, { title: 'Crash' })).toBe('Bug: Crash\nThanks.');
      expect(fillTemplate(text, { title: 'Crash', severity: ' ' })).toBe('Bug: Crash\nThanks.');
      expect(fillTemplate(text, { title: 'Crash', severity: 'high', area: 'UI' })).toBe(
        'Bug: Crash\nSeverity: high.\n- **Area:** UI\nThanks.',
      );
      expect(fillTemplate('Notes: {{notes?}}', {})).toBe('');
    });

    it('drops the phrase it ends, from the last comma or semicolon', () => {
      const text = 'Dear {{name}}, in plain words: {{extra?}}.';
      expect(fillTemplate(text, { name: 'Ada' })).toBe('Dear Ada.');
      expect(fillTemplate('Summarise {{text}}; focus: {{focus?}}', { text: 'it' })).toBe(
        'Summarise it',
      );
    });

    it('drops itself and one space beside it, never leaving a double space', () => {
      expect(fillTemplate('Write a {{style?}} poem about {{topic}}.', { topic: 'rain' })).toBe(
        'Write a poem about rain.',
      );
      expect(fillTemplate('About {{topic}} {{detail?}}.', { topic: 'rain' })).toBe('About rain.');
      expect(fillTemplate('Rain ({{note?}})', {})).toBe('Rain ()');
      expect(fillTemplate('({{note?}})', {})).toBe('');
    });

    it('keeps a line whose label has a value, and other lines as they are', () => {
      const text = 'Severity: {{severity?=low}}.\n\nEnd';
      expect(fillTemplate(text, {})).toBe('Severity: low.\n\nEnd');
      expect(fillTemplate(text, { severity: '' })).toBe('\nEnd');
    });
  });

  it('names the required fields left empty', () => {
    const checked = checkTemplate('{{a}} {{b=x}} {{c?}}');
    if (!checked.ok) throw new Error(checked.message);
    expect(missingValues(checked.variables, {})).toEqual(['a']);
    expect(missingValues(checked.variables, { a: ' ', b: '' })).toEqual(['a', 'b']);
    expect(missingValues(checked.variables, { a: 'y' })).toEqual([]);
  });
});
