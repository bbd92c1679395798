import { BrowserWindow, dialog, shell } from 'electron';
import type { DesktopShell, Dialogs } from '../app-context';

/** The system's file dialogs, attached to the app's window when there is one. */
export const electronDialogs: Dialogs = {
  async chooseSavePath({ title, defaultName, filters }) {
    const owner = BrowserWindow.getFocusedWindow();
    const options = { title, defaultPath: defaultName, ...(filters ? { filters } : {}) };
    const result = owner
      ? await dialog.showSaveDialog(owner, options)
      : await dialog.showSaveDialog(options);
    return result.canceled ? undefined : result.filePath;
  },
  async chooseOpenPaths({ title, filters, multiple }) {
    const owner = BrowserWindow.getFocusedWindow();
    const options = {
      title,
      properties: multiple ? (['openFile', 'multiSelections'] as const) : (['openFile'] as const),
      ...(filters ? { filters } : {}),
    };
    const result = owner
      ? await dialog.showOpenDialog(owner, { ...options, properties: [...options.properties] })
      : await dialog.showOpenDialog({ ...options, properties: [...options.properties] });
    return result.canceled ? [] : result.filePaths;
  },
};

export const electronDesktop: DesktopShell = {
  showInFolder: (path) => shell.showItemInFolder(path),
  moveToTrash: (path) => shell.trashItem(path),
};
