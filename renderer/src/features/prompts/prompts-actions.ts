import { t } from '../../i18n/i18n';
import { promptMatches, shownPrompt } from '../../lib/built-in-prompts';
import { failureOf } from '../../lib/errors';
import { requireBridge } from '../../lib/relay-bridge';
import { showSavedToast, showToast } from '../../lib/toasts';
import {
  EMPTY_FORM,
  usePromptsStore,
  type Prompt,
  type PromptDraft,
  type PromptForm,
  type PromptKind,
} from './prompts-store';

let loadSeq = 0;

/**
 * The library as the search and "Show hidden" ask for it. Main searches the person's prompts;
 * the built-in ones still as shipped are searched as the page shows them, in its language
 * (`visiblePrompts`), so all of them are read while a search is on.
 */
export async function loadPrompts(): Promise<void> {
  const { query, showHidden, status } = usePromptsStore.getState();
  const seq = ++loadSeq;
  if (status === 'idle') usePromptsStore.setState({ status: 'loading' });
  try {
    const bridge = requireBridge();
    const words = query.trim();
    const [matched, all] = await Promise.all([
      bridge.listPrompts({ ...(words ? { query: words } : {}), includeHidden: showHidden }),
      words ? bridge.listPrompts({ includeHidden: showHidden }) : undefined,
    ]);
    const prompts = all
      ? [...matched.filter((p) => p.asShipped === null), ...all.filter((p) => p.asShipped !== null)]
      : matched;
    if (seq === loadSeq) usePromptsStore.getState().loaded(prompts);
  } catch (error) {
    if (seq === loadSeq) usePromptsStore.getState().loadFailed(failureOf(error));
  }
}

/** Reloads the list whenever main says the library changed. */
export function watchPrompts(): () => void {
  return requireBridge().onPromptsChanged(() => void loadPrompts());
}

export function searchPrompts(query: string): void {
  usePromptsStore.getState().queryChanged(query);
  void loadPrompts();
}

export function showHiddenPrompts(show: boolean): void {
  usePromptsStore.getState().showHiddenChanged(show);
  void loadPrompts();
}

/**
 * The prompts the screen lists, as shown in `locale`: the built-in ones as shipped in that
 * language and kept only if they match `query`, all of them by name as the language sorts.
 */
export function visiblePrompts(
  prompts: readonly Prompt[],
  query: string,
  locale: string,
): Prompt[] {
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  return prompts
    .map(shownPrompt)
    .filter((p) => p.asShipped === null || promptMatches(p, query, locale))
    .sort((a, b) => collator.compare(a.name, b.name));
}

export function formOf(prompt: Prompt): PromptForm {
  return {
    kind: prompt.kind,
    name: prompt.name,
    icon: prompt.icon,
    description: prompt.description,
    tags: prompt.tags.join(', '),
    text: prompt.text,
    model: prompt.model ?? '',
    temperature: prompt.temperature?.toString() ?? '',
    maxTokens: prompt.maxTokens?.toString() ?? '',
    starters: prompt.starters.join('\n'),
  };
}

export function editPrompt(prompt: Prompt): void {
  usePromptsStore.getState().editStarted(prompt.id, formOf(prompt));
}

export function newPrompt(kind: PromptKind): void {
  usePromptsStore.getState().editStarted('new', { ...EMPTY_FORM, kind });
}

/** A number field: empty is none; anything else must read as a number, or it is said where. */
function numberField(
  value: string,
  field: 'temperature' | 'maxTokens',
): number | null | { error: string } {
  const text = value.trim();
  if (text === '') return null;
  const number = Number(text);
  if (!Number.isFinite(number))
    return {
      error: t(
        field === 'temperature' ? 'prompts.editor.badTemperature' : 'prompts.editor.badMaxTokens',
      ),
    };
  return number;
}

