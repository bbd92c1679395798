import { ReadFailure } from '../components/read-failure';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Badge } from '../components/badge';
import { Icon } from '../components/icon';
import { ToastRegion } from '../components/toast-region';
import { EmptyState } from '../components/empty-state';
import { Spinner } from '../components/spinner';
import { watchConnections, loadConnections } from '../features/connect/connect-actions';
import {
  selectActiveConnection,
  selectActiveHealth,
  selectHasConnections,
  useConnectStore,
} from '../features/connect/connect-store';
import { BackupStatusBadge } from '../features/backups/backup-status-badge';
import { loadBackupStatus, watchBackupStatus } from '../features/backups/backups-actions';
import { useBackupsStore } from '../features/backups/backups-store';
import { loadSettings } from '../features/settings/settings-actions';
import { loadSyncStatus, watchSyncStatus } from '../features/sync/sync-actions';
import { SyncStatusBadge } from '../features/sync/sync-status-badge';
import { selectTheme, useSettingsStore } from '../features/settings/settings-store';
import { loadNamespace, useT, type MessageKey } from '../i18n/i18n';
import { useAppLocale } from '../i18n/locale';
import { failureTitle } from '../lib/errors';
import type { ConnectionHealth, ConnectLink } from '../lib/relay-bridge';
import { recall, remember } from '../lib/session-memory';
import { dismissToast, holdToast, useToastStore } from '../lib/toasts';
import { appVersion as readAppVersion, runsInsideApp, watchAppLinks } from './app-actions';
import { SCREENS, SCREEN_TITLES, type ScreenId } from './screens';
import { openConversationInChat, openPromptChat, useAppShortcuts } from './shortcut-commands';
import { UpdateBanner } from './update-banner';
import { ShortcutSheet } from './shortcut-sheet';
import { currentPlatform } from './shortcuts';

/** The screen the app was on when it closed: it opens there again (else on Models). */
const SCREEN_KEY = 'relay.screen';

function rememberedScreen(): ScreenId {
  const screen = recall(SCREEN_KEY);
  return SCREENS.find((s) => s.id === screen)?.id ?? 'models';
}

