import { describe, expect, it } from 'vitest';
import { hideUnclosedMarkup } from '../../../renderer/src/features/chat/markdown/unclosed';

describe('hideUnclosedMarkup', () => {
  it('hides an emphasis until it closes, then leaves it alone', () => {
    expect(hideUnclosedMarkup('The **Longest')).toBe('The Longest');
    expect(hideUnclosedMarkup('The **Longest word** is')).toBe('The **Longest word** is');
    expect(hideUnclosedMarkup('An *open one')).toBe('An open one');
    expect(hideUnclosedMarkup('A ~~gone')).toBe('A gone');
    expect(hideUnclosedMarkup('Ends with **')).toBe('Ends with ');
  });

  it('hides an open code span, and ignores markers inside a closed one', () => {
    expect(hideUnclosedMarkup('Run `npm te')).toBe('Run npm te');
    expect(hideUnclosedMarkup('Use `a ** b` and **bold')).toBe('Use `a ** b` and bold');
  });

  it('keeps list bullets and snake_case as written', () => {
    expect(hideUnclosedMarkup('* one\n* two')).toBe('* one\n* two');
    expect(hideUnclosedMarkup('call my_function_name')).toBe('call my_function_name');
  });

  it('shows the code of an open fence, and waits for a half-written fence line', () => {
    expect(hideUnclosedMarkup('```ts\nconst a = "')).toBe('```ts\nconst a = "');
    expect(hideUnclosedMarkup('```ts\nconst a = 1;\n``')).toBe('```ts\nconst a = 1;\n');
    expect(hideUnclosedMarkup('Some text\n``')).toBe('Some text\n');
  });

  it('shows a half-written link as its text', () => {
    expect(hideUnclosedMarkup('See [the docs](https://exa')).toBe('See the docs');
    expect(hideUnclosedMarkup('See [the do')).toBe('See the do');
    expect(hideUnclosedMarkup('See [the docs](https://example.com).')).toBe(
      'See [the docs](https://example.com).',
    );
  });
});
