import { errorInfo } from '../app-error';
import type { ConnectionsService } from '../connections/connections';
import type { ModelCatalog } from '../models/model-catalog';
import { said, type Said } from '../words';

/** The chat model quick ask uses: the one last chosen in Chat, else the relay's first. */
export async function defaultModel(
  connections: Pick<ConnectionsService, 'activeId'>,
  models: Pick<ModelCatalog, 'list'>,
): Promise<{ model: string | null; problem?: Said }> {
  if ((await connections.activeId()) === undefined) {
    return { model: null, problem: said('quickAsk.connectFirst') };
  }
  let listing;
  try {
    listing = await models.list();
  } catch (error) {
    // The relay's own words stay as it said them (in English when they have no key here).
    const why =
      errorInfo(error)?.message ?? (error instanceof Error ? error.message : String(error));
    return { model: null, problem: said('quickAsk.modelsUnlisted', { why }) };
  }
  const chat = (listing?.models ?? []).filter((m) => m.kind === 'chat').map((m) => m.id);
  const last = listing?.lastModel.chat;
  const model = last !== undefined && chat.includes(last) ? last : (chat[0] ?? null);
  return model === null ? { model, problem: said('quickAsk.noChatModel') } : { model };
}