/** Applies the chosen theme to the page: CSS reads `data-theme` on <html>. */
function useTheme() {
  const theme = useSettingsStore(selectTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

/** The app: the first-run screen until a connection exists, then the shell with its screens. */
export function App() {
  const inside = runsInsideApp();
  const t = useT();
  useTheme();
  useAppLocale();

  useEffect(() => {
    if (!inside) return;
    void loadSettings();
    void loadBackupStatus();
    const stopBackups = watchBackupStatus();
    void loadSyncStatus();
    const stopSync = watchSyncStatus();
    const stopConnections = watchConnections();
    return () => {
      stopBackups();
      stopSync();
      stopConnections();
    };
  }, [inside]);

  if (!inside) {
    return (
      <main className="welcome">
        <EmptyState title={t('app.notRunning.title')}>
          <p>{t('app.notRunning.body')}</p>
        </EmptyState>
      </main>
    );
  }
  return <Root />;
}

/*
 * Chat (with its markdown renderer: react-markdown, KaTeX, highlight.js's core), embeddings and
 * images are about two thirds of the page's script; each is loaded when first opened, and all
 * three are fetched once the first screen is usable (`preloadScreens`), so switching stays instant.
 */
const loadChat = () =>
  Promise.all([import('../features/chat/chat-screen'), loadNamespace('chat')]).then(
    ([screen]) => screen,
  );
const loadEmbeddings = () => import('../features/embeddings/embeddings-screen');
const loadImages = () => import('../features/images/images-screen');
const ChatScreen = lazy(() => loadChat().then((m) => ({ default: m.ChatScreen })));
const EmbeddingsScreen = lazy(() =>
  loadEmbeddings().then((m) => ({ default: m.EmbeddingsScreen })),
);
const ImagesScreen = lazy(() => loadImages().then((m) => ({ default: m.ImagesScreen })));
// Settings (with its backups, network, desktop and updates sections) is not needed to start:
// fetched after the first paint with the others, with its words.
const loadSettingsScreen = () =>
  Promise.all([
    import('../features/settings/settings-screen'),
    import('../features/backups/backups-section'),
    import('../features/sync/sync-section'),
    loadNamespace('settings'),
    loadNamespace('backups'),
    loadNamespace('sync'),
  ]);
// Models (the screen of a start with no screen remembered) and the first-run screen are not on
// the path of a start that opens the chat: each is fetched when shown, Models after the first
// paint with the others.
const loadModels = () =>
  Promise.all([import('../features/models/models-screen'), loadNamespace('models')]);
const ModelsScreen = lazy(() => loadModels().then(([m]) => ({ default: m.ModelsScreen })));
const ConnectScreen = lazy(() =>
  Promise.all([import('../features/connect/connect-screen'), loadNamespace('connect')]).then(
    ([m]) => ({ default: m.ConnectScreen }),
  ),
);
const SettingsScreen = lazy(() =>
  loadSettingsScreen().then(
    ([{ SettingsScreen: Screen }, { BackupsSection }, { SyncSection }]) => ({
      default: ({ testUrl }: { testUrl: string | undefined }) => (
        <Screen testUrl={testUrl}>
          <SyncSection />
          <BackupsSection />
        </Screen>
      ),
    }),
  ),
);
const ConnectionsScreen = lazy(() =>
  Promise.all([import('../features/connect/connections-screen'), loadNamespace('connect')]).then(
    ([m]) => ({ default: m.ConnectionsScreen }),
  ),
);
const PromptsScreen = lazy(() =>
  Promise.all([import('../features/prompts/prompts-screen'), loadNamespace('prompts')]).then(
    ([m]) => ({ default: m.PromptsScreen }),
  ),
);
const ToolsScreen = lazy(() =>
  Promise.all([import('../features/tools/tools-screen'), loadNamespace('tools')]).then(([m]) => ({
    default: m.ToolsScreen,
  })),
);
const KnowledgeScreen = lazy(() =>
  Promise.all([import('../features/knowledge/knowledge-screen'), loadNamespace('knowledge')]).then(
    ([m]) => ({ default: m.KnowledgeScreen }),
  ),
);
// Shown only on the first-run screen, and after a restore: fetched when they are.
const RestoreOffer = lazy(() =>
  Promise.all([import('../features/backups/restore-offer'), loadNamespace('backups')]).then(
    ([m]) => ({ default: m.RestoreOffer }),
  ),
);
const RestoredDialog = lazy(() =>
  Promise.all([import('../features/backups/restored-dialog'), loadNamespace('backups')]).then(
    ([m]) => ({ default: m.RestoredDialog }),
  ),
);
// Usage (with its chart library) is opened rarely: fetched only when it is.
const UsageScreen = lazy(() =>
  Promise.all([import('../features/usage/usage-screen'), loadNamespace('usage')]).then(([m]) => ({
    default: m.UsageScreen,
  })),
);

/**
 * The screen the app opens on, fetched as the page starts: alongside its first calls to main,
 * rather than once the connections have arrived and the shell asks for it.
 */
const FIRST_SCREEN_LOADERS: Partial<Record<ScreenId, () => Promise<unknown>>> = {
  chat: loadChat,
  embeddings: loadEmbeddings,
  images: loadImages,
  models: loadModels,
};

/**
 * How long after the shell appears the other screens are fetched. The first second is the
 * shown screen's: its chunk, its data and the composer's focus. Fetching (and running) the other
 * screens' scripts then made the window usable later; a screen opened before they are fetched
 * loads on its own.
 */
const PRELOAD_AFTER_MS = 1500;

function preloadScreens(): () => void {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    idle = requestIdleCallback(
      () => {
        void loadChat();
        void loadEmbeddings();
        void loadImages();
        void loadSettingsScreen();
        void loadModels();
      },
      { timeout: 1000 },
    );
  }, PRELOAD_AFTER_MS);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}

