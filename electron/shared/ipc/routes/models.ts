/**
 * The models part of the IPC contract (see ../contract.ts): the active relay's models, sorted into
 * chat, embeddings and images, with the person's overrides and last choices.
 */
import { z } from 'zod';
import { route, type RouteSpec } from '../define';
import { boundedText as text, idSchema as id } from '../schemas';

export const MODEL_KINDS = ['chat', 'embedding', 'image'] as const;
export const modelKindSchema = z.enum(MODEL_KINDS);

export const modelSchema = z.object({
  id: z.string(),
  kind: modelKindSchema,
  kindSource: z.enum(['hint', 'id', 'override']),
  ownedBy: z.string().optional(),
});

export const FEATURES = ['chat', 'embeddings', 'images'] as const;

export const MODELS_ROUTES = {
  listModels: route(
    'models:list',
    z.strictObject({ refresh: z.boolean().optional() }).optional(),
    z.object({
      connectionId: id,
      models: z.array(modelSchema),
      fetchedAt: z.string(),
      /** The model last chosen in each feature, to preselect it. */
      lastModel: z.object({
        chat: z.string().optional(),
        embeddings: z.string().optional(),
        images: z.string().optional(),
      }),
    }),
  ),
  setModelKind: route(
    'models:set-kind',
    z.strictObject({ modelId: text(500).min(1), kind: modelKindSchema.nullable() }),
    z.null(),
  ),
  setLastModel: route(
    'models:set-last',
    z.strictObject({ feature: z.enum(FEATURES), modelId: text(500).min(1) }),
    z.null(),
  ),
} as const satisfies Record<string, RouteSpec>;
