import { useId, type FormEvent } from 'react';
import { Field } from '../../components/field';
import { SIZE_PRESETS } from './image-size';
import { cancelGeneration, generate, sizeOf } from './images-actions';
import { useImagesStore } from './images-store';
import type { ImageModels } from './image-models';

function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** The model, the prompt, the size and how many: then Generate, with progress and Cancel. */
export function ImageForm({ models }: { models: ImageModels }) {
  const form = useImagesStore((s) => s.form);
  const generation = useImagesStore((s) => s.generation);
  const formChanged = useImagesStore((s) => s.formChanged);
  const ids = { model: useId(), prompt: useId(), size: useId(), count: useId() };
  const custom = form.sizeChoice === 'custom';
  const size = sizeOf(form);
  const sizeError =
    custom && !size.ok && (form.customWidth !== '' || form.customHeight !== '') ? size : undefined;
  const canGenerate = !generation && models.chosen !== '' && form.prompt.trim() !== '' && size.ok;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canGenerate) void generate(models.chosen);
  }

  return (
    <form className="card image-form" onSubmit={submit} aria-label="Generate images">
      <div className="image-form-row">
        <div className="field">
          <label className="field-label" htmlFor={ids.model}>
            Model
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
                {models.status === 'loading' ? 'Loading…' : 'No image model'}
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
            Size
          </label>
          <select
            id={ids.size}
            className="select"
            value={form.sizeChoice}
            onChange={(e) => formChanged({ sizeChoice: e.target.value })}
          >
            {SIZE_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {preset.replace('x', ' × ')}
              </option>
            ))}
            <option value="custom">Custom…</option>
          </select>
        </div>
        {custom && (
          <>
            <Field
              label="Width"
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
              label="Height"
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
            How many
          </label>
          <input
            id={ids.count}
            className="input"
            type="number"
            min={1}
            max={10}
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
          Prompt
        </label>
        <textarea
          id={ids.prompt}
          className="input image-prompt"
          rows={3}
          value={form.prompt}
          placeholder="Describe the image you want"
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
              Generating {Math.min(generation.done + 1, generation.total)} of {generation.total}…{' '}
              <span className="elapsed">{formatElapsed(generation.elapsedMs)}</span>
            </p>
            <button type="button" className="button" onClick={() => void cancelGeneration()}>
              Cancel
            </button>
          </>
        ) : (
          <button type="submit" className="button button-primary" disabled={!canGenerate}>
            Generate
          </button>
        )}
      </div>
    </form>
  );
}
