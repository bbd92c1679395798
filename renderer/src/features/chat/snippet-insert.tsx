import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { PromptVariablesForm } from '../../components/prompt-variables-form';
import { useT } from '../../i18n/i18n';
import { failureOf, useMainMessageText } from '../../lib/errors';
import type { Answer } from '../../lib/relay-bridge';
import { readSnippets, watchPrompts } from './chat-actions';
import {
  getMcpPrompt,
  promptText,
  readMcpPrompts,
  watchMcpLists,
  type McpPrompt,
  type McpPromptList,
} from './tools/mcp-lists';

type Snippet = Answer<'listPrompts'>[number];

/** A server's prompts in the `/` list: being read, read (maybe with its problem), or unread. */
type PromptGroup =
  | { id: string; status: 'reading' }
  | { id: string; status: 'read'; list: McpPromptList }
  | { id: string; status: 'failed'; message: string };

/** An entry of the `/` list: a snippet, or a prompt of a server. */
type Choice =
  | { kind: 'snippet'; snippet: Snippet }
  | { kind: 'prompt'; serverId: string; serverName: string; prompt: McpPrompt };

/** Prompts whose name, title or description has every typed word. */
export function matchPrompts(prompts: readonly McpPrompt[], query: string): McpPrompt[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return prompts.filter((p) => {
    const haystack = `${p.name} ${p.title ?? ''} ${p.description}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

/** How many snippets the `/` list shows at once. */
const SHOWN = 8;

/** What `/` at the start of the message box is filtering by: the rest of the first line. */
export function snippetQuery(text: string): string | undefined {
  if (!text.startsWith('/') || text.includes('\n')) return undefined;
  return text.slice(1);
}

/** Snippets whose name (or a tag) has every typed word, names starting with it first. */
export function matchSnippets(snippets: readonly Snippet[], query: string): Snippet[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = snippets.filter((s) => {
    const haystack = `${s.name} ${s.tags.join(' ')}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
  const q = query.trim().toLowerCase();
  return matching
    .map((s, i) => ({ s, i, starts: q !== '' && s.name.toLowerCase().startsWith(q) }))
    .sort((a, b) => Number(b.starts) - Number(a.starts) || a.i - b.i)
    .map(({ s }) => s);
}

/**
 * Quick insert: typing `/` at the start of the message box lists the saved snippets, filtered
 * as you type; ↑ and ↓ choose, Enter (or a click) inserts, Escape closes the list. A snippet with
 * `{{variables}}` asks for their values first, with a preview. The composer renders `element`
 * above its message box and lets `onKeyDown` see keys first.
 *
 * The prompts of the conversation's MCP servers (the header's Tools chip) follow, a group a
 * server under its name, read each time the list opens (a server starts then if it is not
 * running; one that would not start says why in its group). A prompt with arguments asks for
 * them first (the required ones marked); its messages' text then goes into the box.
 */
export function useSnippetInsert({
  text,
  setText,
  input,
  serverIds = [],
}: {
  text: string;
  setText(text: string): void;
  input: RefObject<HTMLTextAreaElement | null>;
  /** The MCP servers whose prompts are offered. */
  serverIds?: readonly string[];
}) {
  const mainText = useMainMessageText();
  const t = useT();
  const listId = useId();
  const [snippets, setSnippets] = useState<Snippet[] | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | undefined>();
  const [filling, setFilling] = useState<Snippet | undefined>();
  const [asking, setAsking] = useState<Extract<Choice, { kind: 'prompt' }> | undefined>();
  const [groups, setGroups] = useState<PromptGroup[]>([]);
  const [getting, setGetting] = useState<{ name: string; failure?: string } | undefined>();
  const loading = useRef(false);

  const query = snippetQuery(text);
  const open =
    query !== undefined && dismissed !== text && filling === undefined && asking === undefined;
  const serversKey = serverIds.join('\n');

  // Each time the list opens (and when a server says its prompts changed), the servers' prompts
  // are read again: main keeps them while a server runs, so this is quick.
  const [listChanges, setListChanges] = useState(0);
  useEffect(
    () =>
      watchMcpLists((id, list) => {
        if (list === 'prompts' && serversKey.split('\n').includes(id)) setListChanges((n) => n + 1);
      }),
    [serversKey],
  );
  useEffect(() => {
    if (!open || serversKey === '') {
      if (!open) setGetting(undefined);
      return;
    }
    let current = true;
    const ids = serversKey.split('\n');
    setGroups((old) =>
      ids.map(
        (id) => old.find((g) => g.id === id && g.status === 'read') ?? { id, status: 'reading' },
      ),
    );
    for (const id of ids)
      void readMcpPrompts(id).then((outcome) => {
        if (!current) return;
        const group: PromptGroup = outcome.ok
          ? { id, status: 'read', list: outcome.value }
          : { id, status: 'failed', message: outcome.failure.message };
        setGroups((old) => old.map((g) => (g.id === id ? group : g)));
      });
    return () => {
      current = false;
    };
  }, [open, serversKey, listChanges]);

  useEffect(() => {
    // Read when the composer appears (its placeholder mentions `/` when there are snippets) and
    // again after each change of the library.
    if (snippets !== undefined || loading.current) return;
    const reading = readSnippets();
    if (!reading) return;
    loading.current = true;
    reading.then(
      (list) => {
        setSnippets(list);
        setFailure(undefined);
        loading.current = false;
      },
      (error: unknown) => {
        setFailure(failureOf(error).message);
        loading.current = false;
      },
    );
  }, [open, snippets]);

  // The library changed: read it again the next time the list opens.
  useEffect(() => watchPrompts(() => setSnippets(undefined)), []);

  const shownSnippets =
    open && snippets ? matchSnippets(snippets, query ?? '').slice(0, SHOWN) : [];
  const shownGroups = open && serversKey !== '' ? groups : [];
  const promptChoices = (group: PromptGroup): Extract<Choice, { kind: 'prompt' }>[] =>
    group.status === 'read'
      ? matchPrompts(group.list.prompts, query ?? '')
          .slice(0, SHOWN)
          .map((prompt) => ({
            kind: 'prompt',
            serverId: group.id,
            serverName: group.list.name,
            prompt,
          }))
      : [];
  const shown: Choice[] = [
    ...shownSnippets.map((snippet): Choice => ({ kind: 'snippet', snippet })),
    ...shownGroups.flatMap(promptChoices),
  ];
  useEffect(() => setActive(0), [query]);

  function insert(choice: Choice) {
    if (choice.kind === 'prompt') {
      if (choice.prompt.arguments.length > 0) setAsking(choice);
      else void applyPrompt(choice, {});
      return;
    }
    const snippet = choice.snippet;
    if (snippet.variables.length > 0) {
      setFilling(snippet);
      return;
    }
    place(snippet.text);
  }

  /** Gets the prompt's messages from its server and puts their text in the box. */
  async function applyPrompt(
    choice: Extract<Choice, { kind: 'prompt' }>,
    values: Record<string, string>,
  ) {
    const name = choice.prompt.title ?? choice.prompt.name;
    setGetting({ name });
    const outcome = await getMcpPrompt(choice.serverId, choice.prompt.name, values);
    if (!outcome.ok) {
      setGetting({ name, failure: outcome.failure.message });
      return;
    }
    setGetting(undefined);
    setAsking(undefined);
    place(promptText(outcome.value.messages));
  }

  function place(filled: string) {
    setFilling(undefined);
    setAsking(undefined);
    setText(filled);
    requestAnimationFrame(() => {
      const box = input.current;
      if (!box) return;
      box.focus();
      box.setSelectionRange(filled.length, filled.length);
    });
  }

  /** True when the key was the list's (the composer then leaves it alone). */
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean {
    if (!open || event.nativeEvent.isComposing) return false;
    if (event.key === 'Escape') {
      event.preventDefault();
      setDismissed(text);
      return true;
    }
    if (shown.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + shown.length) % shown.length);
      return true;
    }
    if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
      event.preventDefault();
      const chosen = shown[Math.min(active, shown.length - 1)];
      if (chosen) insert(chosen);
      return true;
    }
    return false;
  }

  const activeId = shown.length > 0 ? `${listId}-${Math.min(active, shown.length - 1)}` : undefined;
  const gettingNote = getting && (
    <p
      className={getting.failure ? 'field-error' : 'muted'}
      role={getting.failure ? 'alert' : 'status'}
    >
      {getting.failure ? (
        <>
          {t('chat.mcpPrompts.notGot', { name: getting.name })}{' '}
          <span data-source="main">{getting.failure}</span>
        </>
      ) : (
        t('chat.mcpPrompts.getting', { name: getting.name })
      )}
    </p>
  );
  let index = -1;
  const option = (choice: Choice, key: string, name: string, description: string) => {
    index += 1;
    const at = index;
    return (
      <li
        key={key}
        id={`${listId}-${at}`}
        role="option"
        aria-selected={at === active}
        className="snippet-option"
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => insert(choice)}
      >
        <span className="snippet-name">{name}</span>
        {description && <span className="snippet-description muted">{description}</span>}
      </li>
    );
  };
  const element = asking ? (
    <div className="snippet-fill">
      <PromptVariablesForm
        name={t('chat.mcpPrompts.formTitle', {
          name: asking.prompt.title ?? asking.prompt.name,
          server: asking.serverName,
        })}
        text=""
        preview={false}
        variables={asking.prompt.arguments.map((a) => ({
          name: a.name,
          defaultValue: '',
          required: a.required,
        }))}
        hints={Object.fromEntries(asking.prompt.arguments.map((a) => [a.name, a.description]))}
        submitLabel={t('chat.snippets.insert')}
        busy={getting !== undefined && getting.failure === undefined}
        onSubmit={(_filled, values) => void applyPrompt(asking, values)}
        onCancel={() => {
          setAsking(undefined);
          setGetting(undefined);
          input.current?.focus();
        }}
      />
      {gettingNote}
    </div>
  ) : filling ? (
    <div className="snippet-fill">
      <PromptVariablesForm
        name={t('chat.snippets.insertNamed', { name: filling.name })}
        text={filling.text}
        variables={filling.variables}
        submitLabel={t('chat.snippets.insert')}
        onSubmit={(filled) => place(filled)}
        onCancel={() => {
          setFilling(undefined);
          input.current?.focus();
        }}
      />
    </div>
  ) : open ? (
    <div className="snippet-menu">
      {failure ? (
        <p className="field-error">
          {t('chat.snippets.unreadable')} <span data-source="main">{failure}</span>
        </p>
      ) : snippets === undefined ? (
        <p className="muted">{t('chat.snippets.reading')}</p>
      ) : shown.length === 0 &&
        !shownGroups.some((g) => g.status !== 'read' || g.list.problem !== null) ? (
        <p className="muted">
          {snippets.length === 0
            ? t('chat.snippets.none')
            : t('chat.snippets.noMatch', { query: query ?? '' })}
        </p>
      ) : null}
      {shown.length > 0 && (
        <div role="listbox" id={listId} aria-label={t('chat.snippets')}>
          {shownSnippets.length > 0 && (
            <ul className="snippet-list" role="group" aria-label={t('chat.snippets')}>
              {shown
                .filter((choice) => choice.kind === 'snippet')
                .map((choice) =>
                  option(
                    choice,
                    choice.snippet.id,
                    choice.snippet.name,
                    choice.snippet.description,
                  ),
                )}
            </ul>
          )}
          {shownGroups.map((group) => {
            const choices = promptChoices(group);
            if (group.status !== 'read' || choices.length === 0) return null;
            const label = t('chat.mcpPrompts.group', { server: group.list.name });
            return (
              <ul
                key={group.id}
                className="snippet-list"
                role="group"
                aria-label={label}
                data-server={group.id}
              >
                <li className="snippet-group-name muted" role="presentation" aria-hidden="true">
                  {label}
                </li>
                {choices.map((choice) =>
                  option(
                    choice,
                    `${group.id}:${choice.prompt.name}`,
                    choice.prompt.title ?? choice.prompt.name,
                    choice.prompt.description,
                  ),
                )}
              </ul>
            );
          })}
        </div>
      )}
      {shownGroups.map((group) =>
        group.status === 'reading' ? (
          <p key={group.id} className="muted" role="status">
            {t('chat.mcpPrompts.reading')}
          </p>
        ) : group.status === 'failed' ? (
          <p key={group.id} className="field-error">
            {t('chat.mcpPrompts.unread')} <span data-source="main">{group.message}</span>
          </p>
        ) : group.list.problem ? (
          <p key={group.id} className="field-error">
            {t('chat.mcpPrompts.failed', { server: group.list.name })}{' '}
            <span data-source="main">{mainText(group.list.problem)}</span>
          </p>
        ) : null,
      )}
      {gettingNote}
    </div>
  ) : null;

  return {
    element,
    onKeyDown,
    /** The library has snippets: the message box says that `/` lists them. */
    hasSnippets: (snippets?.length ?? 0) > 0,
    /** For the message box: the list it controls and the option chosen in it. */
    inputProps: open
      ? {
          role: 'combobox' as const,
          'aria-expanded': shown.length > 0,
          'aria-controls': listId,
          'aria-autocomplete': 'list' as const,
          ...(activeId ? { 'aria-activedescendant': activeId } : {}),
        }
      : {},
  };
}
