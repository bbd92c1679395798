/**
 * Which replies of the open conversation were asked with a knowledge base, and the one whose
 * sources are open below it (a cited source, or the whole retrieval: the X-ray). Filled by the
 * knowledge chip (loaded after the chat screen) and the reply events; read by the replies.
 */
import { create } from 'zustand';

export type OpenSources = { replyId: string; source: number | null };

export interface KnowledgeChatState {
  /** The replies with a retrieval, by id. */
  replies: Record<string, true>;
  open: OpenSources | undefined;
  repliesLoaded(ids: readonly string[]): void;
  opened(open: OpenSources | undefined): void;
}

export const useKnowledgeChatStore = create<KnowledgeChatState>()((set) => ({
  replies: {},
  open: undefined,
  repliesLoaded: (ids) => set({ replies: Object.fromEntries(ids.map((id) => [id, true])) }),
  opened: (open) => set({ open }),
}));
