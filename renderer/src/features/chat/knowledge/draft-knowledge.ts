import { create } from 'zustand';

/**
 * The knowledge bases chosen for the new chat before its first message makes it a conversation:
 * kept for the message box they were chosen in (`composerFor`), and linked by `chat-actions` as
 * soon as the conversation exists. Apart from the chip, which loads after the chat screen.
 */
interface DraftKnowledge {
  forComposer: string;
  kbIds: readonly string[];
  chosen(forComposer: string, kbIds: readonly string[]): void;
}

const NONE: readonly string[] = [];

export const useDraftKnowledge = create<DraftKnowledge>((set) => ({
  forComposer: '',
  kbIds: NONE,
  chosen: (forComposer, kbIds) => set({ forComposer, kbIds }),
}));

/** The bases chosen in the message box `composerFor` (none when it is another's). */
export function draftKnowledgeFor(state: DraftKnowledge, composerFor: string): readonly string[] {
  return state.forComposer === composerFor ? state.kbIds : NONE;
}
