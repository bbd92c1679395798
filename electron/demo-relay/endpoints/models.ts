/** GET /v1/models: the demo models in the canonical list shape (wire-conventions.md §6). */
import type { Endpoint } from '../context';
import { sendJson } from '../http-io';
import { DEMO_MODELS, MODELS_CREATED } from '../models/catalog';

export const listModels: Endpoint = {
  method: 'GET',
  prepare() {
    return {
      streaming: false,
      async respond({ res }) {
        sendJson(res, 200, {
          object: 'list',
          data: DEMO_MODELS.map((model) => ({
            id: model.id,
            object: 'model',
            created: MODELS_CREATED,
            owned_by: 'demo-relay',
            // What each chat model reads, as OpenRouter's lists say it: the hint clients use to
            // send images only to a model that reads them. No output_modalities: the kind of
            // each model is still told by its id, as wire-conventions.md §6 describes.
            ...(model.kind === 'chat'
              ? {
                  architecture: {
                    input_modalities: model.vision ? ['text', 'image'] : ['text'],
                  },
                  // As OpenRouter lists them: the request fields the model makes use of.
                  supported_parameters: [
                    'max_tokens',
                    'temperature',
                    ...(model.tools ? ['tools', 'tool_choice', 'parallel_tool_calls'] : []),
                  ],
                }
              : {}),
          })),
        });
      },
    };
  },
};
