import type { IMAGES_ROUTES } from '../../../shared/ipc/routes/images';
import type { AppContext } from '../../app-context';
import type { Handlers } from '../router';

/** The handlers of the images routes: a few lines each, over the images services. */
export async function imagesHandlers(
  _context: AppContext,
): Promise<Handlers<typeof IMAGES_ROUTES>> {
  return {};
}
