import { useId, type FormEvent } from 'react';
import { Field } from '../../components/field';
import { formatDuration, formatNumber } from '../../i18n/format';
import { useNamespace } from '../../i18n/use-namespace';
import { cancelGeneration, generate, sizeOf } from './images-actions';
import { useImagesStore } from './images-store';
import type { ImageModels } from './image-models';
import { IMAGE_SIZE_PRESETS, MAX_IMAGE_COUNT } from '../../../../electron/shared/limits';

/** Sizes in pixels are written without grouping, as the relay's own `1024x1024`. */
const PIXELS: Intl.NumberFormatOptions = { useGrouping: false };

/** The model, the prompt, the size and how many: then Generate, with progress and Cancel. */
export function ImageForm({ models }: { models: ImageModels }) {
  const t = useNamespace('images');
  const form = useImagesStore((s) => s.form);
  const generation = useImagesStore((s) => s.generation);
  const formChanged = useImagesStore((s) => s.formChanged);
  const ids = { model: useId(), prompt: useId(), size: useId(), count: useId() };
  const custom = form.sizeChoice === 'custom';
  const size = sizeOf(form);
  const sizeError =
    custom && !size.ok && (form.customWidth !== '' || form.customHeight !== '') ? size : undefined;
  const canGenerate = !generation && models.chosen !== '' && form.prompt.trim() !== '' && size.ok;

  const presetName = (preset: string) => {
    const [width = '', height = ''] = preset.split('x');
    return t('images.form.size.preset', {
      width: formatNumber(Number(width), PIXELS),
      height: formatNumber(Number(height), PIXELS),
    });
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canGenerate) void generate(models.chosen);
  }

  return (
    <form className="card image-form" onSubmit={submit} aria-label={t('images.form')}>
      <div className="image-form-row">
        <div className="field">
          <label className="field-label" htmlFor={ids.model}>
            {t('images.form.model')}
          </label>
          <select
            id={ids.model}
            className="select"
            value={models.chosen}
            disabled={models.status !== 'ready' || models.models.length === 0}
            onChange={(e) => models.choose(e.target.value)}
          >
            {models.models.length === 0 && (
              <option value="">
                {models.status === 'loading'
                  ? t('images.form.model.loading')
                  : t('images.form.model.none')}
              </option>
            )}
            {models.models.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={ids.size}>
            {t('images.form.size')}
          </label>
          <select
            id={ids.size}
            className="select"
            value={form.sizeChoice}
            onChange={(e) => formChanged({ sizeChoice: e.target.value })}
          >
            {IMAGE_SIZE_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {presetName(preset)}
              </option>
            ))}
            <option value="custom">{t('images.form.size.custom')}</option>
          </select>
        </div>
        {custom && (
          <>
            <Field
              label={t('images.form.width')}
              inputMode="numeric"
              value={form.customWidth}
              onChange={(e) => formChanged({ customWidth: e.target.value })}
              error={
                sizeError && !sizeError.ok && sizeError.field === 'width'
                  ? sizeError.error
                  : undefined
              }
              className="size-field"
            />
            <Field
              label={t('images.form.height')}
              inputMode="numeric"
              value={form.customHeight}
              onChange={(e) => formChanged({ customHeight: e.target.value })}
              error={
                sizeError && !sizeError.ok && sizeError.field === 'height'
                  ? sizeError.error
                  : undefined
              }
              className="size-field"
            />
          </>
        )}
        <div className="field count-field">
          <label className="field-label" htmlFor={ids.count}>
            {t('images.form.count')}
          </label>
          <input
            id={ids.count}
            className="input"
            type="number"
            min={1}
            max={MAX_IMAGE_COUNT}
            value={form.count}
            onChange={(e) =>
              formChanged({
                count: Math.min(10, Math.max(1, Math.round(Number(e.target.value) || 1))),
              })
            }
          />
        </div>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={ids.prompt}>
          {t('images.form.prompt')}
        </label>
        <textarea
          id={ids.prompt}
          className="input image-prompt"
          rows={3}
          value={form.prompt}
          placeholder={t('images.form.prompt.placeholder')}
          onChange={(e) => formChanged({ prompt: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit(e);
          }}
        />
      </div>
      <div className="image-form-actions">
        {generation ? (
          <>
            <p className="generation-progress" role="status">
              {t('images.form.generating', {
                current: formatNumber(Math.min(generation.done + 1, generation.total)),
                total: formatNumber(generation.total),
              })}{' '}
              <span className="elapsed">{formatDuration(generation.elapsedMs)}</span>
            </p>
            <button type="button" className="button" onClick={() => void cancelGeneration()}>
              {t('images.form.cancel')}
            </button>
          </>
        ) : (
          <button type="submit" className="button button-primary" disabled={!canGenerate}>
            {t('images.form.generate')}
          </button>
        )}
      </div>
    </form>
  );
}
