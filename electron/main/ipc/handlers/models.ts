import type { MODELS_ROUTES } from '../../../shared/ipc/routes/models';
import type { ModelCatalog } from '../../services/models/model-catalog';
import type { Handlers } from '../router';

/** The handlers of the models routes: one line each, over the model catalog. */
export function modelsHandlers(models: ModelCatalog): Handlers<typeof MODELS_ROUTES> {
  return {
    listModels: (request) =>
      models.listing({
        refresh: request?.refresh ?? false,
        ...(request?.connectionId === undefined ? {} : { connectionId: request.connectionId }),
      }),
    setModelKind: async ({ modelId, kind }) => (await models.setKind(modelId, kind), null),
    setModelImageInput: async ({ modelId, acceptsImages }) => (
      await models.setImageInput(modelId, acceptsImages),
      null
    ),
    setLastModel: async ({ feature, modelId }) => (
      await models.setLastModel(feature, modelId),
      null
    ),
    listPrices: () => models.prices.get(),
    setModelPrice: ({ modelId, price }) => models.prices.setPrice(modelId, price),
    setPriceCurrency: ({ currency }) => models.prices.setCurrency(currency),
    importPrices: () => models.importPrices(),
    exportPrices: () => models.exportPrices(),
  };
}