/** The screen shown, and what the keyboard shortcuts and the menu's commands ask for. */
function Root() {
  const hasConnections = useConnectStore(selectHasConnections);
  // After a restore, the page reloads into it: what was restored is then said in a dialog.
  const restored = useBackupsStore((state) => state.status?.restored !== undefined);
  const [screen, setScreen] = useState<ScreenId>(rememberedScreen);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [link, setLink] = useState<ConnectLink | undefined>();
  const current = useRef(screen);
  current.current = screen;
  useEffect(() => {
    // A failure here is the lazy screen's to show, when it asks for the same chunk.
    FIRST_SCREEN_LOADERS[current.current]?.().catch(() => undefined);
    return preloadScreens();
  }, []);
  useEffect(() => remember(SCREEN_KEY, screen), [screen]);

  // Links opened before the window was up wait in main; later ones are announced.
  useEffect(
    () =>
      watchAppLinks({
        onLink(taken) {
          setLink(taken);
          setScreen('connections');
        },
        // A quick ask continued here: its conversation, in Chat.
        onConversation(conversationId) {
          const switching = current.current !== 'chat';
          setScreen('chat');
          void openConversationInChat(conversationId, switching);
        },
      }),
    [],
  );
  useAppShortcuts({
    screen,
    onScreen: setScreen,
    sheetOpen,
    onSheet: setSheetOpen,
    connected: hasConnections,
  });

  return (
    <>
      <RootContent
        screen={screen}
        onScreen={setScreen}
        onShortcuts={() => setSheetOpen(true)}
        link={link}
        onLinkDone={() => setLink(undefined)}
      />
      <ShortcutSheet
        open={sheetOpen}
        platform={currentPlatform()}
        onClose={() => setSheetOpen(false)}
      />
      {restored && (
        <Suspense fallback={null}>
          <RestoredDialog />
        </Suspense>
      )}
    </>
  );
}

interface ScreenProps {
  screen: ScreenId;
  onScreen: (id: ScreenId) => void;
  onShortcuts: () => void;
  /** A `relay-desktop://connect` link waiting for the person. */
  link: ConnectLink | undefined;
  onLinkDone: () => void;
}

function RootContent({ screen, onScreen, onShortcuts, link, onLinkDone }: ScreenProps) {
  const status = useConnectStore((state) => state.status);
  const hasConnections = useConnectStore(selectHasConnections);
  const loadFailure = useConnectStore((state) => state.loadFailure);
  const t = useT();

  if (status === 'loading' && !hasConnections) {
    return (
      <main className="welcome" aria-busy="true">
        <p className="muted">
          <Spinner label={t('app.starting')} /> {t('app.starting')}
        </p>
      </main>
    );
  }
  if (status === 'failed' && !hasConnections) {
    return (
      <main className="welcome">
        <ReadFailure
          title={t('app.connectionsUnreadable')}
          message={loadFailure?.message}
          onRetry={() => void loadConnections()}
        />
      </main>
    );
  }
  if (!hasConnections) {
    // Connected from the first-run screen: a new chat, with the model that will answer and
    // suggested messages, is the way in (the models are one click away).
    return (
      <Suspense fallback={null}>
        <ConnectScreen onConnected={() => onScreen('chat')} link={link} onLinkDone={onLinkDone}>
          <Suspense fallback={null}>
            <RestoreOffer />
          </Suspense>
        </ConnectScreen>
      </Suspense>
    );
  }
  return (
    <Shell
      screen={screen}
      onScreen={onScreen}
      onShortcuts={onShortcuts}
      link={link}
      onLinkDone={onLinkDone}
    />
  );
}

/** What the dot beside the connection in use says: how its last request went. */
function healthText(
  health: ConnectionHealth | undefined,
  t: (key: MessageKey, values?: Record<string, string>) => string,
): string {
  if (!health) return t('health.none');
  if (health.state === 'ok') return t('health.ok');
  const title = failureTitle({ kind: health.kind ?? 'internal' });
  return health.message ? t('health.failed', { title, message: health.message }) : title;
}

