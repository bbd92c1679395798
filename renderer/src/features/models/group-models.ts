import type { MessageKey } from '../../i18n/i18n';
import type { Feature, ModelKind, RelayModel } from '../../lib/relay-bridge';

export interface ModelGroup {
  kind: ModelKind;
  /** The screen that uses this kind of model, for remembering the last one chosen. */
  feature: Feature;
  /** How many models of this kind the relay lists. */
  total: number;
  /** Those that match the search. */
  models: RelayModel[];
}

/** Each kind's name, as a message key. */
export const KIND_TITLES: Record<ModelKind, MessageKey> = {
  chat: 'models.kind.chat',
  embedding: 'models.kind.embedding',
  image: 'models.kind.image',
};

const GROUPS: { kind: ModelKind; feature: Feature }[] = [
  { kind: 'chat', feature: 'chat' },
  { kind: 'embedding', feature: 'embeddings' },
  { kind: 'image', feature: 'images' },
];

export function matchesQuery(model: RelayModel, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${model.id} ${model.ownedBy ?? ''}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Sorts models into chat, embeddings and images, in that order, each sorted by id. */
export function groupModels(models: readonly RelayModel[], query: string): ModelGroup[] {
  return GROUPS.map(({ kind, feature }) => {
    const ofKind = models
      .filter((model) => model.kind === kind)
      .sort((a, b) => a.id.localeCompare(b.id));
    return {
      kind,
      feature,
      total: ofKind.length,
      models: ofKind.filter((model) => matchesQuery(model, query)),
    };
  });
}
