import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { LoadStatus } from '../../lib/load-state';
import type { Answer, RelayBridge } from '../../lib/relay-bridge';

export type Prompt = Answer<'listPrompts'>[number];
export type PromptKind = Prompt['kind'];
export type PromptDraft = Parameters<RelayBridge['createPrompt']>[0];

/** The editor's fields as typed (numbers as text until saved). */
export interface PromptForm {
  kind: PromptKind;
  name: string;
  icon: string;
  description: string;
  tags: string;
  text: string;
  model: string;
  temperature: string;
  maxTokens: string;
  /** One starter message a line. */
  starters: string;
}

export const EMPTY_FORM: PromptForm = {
  kind: 'assistant',
  name: '',
  icon: '',
  description: '',
  tags: '',
  text: '',
  model: '',
  temperature: '',
  maxTokens: '',
  starters: '',
};

export interface PromptsState {
  prompts: Prompt[];
  status: LoadStatus;
  failure?: FailureInfo | undefined;
  query: string;
  showHidden: boolean;
  /** The prompt being edited: an id, 'new', or none. */
  editing?: string | undefined;
  form: PromptForm;
  /** Why the last save was refused, and the field at fault when main named one. */
  saveFailure?: (FailureInfo & { param?: string | undefined }) | undefined;
  saving: boolean;

  loaded(prompts: Prompt[]): void;
  loadFailed(failure: FailureInfo): void;
  queryChanged(query: string): void;
  showHiddenChanged(show: boolean): void;
  editStarted(id: string | 'new', form: PromptForm): void;
  formChanged(changes: Partial<PromptForm>): void;
  saveStarted(): void;
  saveFailed(failure: FailureInfo & { param?: string | undefined }): void;
  editClosed(): void;
}

export const usePromptsStore = create<PromptsState>()((set) => ({
  prompts: [],
  status: 'idle',
  query: '',
  showHidden: false,
  form: EMPTY_FORM,
  saving: false,

  loaded: (prompts) => set({ prompts, status: 'ready', failure: undefined }),
  loadFailed: (failure) => set({ status: 'failed', failure }),
  queryChanged: (query) => set({ query }),
  showHiddenChanged: (showHidden) => set({ showHidden }),
  editStarted: (editing, form) => set({ editing, form, saveFailure: undefined, saving: false }),
  formChanged: (changes) => set((s) => ({ form: { ...s.form, ...changes } })),
  saveStarted: () => set({ saving: true, saveFailure: undefined }),
  saveFailed: (saveFailure) => set({ saving: false, saveFailure }),
  editClosed: () => set({ editing: undefined, saving: false, saveFailure: undefined }),
}));