function Shell({ screen, onScreen, onShortcuts, link, onLinkDone }: ScreenProps) {
  const active = useConnectStore(selectActiveConnection);
  const health = useConnectStore(selectActiveHealth);
  const toasts = useToastStore((state) => state.toasts);
  const toastFocusAsks = useToastStore((state) => state.focusAsks);
  const appVersion = readAppVersion();
  const main = useRef<HTMLElement>(null);
  const shown = useRef(screen);
  const t = useT();

  // After switching screens from the sidebar, keyboard and screen reader users start at the
  // top of the new screen rather than on the sidebar button.
  useEffect(() => {
    if (shown.current === screen) return;
    shown.current = screen;
    main.current?.focus();
  }, [screen]);

  const status = healthText(health, t);
  return (
    <div className="shell">
      <nav className="sidebar" aria-label={t('nav.label')}>
        <p className="brand">
          <span className="app-mark app-mark-small" aria-hidden="true" />
          <span className="brand-name">{t('app.name')}</span>
        </p>
        <ul className="nav-list">
          {SCREENS.map((candidate) => (
            <li key={candidate.id} className="nav-entry">
              <button
                type="button"
                className="nav-item"
                aria-current={candidate.id === screen ? 'page' : undefined}
                onClick={() => onScreen(candidate.id)}
              >
                <Icon name={candidate.id} />
                <span className="nav-label">{t(candidate.title)}</span>
              </button>
              <span className="tooltip" aria-hidden="true">
                {t(candidate.title)}
              </span>
            </li>
          ))}
        </ul>
        <div className="sidebar-footer">
          <BackupStatusBadge
            onOpen={() => {
              onScreen('settings');
              requestAnimationFrame(() => document.getElementById('backups')?.scrollIntoView());
            }}
          />
          <SyncStatusBadge
            onOpen={() => {
              onScreen('settings');
              requestAnimationFrame(() => document.getElementById('sync')?.scrollIntoView());
            }}
          />
          <UpdateBanner onDetails={() => onScreen('settings')} />
          {active && (
            <div className="nav-entry">
              <button
                type="button"
                className="active-connection"
                onClick={() => onScreen('connections')}
                title={status}
                aria-label={t(active.isDemo ? 'nav.inUseDemo' : 'nav.inUse', {
                  name: active.name,
                  status,
                })}
              >
                <span
                  className="status-dot"
                  data-state={health?.state ?? 'unknown'}
                  aria-hidden="true"
                />
                <span className="active-connection-name">{active.name}</span>
                {active.isDemo && <Badge tone="demo">{t('nav.demo')}</Badge>}
              </button>
              <span className="tooltip" aria-hidden="true">
                {t('nav.health', { name: active.name, status })}
              </span>
            </div>
          )}
          <div className="nav-entry">
            <button type="button" className="nav-item" onClick={onShortcuts}>
              <Icon name="keyboard" />
              <span className="nav-label">{t('nav.shortcuts')}</span>
            </button>
            <span className="tooltip" aria-hidden="true">
              {t('nav.shortcuts')}
            </span>
          </div>
          {appVersion && <p className="version">{t('nav.version', { version: appVersion })}</p>}
        </div>
      </nav>
      <main className="screen" ref={main} tabIndex={-1} aria-label={t(SCREEN_TITLES[screen])}>
        {screen === 'models' && !active && (
          <div className="page">
            <EmptyState
              title={t('models.noConnection.title')}
              actions={
                <button
                  type="button"
                  className="button button-primary"
                  onClick={() => onScreen('connections')}
                >
                  {t('models.noConnection.action')}
                </button>
              }
            >
              <p>{t('models.noConnection.body')}</p>
            </EmptyState>
          </div>
        )}
        <Suspense
          fallback={
            <div className="page">
              <Spinner label={t('app.loading')} />
            </div>
          }
        >
          {screen === 'models' && active && <ModelsScreen connection={active} />}
          {screen === 'images' && active && <ImagesScreen connection={active} />}
          {screen === 'chat' && <ChatScreen />}
          {screen === 'embeddings' && active && <EmbeddingsScreen connection={active} />}
          {screen === 'usage' && <UsageScreen onModels={() => onScreen('models')} />}
          {screen === 'settings' && <SettingsScreen testUrl={active?.baseUrl} />}
          {screen === 'connections' && <ConnectionsScreen link={link} onLinkDone={onLinkDone} />}
          {screen === 'knowledge' && <KnowledgeScreen />}
          {screen === 'tools' && <ToolsScreen />}
          {screen === 'prompts' && (
            <PromptsScreen
              onChatStarted={(id, starter) => {
                onScreen('chat');
                void openPromptChat(id, starter);
              }}
            />
          )}
        </Suspense>
      </main>
      <ToastRegion
        toasts={toasts}
        onDismiss={dismissToast}
        onHold={holdToast}
        focusAsks={toastFocusAsks}
      />
    </div>
  );
}
