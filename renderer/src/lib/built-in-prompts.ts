/**
 * The app's built-in prompts in the person's language.
 *
 * Main keeps a built-in prompt as the app shipped it (in English) and marks it `asShipped` until
 * the person changes it. While it is as shipped, the page shows its name, description, text and
 * starter messages from the `prompts` catalogue, in the language shown, and starts chats with
 * that text; the variables keep their English names (the template's syntax), with their labels
 * and defaults translated. Once edited, a built-in prompt is the person's own and shows as they
 * wrote it. The `prompts` namespace must be loaded where these are shown.
 */
import type { Prompt as SharedPrompt } from '../../../electron/shared/ipc/routes/prompts';
import { templateVariables } from '../../../electron/shared/prompt-template';
import { t, type MessageKey } from '../i18n/i18n';

type Prompt = Pick<
  SharedPrompt,
  'asShipped' | 'name' | 'description' | 'text' | 'starters' | 'variables'
>;

interface BuiltInKeys {
  name: MessageKey;
  description: MessageKey;
  text: MessageKey;
  starters: MessageKey[];
  /** The label of each variable, by its name in the text. */
  variables: Record<string, MessageKey>;
}

/** The catalogue keys of each built-in prompt, by its key in main (`services/prompts/builtins.ts`). */
export const BUILT_IN_PROMPT_KEYS: Record<string, BuiltInKeys> = {
  'writing-editor': {
    name: 'prompts.builtin.writing-editor.name',
    description: 'prompts.builtin.writing-editor.description',
    text: 'prompts.builtin.writing-editor.text',
    starters: [
      'prompts.builtin.writing-editor.starter1',
      'prompts.builtin.writing-editor.starter2',
    ],
    variables: { language: 'prompts.builtin.writing-editor.var.language' },
  },
  'code-reviewer': {
    name: 'prompts.builtin.code-reviewer.name',
    description: 'prompts.builtin.code-reviewer.description',
    text: 'prompts.builtin.code-reviewer.text',
    starters: ['prompts.builtin.code-reviewer.starter1'],
    variables: { language: 'prompts.builtin.code-reviewer.var.language' },
  },
  explainer: {
    name: 'prompts.builtin.explainer.name',
    description: 'prompts.builtin.explainer.description',
    text: 'prompts.builtin.explainer.text',
    starters: ['prompts.builtin.explainer.starter1', 'prompts.builtin.explainer.starter2'],
    variables: { audience: 'prompts.builtin.explainer.var.audience' },
  },
  summarize: {
    name: 'prompts.builtin.summarize.name',
    description: 'prompts.builtin.summarize.description',
    text: 'prompts.builtin.summarize.text',
    starters: [],
    variables: { length: 'prompts.builtin.summarize.var.length' },
  },
  translate: {
    name: 'prompts.builtin.translate.name',
    description: 'prompts.builtin.translate.description',
    text: 'prompts.builtin.translate.text',
    starters: [],
    variables: { target: 'prompts.builtin.translate.var.target' },
  },
};

const sameNames = (a: Prompt['variables'], b: Prompt['variables']) =>
  a.length === b.length && a.every((v, i) => v.name === b[i]?.name && v.required === b[i].required);

/** A prompt as the page shows and uses it: a built-in one as shipped, in the language shown. */
export function shownPrompt<P extends Prompt>(prompt: P): P {
  const keys = prompt.asShipped === null ? undefined : BUILT_IN_PROMPT_KEYS[prompt.asShipped];
  if (!keys) return prompt;
  const text = t(keys.text);
  const variables = templateVariables(text);
  // A translation that lost or renamed a variable is not used: the shipped text is.
  const usable = sameNames(variables, prompt.variables);
  return {
    ...prompt,
    name: t(keys.name),
    description: t(keys.description),
    text: usable ? text : prompt.text,
    variables: usable ? variables : prompt.variables,
    starters: keys.starters.map((key) => t(key)),
  };
}

/** The labels of a shipped built-in prompt's variables, in the language shown (else the names). */
export function variableLabels(prompt: Prompt): Record<string, string> {
  const keys = prompt.asShipped === null ? undefined : BUILT_IN_PROMPT_KEYS[prompt.asShipped];
  return Object.fromEntries(
    prompt.variables.map((v) => {
      const key = keys?.variables[v.name];
      return [v.name, key ? t(key) : v.name];
    }),
  );
}

/** Whether a prompt as shown has every word of `query` in its name, description, tags or text. */
export function promptMatches(
  prompt: Prompt & Pick<SharedPrompt, 'tags'>,
  query: string,
  locale: string,
): boolean {
  const haystack = [prompt.name, prompt.description, prompt.tags.join(' '), prompt.text]
    .join('\n')
    .toLocaleLowerCase(locale);
  return query
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 20)
    .every((word) => haystack.includes(word.toLocaleLowerCase(locale)));
}
