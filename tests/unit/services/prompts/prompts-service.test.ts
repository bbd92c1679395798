import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROMPT_FILE_FORMAT } from '../../../../electron/shared/ipc/routes/prompts';
import { AppError } from '../../../../electron/main/services/app-error';
import { openDatabase, type Db } from '../../../../electron/main/services/database';
import { BUILT_IN_PROMPTS } from '../../../../electron/main/services/prompts/builtins';
import {
  PromptsService,
  type PromptDialogs,
} from '../../../../electron/main/services/prompts/prompts-service';
import { errorText } from '../../../../electron/main/services/words';
import type { ErrorMessageKey, MessageValues } from '../../../../electron/shared/messages/keys';

let db: Db;
let dir: string;
let changes: number;
let savePath: string | undefined;
let openPaths: string[];
let prompts: PromptsService;

const dialogs: PromptDialogs = {
  chooseSavePath: async () => savePath,
  chooseOpenPaths: async () => openPaths,
};

beforeEach(async () => {
  db = await openDatabase({ path: ':memory:' });
  dir = await mkdtemp(join(tmpdir(), 'relay-prompts-'));
  changes = 0;
  savePath = undefined;
  openPaths = [];
  let tick = 0;
  prompts = await PromptsService.open({
    db,
    dialogs,
    onChange: () => (changes += 1),
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  });
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

function refusal(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const snippet = { kind: 'snippet', name: 'Greet', text: 'Hello {{name}}, {{tone=warm}} regards' };

describe('prompt library', () => {
  it('starts with the built-in prompts, each valid', () => {
    const all = prompts.list();
    expect(all).toHaveLength(BUILT_IN_PROMPTS.length);
    expect(all.every((p) => p.builtIn && !p.hidden)).toBe(true);
    expect(all.map((p) => p.name)).toContain('Code reviewer');
  });

  it('creates, reads, updates and deletes a prompt, with its variables and timestamps', () => {
    const made = prompts.create({ ...snippet, tags: ['mail', 'mail', ' greet '] });
    expect(made).toMatchObject({
      kind: 'snippet',
      name: 'Greet',
      icon: '',
      tags: ['mail', 'greet'],
      builtIn: false,
      variables: [
        { name: 'name', defaultValue: '', required: true },
        { name: 'tone', defaultValue: 'warm', required: true },
      ],
    });
    expect(made.createdAt).toMatch(/^2026-01-01T00:00:0\d\.000Z$/);
    expect(made.updatedAt).toBe(made.createdAt);
    expect(changes).toBe(1);
    const edited = prompts.update(made.id, {
      kind: 'assistant',
      name: '  Greeter ',
      text: 'You greet people.',
      model: 'demo-chat',
      temperature: 0.3,
      maxTokens: 200,
      starters: ['Say hi'],
    });
    expect(edited).toMatchObject({
      name: 'Greeter',
      kind: 'assistant',
      model: 'demo-chat',
      temperature: 0.3,
      maxTokens: 200,
      starters: ['Say hi'],
      variables: [],
      createdAt: made.createdAt,
    });
    expect(edited.updatedAt > made.updatedAt).toBe(true);
    prompts.delete(made.id);
    expect(() => prompts.get(made.id)).toThrow('That prompt no longer exists.');
    expect(refusal(() => prompts.update(made.id, snippet)).kind).toBe('not_found');
  });

  it.each([
    [{ ...snippet, name: '   ' }, 'Name: Give the prompt a name.', 'name'],
    [{ ...snippet, text: '  \n' }, 'Prompt text: Write the prompt text.', 'text'],
    [
      { ...snippet, text: 'Hello {{name' },
      'Prompt text: The {{ at line 1, column 7 is not closed with }}.',
      'text',
    ],
    [
      { ...snippet, text: 'Hello {{two words}}' },
      'Prompt text: "two words" at line 1, column 7 is not a variable name: use a letter first, then letters, digits, _ or - (at most 40).',
      'text',
    ],
    [
      { ...snippet, text: 'x'.repeat(100_001) },
      'Prompt text: The prompt text is longer than 100,000 characters.',
      'text',
    ],
    [{ ...snippet, name: 'n'.repeat(121) }, 'Name: Keep the name to 120 characters.', 'name'],
    [
      { ...snippet, kind: 'mask' },
      'Kind: Choose whether this is an assistant or a snippet.',
      'kind',
    ],
    [
      { ...snippet, kind: 'assistant', temperature: 3 },
      'Temperature: temperature must be between 0 and 2',
      'temperature',
    ],
    [{ ...snippet, starters: ['Hi'] }, 'Starter messages: only an assistant has them.', 'starters'],
    [{ ...snippet, tags: [''] }, 'Tags: A tag cannot be empty.', 'tags'],
    [{ ...snippet, colour: 'red' }, 'A prompt has no field called colour.', undefined],
  ])('refuses a bad draft with a clear message and writes nothing: %#', (draft, message, param) => {
    const before = prompts.list({ includeHidden: true });
    const error = refusal(() => prompts.create(draft));
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toBe(message);
    expect(error.details.param).toBe(param);
    expect(prompts.list({ includeHidden: true })).toEqual(before);
    expect(changes).toBe(0);
  });

  it('searches names, descriptions, tags and text, every word, wildcards as text', () => {
    prompts.create({
      ...snippet,
      name: 'Release notes',
      description: 'For the changelog',
      tags: ['docs'],
    });
    prompts.create({ kind: 'snippet', name: '100% sure', text: 'Are you sure?' });
    expect(prompts.list({ query: 'changelog' }).map((p) => p.name)).toEqual(['Release notes']);
    expect(prompts.list({ query: 'DOCS release' }).map((p) => p.name)).toEqual(['Release notes']);
    expect(prompts.list({ query: 'regards notes' }).map((p) => p.name)).toEqual(['Release notes']);
    expect(prompts.list({ query: '%' }).map((p) => p.name)).toEqual(['100% sure']);
    expect(prompts.list({ query: 'nothing-like-this' })).toEqual([]);
    expect(prompts.list({ kind: 'assistant' }).every((p) => p.kind === 'assistant')).toBe(true);
  });

  it('hides a built-in prompt instead of deleting it, and shows it again', () => {
    const reviewer = prompts.list().find((p) => p.name === 'Code reviewer')!;
    prompts.delete(reviewer.id);
    expect(prompts.list().some((p) => p.id === reviewer.id)).toBe(false);
    expect(prompts.list({ includeHidden: true }).find((p) => p.id === reviewer.id)?.hidden).toBe(
      true,
    );
    expect(prompts.setHidden(reviewer.id, false).hidden).toBe(false);
    const edited = prompts.update(reviewer.id, {
      kind: 'assistant',
      name: 'My reviewer',
      text: 'Be brief.',
    });
    expect(edited).toMatchObject({ builtIn: true, name: 'My reviewer' });
  });

  it('marks a built-in prompt as shipped until the person changes it', () => {
    const shipped = (name: string) => prompts.list().find((p) => p.name === name)?.asShipped;
    expect(prompts.list().map((p) => p.asShipped)).toEqual(
      expect.arrayContaining(BUILT_IN_PROMPTS.map((b) => b.key)),
    );
    expect(prompts.create(snippet).asShipped).toBeNull();

    const reviewer = prompts.list().find((p) => p.asShipped === 'code-reviewer')!;
    // Hidden and shown again, it is still the app's own text.
    prompts.delete(reviewer.id);
    expect(prompts.setHidden(reviewer.id, false).asShipped).toBe('code-reviewer');
    // Saved unchanged from the editor: still as shipped.
    const { id, kind, name, icon, description, tags, text, model, temperature, maxTokens } =
      reviewer;
    const draft = { kind, name, icon, description, tags, text, model, temperature, maxTokens };
    expect(prompts.update(id, { ...draft, starters: reviewer.starters }).asShipped).toBe(
      'code-reviewer',
    );
    // Any change, even a starter message, makes it the person's own.
    expect(prompts.update(id, { ...draft, starters: ['Review this:'] }).asShipped).toBeNull();
    expect(shipped('Code reviewer')).toBeNull();
    expect(shipped('Writing editor')).toBe('writing-editor');
  });

  it('remembers the prompt a conversation came from, by its name once it is gone', () => {
    const made = prompts.create({ kind: 'assistant', name: 'Tutor', icon: '🎓', text: 'Teach.' });
    expect(prompts.conversationPrompt('c1')).toBeNull();
    prompts.linkConversation(made.id, 'c1');
    expect(prompts.conversationPrompt('c1')).toEqual({
      promptId: made.id,
      name: 'Tutor',
      icon: '🎓',
    });
    prompts.delete(made.id);
    expect(prompts.conversationPrompt('c1')).toEqual({ promptId: null, name: 'Tutor', icon: '🎓' });
    expect(refusal(() => prompts.linkConversation(made.id, 'c2')).kind).toBe('not_found');
  });
});

describe('prompt library files', () => {
  it('exports the person’s prompts and imports them into another library, once', async () => {
    prompts.create(snippet);
    prompts.create({
      kind: 'assistant',
      name: 'Tutor',
      text: 'Teach {{subject}}.',
      starters: ['Start'],
    });
    savePath = join(dir, 'library.json');
    expect(await prompts.exportToFile()).toEqual({ saved: true, path: savePath, count: 2 });
    const file = JSON.parse(await readFile(savePath, 'utf8'));
    expect(file).toMatchObject({ format: PROMPT_FILE_FORMAT, version: 1 });
    expect(file.prompts.map((p: { name: string }) => p.name)).toEqual(['Greet', 'Tutor']);

    const other = await openDatabase({ path: ':memory:' });
    try {
      const target = await PromptsService.open({ db: other, dialogs });
      openPaths = [savePath];
      expect(await target.importFromFile()).toEqual({
        chosen: true,
        added: 2,
        duplicates: 0,
        refused: [],
      });
      expect(await target.importFromFile()).toEqual({
        chosen: true,
        added: 0,
        duplicates: 2,
        refused: [],
      });
      expect(target.list({ query: 'Tutor' })[0]).toMatchObject({
        starters: ['Start'],
        builtIn: false,
      });
    } finally {
      other.close();
    }
  });

  it('cancelled dialogs change nothing', async () => {
    expect(await prompts.exportToFile()).toEqual({ saved: false, count: 0 });
    expect(await prompts.importFromFile()).toEqual({
      chosen: false,
      added: 0,
      duplicates: 0,
      refused: [],
    });
  });

  it('refuses bad entries by name and imports the good ones', async () => {
    const path = join(dir, 'mixed.json');
    await writeFile(
      path,
      JSON.stringify({
        format: PROMPT_FILE_FORMAT,
        version: 1,
        prompts: [
          { kind: 'snippet', name: 'Good one', text: 'Fine {{x}}' },
          { kind: 'snippet', name: 'Broken braces', text: 'Oops {{x' },
          { kind: 'snippet', name: '', text: 'No name' },
          'just a string',
          { kind: 'snippet', name: 'Extra', text: 'x', evil: true },
          { kind: 'snippet', name: 'Snippet with starters', text: 'x', starters: ['a'] },
        ],
      }),
    );
    openPaths = [path];
    const result = await prompts.importFromFile();
    expect(result).toEqual({
      chosen: true,
      added: 1,
      duplicates: 0,
      refused: [
        {
          entry: '“Broken braces” (entry 2)',
          entryId: 'import.prompts.entryNamed',
          entryValues: { name: 'Broken braces', index: 2 },
          reason: 'text: The {{ at line 1, column 6 is not closed with }}.',
          messageId: 'import.prompts.fieldProblem',
          values: {
            field: 'text',
            // The template's own problem, by its key, so the page says it in its language.
            detail: { id: 'form.prompts.template.unclosed', values: { line: 1, column: 6 } },
          },
        },
        {
          entry: 'entry 3',
          entryId: 'import.prompts.entry',
          entryValues: { index: 3 },
          reason: 'name: Give the prompt a name.',
          // The schema's own words inside, by their key.
          messageId: 'import.prompts.fieldProblem',
          values: { field: 'name', detail: { id: 'form.prompts.name' } },
        },
        {
          entry: 'entry 4',
          entryId: 'import.prompts.entry',
          entryValues: { index: 4 },
          reason: 'it is not a prompt (an object with a name and text).',
          messageId: 'import.prompts.notAPrompt',
        },
        {
          entry: '“Extra” (entry 5)',
          entryId: 'import.prompts.entryNamed',
          entryValues: { name: 'Extra', index: 5 },
          reason: 'it has a field the library does not know: evil.',
          messageId: 'import.prompts.unknownField',
          values: { fields: 'evil' },
        },
        {
          entry: '“Snippet with starters” (entry 6)',
          entryId: 'import.prompts.entryNamed',
          entryValues: { name: 'Snippet with starters', index: 6 },
          reason: 'starters: only an assistant has starter messages.',
          messageId: 'import.prompts.startersAssistantOnly',
        },
      ],
    });
    const [, third] = result.refused;
    expect(
      errorText('de', third!.entryId as ErrorMessageKey, third!.entryValues as MessageValues),
    ).toBe('Eintrag 3');
    expect(
      errorText('de', third!.messageId as ErrorMessageKey, third!.values as MessageValues),
    ).toBe('name: Geben Sie dem Prompt einen Namen.');
    expect(prompts.list({ query: 'Good one' })).toHaveLength(1);
  });

  it.each([
    ['not json {', /^bad\.json is not a JSON file \(.+\)\. Nothing was imported\.$/],
    [JSON.stringify({ prompts: [] }), /bad\.json is not a Relay Desktop prompt library/],
    [
      JSON.stringify({ format: PROMPT_FILE_FORMAT, version: 9, prompts: [] }),
      /written by a newer version of Relay Desktop \(library format 9\)/,
    ],
  ])('refuses a file that is not a library as a whole: %j', async (text, message) => {
    const path = join(dir, 'bad.json');
    await writeFile(path, text);
    openPaths = [path];
    const before = prompts.list({ includeHidden: true });
    await expect(prompts.importFromFile()).rejects.toThrow(message);
    expect(prompts.list({ includeHidden: true })).toEqual(before);
  });

  it('refuses a file that is gone or too large, by name', async () => {
    openPaths = [join(dir, 'gone.json')];
    await expect(prompts.importFromFile()).rejects.toThrow(
      'gone.json could not be read (ENOENT). Nothing was imported.',
    );
    const big = join(dir, 'big.json');
    await writeFile(big, Buffer.alloc(10 * 1024 * 1024 + 1, 32));
    openPaths = [big];
    await expect(prompts.importFromFile()).rejects.toThrow(
      /big\.json is 10\.0 MB; a prompt library file can be at most 10 MB/,
    );
  });
});
