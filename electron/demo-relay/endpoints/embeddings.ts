/** POST /v1/embeddings (wire-conventions.md §4), with `encoding_format` honoured. */
import type { Endpoint } from '../context';
import { sendJson } from '../http-io';
import { countTokens } from '../models/chat';
import { embedText, toBase64Float32 } from '../models/embeddings';
import { validateEmbeddingRequest } from '../validation';

export const createEmbeddings: Endpoint = {
  method: 'POST',
  prepare(body) {
    const request = validateEmbeddingRequest(body);
    return {
      streaming: false,
      async respond({ res }) {
        const data = request.inputs.map((text, index) => {
          const vector = embedText(text, request.dimensions);
          return {
            object: 'embedding',
            index,
            embedding: request.encoding === 'base64' ? toBase64Float32(vector) : vector,
          };
        });
        const tokens = request.inputs.reduce((sum, text) => sum + countTokens(text), 0);
        sendJson(res, 200, {
          object: 'list',
          data,
          model: request.model.id,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        });
      },
    };
  },
};
