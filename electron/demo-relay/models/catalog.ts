/**
 * The demo models. Their ids classify by name the way wire-conventions.md §6 says clients do
 * (`embed` -> embeddings, `image` -> images, anything else -> chat), and `owned_by` says plainly
 * that they are demos, not real models.
 */

export type ModelKind = 'chat' | 'embeddings' | 'images';

export interface DemoModel {
  id: string;
  kind: ModelKind;
  /** Chat only: stream without pacing, whatever `tokensPerSecond` says. */
  unpaced?: boolean;
  /** Chat only: streams this many times `tokensPerSecond` (default 1). */
  paceFactor?: number;
  /** Embeddings only: the length of its vectors when a request names none (256 by default). */
  dimensions?: number;
  /** Chat only: how it writes; the long structured reply by default. */
  style?: 'structured' | 'brief';
  /**
   * Chat only: reads images in `content` arrays and says what it measures in them (size, dominant
   * colours). The model list says so (`architecture.input_modalities`); the others refuse images.
   */
  vision?: boolean;
  /**
   * Chat only: calls the tools a request offers when the message asks for what one does, and
   * answers from their results (`models/tool-use.ts`). The other chat models take `tools` and
   * answer in text, as a model that chose not to call would.
   */
  tools?: boolean;
}

export const DEMO_MODELS: readonly DemoModel[] = [
  { id: 'demo-chat', kind: 'chat' },
  { id: 'demo-chat-fast', kind: 'chat', unpaced: true },
  // For comparing models in the demo: three times as fast, a few plain sentences.
  { id: 'demo-chat-mini', kind: 'chat', paceFactor: 3, style: 'brief' },
  // Calls tools (function calling): the path of MCP tools in a chat, without an account.
  { id: 'demo-tools', kind: 'chat', tools: true },
  // Reads attached images: the path of image parts, demonstrable without a real model.
  { id: 'demo-vision', kind: 'chat', unpaced: true, vision: true },
  { id: 'demo-embedding', kind: 'embeddings' },
  // A second, coarser embeddings model: to compare or move a knowledge base between models.
  { id: 'demo-embedding-small', kind: 'embeddings', dimensions: 64 },
  { id: 'demo-image', kind: 'images' },
];

/** A fixed date, so the model list is the same on every run (2025-11-21). */
export const MODELS_CREATED = 1763700000;

export function findModel(id: string): DemoModel | undefined {
  return DEMO_MODELS.find((model) => model.id === id);
}

export function modelsOfKind(kind: ModelKind): string[] {
  return DEMO_MODELS.filter((model) => model.kind === kind).map((model) => model.id);
}
