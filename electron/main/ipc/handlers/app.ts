import type { APP_ROUTES } from '../../../shared/ipc/routes/app';
import type { AppContext } from '../../app-context';
import { AppError } from '../../services/app-error';
import type { Handlers } from '../router';
import { said } from '../../services/words';

/** The handlers of the app's own routes: its version, text to the clipboard, a saved file shown. */
export function appHandlers(
  context: Pick<AppContext, 'version' | 'platform' | 'systemLocale' | 'desktop' | 'savedFiles'>,
): Handlers<typeof APP_ROUTES> {
  return {
    getAppInfo: () => ({
      version: context.version,
      platform: context.platform,
      systemLocale: context.systemLocale,
    }),
    copyText: ({ text }) => {
      const { copyText } = context.desktop;
      if (!copyText) throw new AppError('internal', said('app.copyUnavailable'));
      copyText(text);
      return null;
    },
    showSavedFile: ({ id }) => {
      const path = context.savedFiles.get(id);
      if (path === undefined) throw new AppError('not_found', said('app.notSavedHere'));
      context.desktop.showInFolder(path);
      return null;
    },
  };
}
