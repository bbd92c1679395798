import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { createBridge } from '../shared/ipc/bridge';
import { EVENTS, ROUTES } from '../shared/ipc/contract';
import { MAX_GRANTS_AT_ONCE, PRELOAD_ROUTES, type GrantPurpose } from '../shared/ipc/file-grants';

/**
 * What the page sees as `window.relay`: one named function per route of the contract (a one-way
 * route's sends with `ipcRenderer.send` and returns nothing), one `on…` subscriber per event,
 * the app's version, and `grantDroppedFiles`.
 *
 * Only named values and functions cross the bridge; `ipcRenderer` itself and its event objects
 * never do (a listener gets the payload alone).
 */
const bridge = createBridge(
  ROUTES,
  EVENTS,
  (channel, payload) => ipcRenderer.invoke(channel, payload),
  (channel, listener) => {
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
  (channel, payload) => ipcRenderer.send(channel, payload),
);

/** The path on disk of a file the person dropped or picked; '' for anything else. */
function pathOf(file: unknown): string {
  try {
    return webUtils.getPathForFile(file as File);
  } catch {
    return '';
  }
}

/**
 * Files dropped on the page, handed to main: the preload reads their paths itself (Electron
 * answers only for a file the person dropped), main answers with a grant for each, and the page
 * gets the grants, never the paths (see `shared/ipc/file-grants.ts`). One entry per file, in
 * order: its grant, or null for a file that is not on disk (the page sends its bytes instead).
 * Resolves as a route does, as data (`{ ok: true, value }`), so the page unwraps it the same way;
 * a drop main refuses is one null per file, never an error.
 */
async function grantDroppedFiles(
  files: readonly File[],
  purpose: GrantPurpose,
): Promise<{ ok: true; value: Array<string | null> }> {
  const list = Array.isArray(files) ? files.slice(0, MAX_GRANTS_AT_ONCE) : [];
  const paths = list.map(pathOf);
  const none = { ok: true as const, value: paths.map(() => null) };
  const onDisk = paths.filter((path) => path !== '');
  if (onDisk.length === 0) return none;
  try {
    const answer = (await ipcRenderer.invoke(PRELOAD_ROUTES.grantDroppedFiles.channel, {
      purpose,
      paths: onDisk,
    })) as { ok?: boolean; value?: { grants?: unknown } };
    const grants = answer?.ok === true ? answer.value?.grants : undefined;
    if (!Array.isArray(grants) || grants.length !== onDisk.length) return none;
    let next = 0;
    return {
      ok: true,
      value: paths.map((path) => (path === '' ? null : String(grants[next++]))),
    };
  } catch {
    return none;
  }
}

contextBridge.exposeInMainWorld('relay', {
  ...bridge,
  appVersion: __APP_VERSION__,
  grantDroppedFiles,
});
