import { useId, useState } from 'react';
import { useT, type MessageKey } from '../../i18n/i18n';
import type { Feature, ModelKind, ModelPrice, RelayModel } from '../../lib/relay-bridge';
import { KIND_TITLES } from './group-models';
import { ModelPriceControl } from './price-editor';

const SOURCE_TEXT: Record<RelayModel['kindSource'], MessageKey> = {
  hint: 'models.source.hint',
  id: 'models.source.id',
  override: 'models.source.override',
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
  const t = useT();

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
          <span className="model-source">{t(SOURCE_TEXT[model.kindSource])}</span>
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
        aria-label={t('models.kindOf', { model: model.id })}
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
        <option value="auto">{t('models.kind.auto')}</option>
        {(Object.keys(KIND_TITLES) as ModelKind[]).map((kind) => (
          <option key={kind} value={kind}>
            {t(KIND_TITLES[kind])}
          </option>
        ))}
      </select>
      {onImagesChange && <ImageInputSelect model={model} onChange={onImagesChange} />}
    </li>
  );
}

/** What "automatic" means for a model's image input: what the relay's list says, if anything. */
function automaticImages(model: RelayModel): MessageKey {
  if (model.imagesSource === 'hint')
    return model.acceptsImages ? 'models.images.relayYes' : 'models.images.relayNo';
  if (model.imagesSource === 'override') return 'models.images.asRelay';
  return 'models.images.notSaid';
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
  const t = useT();
  return (
    <select
      className="select select-small"
      aria-label={t('models.images.of', { model: model.id })}
      title={t('models.images.hint')}
      value={value}
      disabled={saving}
      onChange={(event) => {
        const next = event.target.value;
        setSaving(true);
        void onChange(next === 'auto' ? null : next === 'yes').finally(() => setSaving(false));
      }}
    >
      <option value="auto">{t(automaticImages(model))}</option>
      <option value="yes">{t('models.images.yes')}</option>
      <option value="no">{t('models.images.no')}</option>
    </select>
  );
}
