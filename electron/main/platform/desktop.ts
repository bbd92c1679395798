import { mkdir } from 'node:fs/promises';
import {
  BrowserWindow,
  ClipboardItem,
  clipboard,
  dialog,
  nativeImage,
  shell,
  webContents,
} from 'electron';
import type { DesktopShell, Dialogs } from '../app-context';
import { nativeText } from '../services/words';

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
  async chooseFolder({ title, defaultPath }) {
    const owner = BrowserWindow.getFocusedWindow();
    const options = {
      title,
      properties: ['openDirectory', 'createDirectory'] as Array<
        'openDirectory' | 'createDirectory'
      >,
      ...(defaultPath ? { defaultPath } : {}),
    };
    const result = owner
      ? await dialog.showOpenDialog(owner, options)
      : await dialog.showOpenDialog(options);
    return result.canceled ? undefined : result.filePaths[0];
  },
  async confirm({ title, message, detail, confirmLabel }) {
    const owner = BrowserWindow.getFocusedWindow();
    const options = {
      type: 'warning' as const,
      title,
      message,
      detail,
      buttons: [nativeText('dialog.cancel'), confirmLabel],
      // Enter and Escape both cancel: going ahead takes a deliberate click.
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    };
    const { response } = owner
      ? await dialog.showMessageBox(owner, options)
      : await dialog.showMessageBox(options);
    return response === 1;
  },
};

export const electronDesktop: DesktopShell = {
  showInFolder: (path) => shell.showItemInFolder(path),
  openPath: (path) => shell.openPath(path),
  moveToTrash: (path) => shell.trashItem(path),
  copyText(text) {
    clipboard.writeText(text);
  },
  async copyImage(path) {
    // Every platform's clipboard takes PNG, whatever type the file is.
    const png = nativeImage.createFromPath(path).toPNG();
    await clipboard.write([
      new ClipboardItem({ 'image/png': new Blob([new Uint8Array(png)], { type: 'image/png' }) }),
    ]);
  },
  startDrag(path, webContentsId) {
    const contents = webContents.fromId(webContentsId);
    if (!contents || contents.isDestroyed()) return;
    // macOS refuses a drag without an icon: a small copy of the image itself.
    const icon = nativeImage.createFromPath(path).resize({ width: 64 });
    contents.startDrag({ file: path, icon });
  },
};

/**
 * Opens a folder in the system's file manager (creating it if it is not there yet); resolves to
 * the system's error text, or '' when it opened.
 */
export async function openFolder(path: string): Promise<string> {
  await mkdir(path, { recursive: true });
  return shell.openPath(path);
}
