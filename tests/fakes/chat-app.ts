/**
 * The app's services behind the real router and bridge, for chat tests: events recorded, file
 * dialogs scripted, and helpers to wait for a reply to finish.
 */
import { join } from 'node:path';
import {
  createAppServices,
  type AppServices,
  type AppServicesOptions,
} from '../../electron/main/app-services';
import { createRouter, trustedSender, type IpcSender } from '../../electron/main/ipc/router';
import { windowRoutes } from '../../electron/main/ipc/window-routes';
import type { AppLog } from '../../electron/main/services/log';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { MemorySecretStore, type SecretStore } from '../../electron/main/services/secret-store';
import { ROUTES, type Events } from '../../electron/shared/ipc/contract';
import type { PayloadOf } from '../../electron/shared/ipc/define';
import { PRELOAD_ROUTES, type GrantPurpose } from '../../electron/shared/ipc/file-grants';
import { pageBridge } from './page-bridge';
import { ScriptedDialogs } from './chat-dialogs';
import { startSourceImportWorker } from './source-workers';
import { checkedEvents } from './contract-events';

const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };

export interface RecordedEvent {
  channel: string;
  payload: Record<string, unknown>;
  at: number;
}

/** One call over the bridge: what the page sent and what it got back. */
export interface RecordedCall {
  channel: string;
  payload: unknown;
  result: unknown;
}

export interface ChatAppOptions {
  fetch?: FetchLike;
  picturesDir?: string;
  /** The support log; without it nothing is logged. */
  log?: AppLog;
  /** The backups' clock, file system and copy step. */
  backupSeams?: AppServicesOptions['backupSeams'];
  reloadWindow?: () => void;
  version?: string;
  /** Where the proxy is applied (a recording stand-in); without it, it is only saved. */
  proxyStack?: NonNullable<AppServicesOptions['proxyStack']>;
}

export async function openChatApp(
  dataDir: string,
  secrets: SecretStore = new MemorySecretStore(),
  options: ChatAppOptions = {},
) {
  const events: RecordedEvent[] = [];
  const calls: RecordedCall[] = [];
  const waiters: Array<() => void> = [];
  const dialogs = new ScriptedDialogs();
  /** What main put on the clipboard, in order (the app's clipboard is Electron's). */
  const clipboard: string[] = [];
  /** The files main showed in the file manager, in order. */
  const shown: string[] = [];
  /** The files main opened in the system's app for their type, in order. */
  const opened: string[] = [];
  const services: AppServices = await createAppServices({
    userDataDir: dataDir,
    knowledgeSamplesDir: join(import.meta.dirname, '../../resources/knowledge-samples'),
    secretStore: secrets,
    dialogs,
    startImportWorker: startSourceImportWorker,
    desktop: {
      showInFolder: (path) => void shown.push(path),
      openPath: async (path) => (opened.push(path), ''),
      moveToTrash: () =>
        Promise.reject(new Error('Moving files to the trash is not available here.')),
      copyText: (text) => void clipboard.push(text),
    },
    ...options,
    // Every event must fit its schema, as the preload would deliver it.
    emit: checkedEvents((channel, payload) => {
      events.push({ channel, payload: payload as Record<string, unknown>, at: performance.now() });
      for (const wake of waiters.splice(0)) wake();
    }),
  });
  // Window 1 is the app's main window; window 2 its quick ask window, with its own routes only.
  const router = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [1, 2]),
    mayCall: windowRoutes(() => [2]),
  });
  // The preload's channel: the main window alone, which takes drops (as index.ts).
  const preloadRouter = createRouter(PRELOAD_ROUTES, services.preloadHandlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [1]),
  });

  /**
   * What the preload does with a drop: hands main the paths of the files dropped (as
   * `webUtils.getPathForFile` read them) and gets a grant for each, for the page to name.
   */
  async function grant(
    paths: string[],
    purpose: GrantPurpose = 'attach',
    from: IpcSender = sender,
  ): Promise<string[]> {
    const result = await preloadRouter.dispatch('files:grant-dropped', { purpose, paths }, from);
    if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
    return (result.value as { grants: string[] }).grants;
  }
  const api = pageBridge(
    async (channel, payload) => {
      const result = await router.dispatch(channel, payload, sender);
      calls.push({ channel, payload, result });
      return result;
    },
    () => () => undefined,
    (channel, payload) => void router.receive(channel, payload, sender),
  );

  async function until<T>(find: () => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('Timed out waiting for an event');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  /** The finish event of a reply, once it arrives (the `nth`, for a reply continued). */
  function finished(replyId: string, nth = 1) {
    return until(
      () =>
        events.filter((e) => e.channel === 'chat:reply-finished' && e.payload.replyId === replyId)[
          nth - 1
        ]?.payload as PayloadOf<Events['chatReplyFinished']> | undefined,
    );
  }

  /** The chat:delta events that carried text of this reply, each as that reply's delta. */
  function deltas(replyId: string) {
    const out: Array<{ channel: string; payload: { replyId: string; text: string }; at: number }> =
      [];
    for (const e of events) {
      if (e.channel !== 'chat:delta') continue;
      const mine = (e.payload.deltas as Array<{ replyId: string; text: string }>).find(
        (d) => d.replyId === replyId,
      );
      if (mine) out.push({ channel: e.channel, payload: mine, at: e.at });
    }
    return out;
  }

  return {
    api,
    /** The frame the page's calls come from: the app's window, at its origin. */
    sender,
    grant,
    services,
    events,
    calls,
    router,
    dialogs,
    clipboard,
    shown,
    opened,
    until,
    finished,
    deltas,
    secrets,
  };
}

export type ChatApp = Awaited<ReturnType<typeof openChatApp>>;
