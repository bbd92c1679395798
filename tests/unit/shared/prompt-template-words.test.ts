/**
 * A prompt text's braces, when wrong, are said by key in main's catalogue with their positions
 * as values, so the Prompts screen says it in the person's language; the English the check keeps
 * is exactly the catalogue's.
 */
import { describe, expect, it } from 'vitest';
import { checkTemplate, MAX_VARIABLES } from '../../../electron/shared/prompt-template';
import { errorText } from '../../../electron/main/services/words';
import { promptDraftSchema } from '../../../electron/shared/ipc/routes/prompts';
import { issueWords } from '../../../electron/shared/messages/worded';

const WRONG = [
  'Hello {{name',
  'Hello name}}',
  '{{}}',
  'Hi {{first name}}',
  `{{a=${'x'.repeat(501)}}}`,
  Array.from({ length: MAX_VARIABLES + 1 }, (_, i) => `{{v${i}}}`).join(' '),
  '{{a=1}} {{a=2}}',
];

function refused(text: string) {
  const checked = checkTemplate(text);
  if (checked.ok) throw new Error(`${text} was accepted`);
  return checked;
}

describe('a prompt text’s braces, said by key', () => {
  it.each(WRONG)('keeps the catalogue’s English for %j', (text) => {
    const checked = refused(text);
    expect(checked.words.id).toMatch(/^form\.prompts\.template\./);
    expect(errorText('en', checked.words.id, checked.words.values)).toBe(checked.message);
  });

  it('says where and what in German and Japanese', () => {
    const unclosed = refused('Hallo\n  {{name').words;
    expect(errorText('de', unclosed.id, unclosed.values)).toBe(
      'Die {{ in Zeile 2, Spalte 3 wird nicht mit }} geschlossen.',
    );
    const twice = refused('{{a=1}} {{a=2}}').words;
    expect(errorText('ja', twice.id, twice.values)).toBe(
      '{{a}} に異なる既定値が 2 つあります（「1」と「2」）。1 つにしてください。',
    );
  });

  it('reaches the page with its key through the prompt form’s schema', () => {
    const parsed = promptDraftSchema.safeParse({ name: 'x', text: 'Hello {{name' });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((i) => i.path[0] === 'text')!;
    expect(issueWords(issue)).toEqual({
      id: 'form.prompts.template.unclosed',
      values: { line: 1, column: 7 },
    });
  });
});
