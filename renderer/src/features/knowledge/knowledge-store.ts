import { create } from 'zustand';
import type { FailureInfo } from '../../lib/errors';
import type { LoadStatus } from '../../lib/load-state';
import type { Answer } from '../../lib/relay-bridge';

export type KnowledgeBase = Answer<'listKnowledgeBases'>[number];
export type KnowledgeBaseDetail = Answer<'getKnowledgeBase'>;
export type KnowledgeHit = Answer<'searchKnowledgeBase'>['hits'][number];
export interface KnowledgeProgress {
  phase: 'reading' | 'embedding';
  files: { done: number; total: number };
  chunks: { done: number; total: number };
  tokens: number;
}

export interface KnowledgeState {
  bases: KnowledgeBase[];
  status: LoadStatus;
  failure?: FailureInfo | undefined;
  /** The embeddings models of the active connection, for a new base. */
  models: string[];
  selected?: string | undefined;
  detail?: KnowledgeBaseDetail | undefined;
  /** The last progress of each base that is indexing. */
  progress: Record<string, KnowledgeProgress>;
  hits?: KnowledgeHit[] | undefined;
  searching: boolean;
  searchFailure?: FailureInfo | undefined;
}

export const useKnowledgeStore = create<KnowledgeState>()(() => ({
  bases: [],
  status: 'idle',
  models: [],
  progress: {},
  searching: false,
}));
