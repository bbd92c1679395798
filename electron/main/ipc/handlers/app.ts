import type { APP_ROUTES } from '../../../shared/ipc/routes/app';
import type { AppContext } from '../../app-context';
import { AppError } from '../../services/app-error';
import type { Handlers } from '../router';

/** The handlers of the app's own routes: its version, and text to the clipboard. */
export function appHandlers(context: AppContext): Handlers<typeof APP_ROUTES> {
  return {
    getAppInfo: () => ({ version: context.version, platform: context.platform }),
    copyText: ({ text }) => {
      const { copyText } = context.desktop;
      if (!copyText) throw new AppError('internal', 'Copying is not available here.');
      copyText(text);
      return null;
    },
  };
}