/** The draft main checks; the fields the person left empty are left out. */
export function draftOf(form: PromptForm): PromptDraft | { error: string; param: string } {
  const temperature = numberField(form.temperature, 'temperature');
  if (temperature !== null && typeof temperature === 'object')
    return { ...temperature, param: 'temperature' };
  const maxTokens = numberField(form.maxTokens, 'maxTokens');
  if (maxTokens !== null && typeof maxTokens === 'object')
    return { ...maxTokens, param: 'maxTokens' };
  const assistant = form.kind === 'assistant';
  return {
    kind: form.kind,
    name: form.name,
    icon: form.icon,
    description: form.description,
    tags: form.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    text: form.text,
    model: assistant && form.model.trim() ? form.model.trim() : null,
    temperature: assistant ? temperature : null,
    maxTokens: assistant ? maxTokens : null,
    starters: assistant
      ? form.starters
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
  };
}

/** Saves the editor's prompt; true when saved (the editor then closes). */
export async function savePrompt(): Promise<boolean> {
  const store = usePromptsStore.getState();
  const draft = draftOf(store.form);
  if ('error' in draft) {
    store.saveFailed({ kind: 'invalid_request', message: draft.error, param: draft.param });
    return false;
  }
  store.saveStarted();
  try {
    const bridge = requireBridge();
    const saved =
      store.editing === 'new' || store.editing === undefined
        ? await bridge.createPrompt(draft)
        : await bridge.updatePrompt({ id: store.editing, draft });
    usePromptsStore.getState().editClosed();
    showToast(t('prompts.toast.saved', { name: saved.name }));
    await loadPrompts();
    return true;
  } catch (error) {
    const param = (error as { param?: unknown }).param;
    usePromptsStore
      .getState()
      .saveFailed({ ...failureOf(error), param: typeof param === 'string' ? param : undefined });
    return false;
  }
}

/** Deletes one of the person's prompts, or hides a built-in one. */
export async function deletePrompt(prompt: Prompt): Promise<void> {
  try {
    await requireBridge().deletePrompt({ id: prompt.id });
    showToast(
      t(prompt.builtIn ? 'prompts.toast.hidden' : 'prompts.toast.deleted', { name: prompt.name }),
    );
    await loadPrompts();
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export async function setPromptHidden(prompt: Prompt, hidden: boolean): Promise<void> {
  try {
    await requireBridge().setPromptHidden({ id: prompt.id, hidden });
    await loadPrompts();
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export async function exportLibrary(includeBuiltIn: boolean): Promise<void> {
  try {
    const result = await requireBridge().exportPrompts({ includeBuiltIn });
    if (result.saved)
      showSavedToast(t('prompts.toast.exported', { count: result.count }), result.savedId);
  } catch (error) {
    showToast(failureOf(error).message, { tone: 'error' });
  }
}

export type ImportOutcome = Awaited<ReturnType<ReturnType<typeof requireBridge>['importPrompts']>>;

/** Imports a library file; the outcome (with every refused entry) for the screen to show. */
export async function importLibrary(): Promise<
  { ok: true; result: ImportOutcome } | { ok: false; message: string }
> {
  try {
    const result = await requireBridge().importPrompts(null);
    if (result.chosen) await loadPrompts();
    return { ok: true, result };
  } catch (error) {
    return { ok: false, message: failureOf(error).message };
  }
}

/**
 * Starts a conversation from an assistant: its filled system prompt, model and sampling, and the
 * link back to it. Answers the new conversation's id.
 */
export async function startChatFrom(prompt: Prompt, systemPrompt: string): Promise<string> {
  const bridge = requireBridge();
  // Without a model of its own, the chat takes the one chosen last (as a new chat does).
  const model =
    prompt.model ??
    (await bridge.listModels().then(
      (list) => list.lastModel.chat ?? list.models.find((m) => m.kind === 'chat')?.id,
      () => undefined,
    ));
  const conversation = await bridge.createConversation({
    title: prompt.name.slice(0, 200),
    systemPrompt,
    ...(model ? { model } : {}),
  });
  if (prompt.temperature !== null || prompt.maxTokens !== null) {
    await bridge.updateConversationSettings({
      id: conversation.id,
      ...(prompt.temperature !== null ? { temperature: prompt.temperature } : {}),
      ...(prompt.maxTokens !== null ? { maxTokens: prompt.maxTokens } : {}),
    });
  }
  await bridge.linkPromptConversation({ promptId: prompt.id, conversationId: conversation.id });
  return conversation.id;
}
