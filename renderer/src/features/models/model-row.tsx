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
  /** Given for chat models: says whether the model reads images (null: as the relay says). */
  onImagesChange?: ((acceptsImages: boolean | null) => Promise<void>) | undefined;
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
  onImagesChange,
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
      {onImagesChange && <ImageInputSelect model={model} onChange={onImagesChange} />}
    </li>
  );
}

/** What "automatic" means for a model's image input: what the relay's list says, if anything. */
function automaticImages(model: RelayModel): string {
  if (model.imagesSource === 'hint')
    return model.acceptsImages ? 'Images: yes (relay)' : 'Images: no (relay)';
  if (model.imagesSource === 'override') return 'Images: as the relay says';
  return 'Images: not said (no)';
}

/**
 * Whether the app sends the model images: the relay's hint by default, or the person's own
 * "accepts images" / "text only", saved per model.
 */
function ImageInputSelect({
  model,
  onChange,
}: {
  model: RelayModel;
  onChange(acceptsImages: boolean | null): Promise<void>;
}) {
  const [saving, setSaving] = useState(false);
  const value = model.imagesSource === 'override' ? (model.acceptsImages ? 'yes' : 'no') : 'auto';
  return (
    <select
      className="select select-small"
      aria-label={`Image input of ${model.id}`}
      title="Whether images attached to a message are sent to this model"
      value={value}
      disabled={saving}
      onChange={(event) => {
        const next = event.target.value;
        setSaving(true);
        void onChange(next === 'auto' ? null : next === 'yes').finally(() => setSaving(false));
      }}
    >
      <option value="auto">{automaticImages(model)}</option>
      <option value="yes">Accepts images</option>
      <option value="no">Text only</option>
    </select>
  );
}
