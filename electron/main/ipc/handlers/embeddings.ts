import type { EMBEDDINGS_ROUTES } from '../../../shared/ipc/routes/embeddings';
import type { AppContext } from '../../app-context';
import type { Handlers } from '../router';

/** The handlers of the embeddings routes: a few lines each, over the embeddings services. */
export async function embeddingsHandlers(
  _context: AppContext,
): Promise<Handlers<typeof EMBEDDINGS_ROUTES>> {
  return {};
}
