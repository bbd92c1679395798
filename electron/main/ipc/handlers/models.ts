import type { MODELS_ROUTES } from '../../../shared/ipc/routes/models';
import type { AppContext } from '../../app-context';
import { AppError } from '../../services/app-error';
import { exportPriceFile, importPriceFile } from '../../services/models/price-book';
import type { Handlers } from '../router';
import { said } from '../../services/words';

/** The handlers of the models routes, over the model catalog of the active connection. */
export function modelsHandlers({
  models,
  dialogs,
}: Pick<AppContext, 'models' | 'dialogs'>): Handlers<typeof MODELS_ROUTES> {
  return {
    listModels: async (request) => {
      const listing = await models.list({
        refresh: request?.refresh ?? false,
        ...(request?.connectionId === undefined ? {} : { connectionId: request.connectionId }),
      });
      if (listing === undefined) throw new AppError('not_found', said('app.connectFirst'));
      return listing;
    },
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
    importPrices: () => importPriceFile(models.prices, dialogs),
    exportPrices: () => exportPriceFile(models.prices, dialogs),
  };
}
