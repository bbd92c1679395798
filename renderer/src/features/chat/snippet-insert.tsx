import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { PromptVariablesForm } from '../../components/prompt-variables-form';
import { useT } from '../../i18n/i18n';
import { failureOf } from '../../lib/errors';
import type { Answer } from '../../lib/relay-bridge';
import { readSnippets, watchPrompts } from './chat-actions';

type Snippet = Answer<'listPrompts'>[number];

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
 */
export function useSnippetInsert({
  text,
  setText,
  input,
}: {
  text: string;
  setText(text: string): void;
  input: RefObject<HTMLTextAreaElement | null>;
}) {
  const t = useT();
  const listId = useId();
  const [snippets, setSnippets] = useState<Snippet[] | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | undefined>();
  const [filling, setFilling] = useState<Snippet | undefined>();
  const loading = useRef(false);

  const query = snippetQuery(text);
  const open = query !== undefined && dismissed !== text && filling === undefined;

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

  const shown = open && snippets ? matchSnippets(snippets, query ?? '').slice(0, SHOWN) : [];
  useEffect(() => setActive(0), [query]);

  function insert(snippet: Snippet) {
    if (snippet.variables.length > 0) {
      setFilling(snippet);
      return;
    }
    place(snippet.text);
  }

  function place(filled: string) {
    setFilling(undefined);
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
  const element = filling ? (
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
      ) : shown.length === 0 ? (
        <p className="muted">
          {snippets.length === 0
            ? t('chat.snippets.none')
            : t('chat.snippets.noMatch', { query: query ?? '' })}
        </p>
      ) : (
        <ul className="snippet-list" role="listbox" id={listId} aria-label={t('chat.snippets')}>
          {shown.map((snippet, index) => (
            <li
              key={snippet.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className="snippet-option"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => insert(snippet)}
            >
              <span className="snippet-name">{snippet.name}</span>
              {snippet.description && (
                <span className="snippet-description muted">{snippet.description}</span>
              )}
            </li>
          ))}
        </ul>
      )}
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
