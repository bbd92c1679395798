import { useEffect, useState } from 'react';
import { failureOf, type FailureInfo } from '../../lib/errors';
import { requireBridge } from '../../lib/relay-bridge';

export interface ImageModels {
  status: 'loading' | 'ready' | 'failed';
  models: string[];
  chosen: string;
  failure?: FailureInfo | undefined;
  choose(model: string): void;
}

/** The active connection's image models, with the one last used here preselected. */
export function useImageModels(connectionId: string): ImageModels {
  const [state, setState] = useState<Omit<ImageModels, 'choose'>>({
    status: 'loading',
    models: [],
    chosen: '',
  });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading', models: [], chosen: '' });
    requireBridge()
      .listModels()
      .then(
        (list) => {
          if (!live) return;
          const models = list.models.filter((m) => m.kind === 'image').map((m) => m.id);
          const last = list.lastModel.images;
          setState({
            status: 'ready',
            models,
            chosen: last && models.includes(last) ? last : (models[0] ?? ''),
          });
        },
        (error: unknown) => {
          if (live)
            setState({ status: 'failed', models: [], chosen: '', failure: failureOf(error) });
        },
      );
    return () => {
      live = false;
    };
  }, [connectionId]);

  return {
    ...state,
    choose(model) {
      setState((s) => ({
        ...s,
        chosen: model,
        models: s.models.includes(model) ? s.models : [...s.models, model],
      }));
      void requireBridge()
        .setLastModel({ feature: 'images', modelId: model })
        .catch(() => undefined);
    },
  };
}
