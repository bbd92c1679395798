/**
 * One e2e spec file's lifecycle, in one call: `const suite = e2eSuite({ … })` at the top of the
 * file registers the hooks every spec needs, and the specs use what it holds.
 *
 * - before all: the browser session (`startE2e`), the demo relay with the file's options and keys,
 *   and a scratch folder if asked;
 * - before each: the relay reset (no faults, every key's balance full), so a retried spec starts
 *   as the first try did;
 * - after each: the app a spec opened is checked (every event main sent fits its schema in the
 *   contract; no page error, no CSP violation) and closed;
 * - after all: everything closed and removed.
 *
 * `suite.openApp(options)` opens the app for one spec; `suite.connect(options)` also connects it to
 * the relay; `suite.connected(ChatPage, options)` also opens that screen and waits until it can be
 * used. A file that keeps one app across its specs (a walk through every screen) calls
 * `suite.sharedApp(options)` inside its `describe`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../../electron/demo-relay/index';
import type { DemoRelayOptions } from '../../../electron/demo-relay/options';
import { ConnectPage, type ConnectionFields } from '../pages/connect-page';
import { expectEventsFitContract, expectHealthyPage } from './checks';
import { startE2e, type AppUnderTest, type E2eSession, type OpenAppOptions } from './harness';
import { newKey } from './relay';

export interface SuiteOptions {
  /**
   * The demo relay of this file: its options (its keys are the suite's), or false for none. By
   * default one that streams without pacing.
   */
  relay?: Omit<DemoRelayOptions, 'keys'> | false;
  /** How many keys the relay accepts (default 1): `suite.key` is the first, `suite.keys` all. */
  keys?: number;
  /** A scratch folder for files the specs write or read (`suite.scratch`), removed at the end. */
  scratch?: boolean;
  /** The name `connect` gives the connection unless told another (default "Test relay"). */
  connectionName?: string;
}

export interface SuiteAppOptions extends OpenAppOptions {
  /**
   * Whether the page must stay healthy (no uncaught error, no CSP violation), checked when the
   * spec ends. On unless a spec causes a violation on purpose.
   */
  healthyPage?: boolean;
}

export interface ConnectOptions extends SuiteAppOptions, ConnectionFields {
  /** Runs once the connection is saved, before the page loads (to seed main's stores). */
  seed?(app: Pick<AppUnderTest, 'services'>): void | Promise<void>;
}

/** A screen's page object, as `connected` opens it. */
export interface Screen {
  open(): Promise<void>;
  /** Waits until the screen can be used (its model chosen, say). */
  ready?(): Promise<void>;
}

export interface ConnectedOptions extends ConnectOptions {
  /** Whether to wait for the screen's `ready` (default true). */
  ready?: boolean;
}

export interface E2eSuite {
  readonly e2e: E2eSession;
  readonly relay: DemoRelay;
  /** The relay's first key; `keys` holds them all. Known from the start (not only in hooks). */
  readonly key: string;
  readonly keys: readonly string[];
  readonly scratch: string;
  /** The app the running spec opened. */
  readonly app: AppUnderTest;
  openApp(options?: SuiteAppOptions): Promise<AppUnderTest>;
  /**
   * Checks the running spec's app and closes it, so that the spec can open another (a restart
   * on the same user data folder, a fresh app to import into).
   */
  closeApp(): Promise<void>;
  /** Opens the app and connects it to the suite's relay on the first-run screen. */
  connect(options?: ConnectOptions): Promise<AppUnderTest>;
  /** Connects an app that is already open (a shared one) to the suite's relay. */
  connectApp(app: AppUnderTest, fields?: ConnectionFields): Promise<void>;
  /** Opens the app, connects, opens the screen and waits until it is ready. */
  connected<S extends Screen>(
    ScreenPage: new (page: Page) => S,
    options?: ConnectedOptions,
  ): Promise<S>;
  /**
   * One app for every spec of the `describe` this is called in: opened before its first spec,
   * checked and closed after its last. Read it as `.app` inside the specs.
   */
  sharedApp(options?: SuiteAppOptions | (() => SuiteAppOptions)): { readonly app: AppUnderTest };
}

function notYet(what: string): never {
  throw new Error(
    `suite.${what} is used before it exists: use it inside a spec or a hook, not while the file loads` +
      (what === 'relay' || what === 'scratch'
        ? `, and ask e2eSuite for it (${what === 'relay' ? 'relay is off' : 'scratch: true'}).`
        : '.'),
  );
}

