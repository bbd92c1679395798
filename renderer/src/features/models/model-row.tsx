import { useId, useState } from 'react';
import type { Feature, ModelKind, ModelPrice, RelayModel } from '../../lib/relay-bridge';
import { KIND_TITLES } from './group-models';
import { ModelPriceControl } from './price-editor';

const SOURCE_TEXT: Record<RelayModel['kindSource'], string> = {
  hint: 'Kind given by the relay',
  id: 'Kind guessed from the name',
  override: 'Kind set by you',
};

export interface ModelRowProps {
  model: RelayModel;
  feature: Feature;
  chosen: boolean;
  onChoose(): void;
  onKindChange(kind: ModelKind | null): Promise<void>;
  /** Given for models priced per token (chat): the price entered, and how to change it. */
  pricing?:
    | {
        price: ModelPrice | undefined;
        currency: string;
        onSave(price: ModelPrice | null): Promise<void>;
      }
    | undefined;
}

/** One model: choose it for its screen, see its owner, and correct its kind. */
export function ModelRow({
  model,
  feature,
  chosen,
  onChoose,
  onKindChange,
  pricing,
}: ModelRowProps) {
  const id = useId();
  const [saving, setSaving] = useState(false);
  const value = model.kindSource === 'override' ? model.kind : 'auto';

  return (
    <li className={chosen ? 'model-row model-row-chosen' : 'model-row'}>
      <input
        id={`${id}-choice`}
        className="model-radio"
        type="radio"
        name={`model-for-${feature}`}
        value={model.id}
        checked={chosen}
        onChange={onChoose}
      />
      <label className="model-label" htmlFor={`${id}-choice`}>
        <span className="model-id">{model.id}</span>
        <span className="model-meta">
          {model.ownedBy ? <span className="model-owner">{model.ownedBy}</span> : null}
          <span className="model-source">{SOURCE_TEXT[model.kindSource]}</span>
        </span>
      </label>
      {pricing && (
        <ModelPriceControl
          modelId={model.id}
          price={pricing.price}
          currency={pricing.currency}
          onSave={pricing.onSave}
        />
      )}
      <select
        className="select select-small"
        aria-label={`Kind of ${model.id}`}
        value={value}
        disabled={saving}
        onChange={(event) => {
          const next = event.target.value;
          setSaving(true);
          void onKindChange(next === 'auto' ? null : (next as ModelKind)).finally(() =>
            setSaving(false),
          );
        }}
      >
        <option value="auto">Automatic</option>
        {(Object.keys(KIND_TITLES) as ModelKind[]).map((kind) => (
          <option key={kind} value={kind}>
            {KIND_TITLES[kind]}
          </option>
        ))}
      </select>
    </li>
  );
}