async function checkAndClose({ app, healthy }: { app: AppUnderTest; healthy: boolean }) {
  try {
    expectEventsFitContract(app.messages);
    if (healthy) expectHealthyPage(app);
  } finally {
    await app.close();
  }
}

export function e2eSuite(options: SuiteOptions = {}): E2eSuite {
  const keys = Array.from({ length: options.keys ?? 1 }, () => newKey());
  const relayOptions = options.relay === false ? undefined : (options.relay ?? {});
  const balance = relayOptions?.balance ?? 100;
  let e2e: E2eSession | undefined;
  let relay: DemoRelay | undefined;
  let scratch: string | undefined;
  /** The app the running spec opened, and whether its page must stay healthy. */
  let current: { app: AppUnderTest; healthy: boolean } | undefined;

  beforeAll(async () => {
    [e2e, relay, scratch] = await Promise.all([
      startE2e(),
      relayOptions && startDemoRelay({ tokensPerSecond: 0, ...relayOptions, keys }),
      options.scratch ? mkdtemp(join(tmpdir(), 'relay-e2e-scratch-')) : undefined,
    ]);
  });
  beforeEach(() => {
    relay?.setFaults(undefined);
    for (const key of keys) relay?.setBalance(key, balance);
  });
  afterEach(async () => {
    relay?.setFaults(undefined);
    await closeCurrent();
  });
  afterAll(async () => {
    await Promise.all([e2e?.close(), relay?.close()]);
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  async function closeCurrent(): Promise<void> {
    const spec = current;
    current = undefined;
    if (spec) await checkAndClose(spec);
  }

  const session = () => e2e ?? notYet('e2e');
  const suiteRelay = () => relay ?? notYet('relay');

  async function open({ healthyPage, ...appOptions }: SuiteAppOptions = {}) {
    const app = await session().openApp(appOptions);
    return { app, healthy: healthyPage ?? true };
  }

  const suite: E2eSuite = {
    get e2e() {
      return session();
    },
    get relay() {
      return suiteRelay();
    },
    key: keys[0]!,
    keys,
    get scratch() {
      return scratch ?? notYet('scratch');
    },
    get app() {
      return current?.app ?? notYet('app');
    },

    async openApp(appOptions) {
      if (current) throw new Error('suite.openApp: this spec has opened the app already.');
      current = await open(appOptions);
      return current.app;
    },

    closeApp: closeCurrent,

    // The connection is saved through main before the page loads, as by a person who connected in
    // an earlier session: typing it into the first-run form costs a second or more of the
    // browser's time per spec. The form itself is walked by the specs of the first run and the
    // connections (`connectApp`).
    async connect({ seed, name, baseUrl, apiKey, consoleUrl, beforeLoad, ...appOptions } = {}) {
      return suite.openApp({
        // Left on the chat, where the first-run form lands.
        lastScreen: 'chat',
        ...appOptions,
        async beforeLoad(services) {
          await services.connections.create({
            name: name ?? options.connectionName ?? 'Test relay',
            baseUrl: baseUrl ?? suiteRelay().url,
            apiKey: apiKey ?? keys[0]!,
            ...(consoleUrl === undefined ? {} : { consoleUrl }),
          });
          await seed?.({ services });
          await beforeLoad?.(services);
        },
      });
    },

    async connectApp(app, { name, baseUrl, apiKey, consoleUrl } = {}) {
      const connect = new ConnectPage(app.page);
      await connect.waitUntilShown();
      await connect.connect({
        name: name ?? options.connectionName ?? 'Test relay',
        baseUrl: baseUrl ?? suiteRelay().url,
        apiKey: apiKey ?? keys[0]!,
        ...(consoleUrl === undefined ? {} : { consoleUrl }),
      });
    },

    async connected(ScreenPage, { ready = true, ...connectOptions } = {}) {
      const app = await suite.connect(connectOptions);
      const screen = new ScreenPage(app.page);
      await screen.open();
      if (ready) await screen.ready?.();
      return screen;
    },

    sharedApp(appOptions) {
      let shared: { app: AppUnderTest; healthy: boolean } | undefined;
      beforeAll(async () => {
        shared = await open(typeof appOptions === 'function' ? appOptions() : appOptions);
      });
      afterAll(async () => {
        if (shared) await checkAndClose(shared);
      });
      return {
        get app() {
          return shared?.app ?? notYet('sharedApp().app');
        },
      };
    },
  };
  return suite;
}
