/**
 * Sync as the app wires it, through the real router and bridge: two computers (two user data
 * folders, each with its own keychain) syncing through a folder chosen in main's dialog, set up
 * and joined by the routes, the background job, and every refusal a page can meet.
 */
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dialogs } from '../../electron/main/app-context';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { ChatStore } from '../../electron/main/services/chat/store';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { checkedEvents } from '../fakes/contract-events';
import { pageBridge, type PageBridge } from '../fakes/page-bridge';
import { startWebdav, type RunningWebdav } from '../fakes/sync-servers';

const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 7 };
const stranger = { url: 'https://evil.example/', isMainFrame: true, webContentsId: 9 };
const TEST_COST = { N: 2 ** 12, r: 8, p: 1 };

interface Computer {
  dir: string;
  secrets: MemorySecretStore;
  services: AppServices;
  api: PageBridge;
  events: Array<{ channel: string; payload: unknown }>;
  dispatch(channel: string, payload: unknown, from?: typeof sender): Promise<unknown>;
  /** The folder main's dialog answers next (undefined: the person cancels). */
  folder: string | undefined;
  /** The files main's open dialog answers next. */
  paths: string[];
}

let root: string;
let storage: string;
let open: Computer[] = [];

async function computer(
  name: string,
  options: {
    dir?: string;
    secrets?: MemorySecretStore;
    background?: boolean;
    /** The background job's timer, where a test looks at what else starts a sync. */
    intervalMs?: number;
  } = {},
): Promise<Computer> {
  const dir = options.dir ?? join(root, name);
  const secrets = options.secrets ?? new MemorySecretStore();
  const events: Computer['events'] = [];
  const self = { dir, secrets, events, folder: storage, paths: [] } as unknown as Computer;
  const dialogs: Dialogs = {
    chooseSavePath: async () => undefined,
    chooseOpenPaths: async () => self.paths,
    chooseFolder: async () => self.folder,
  };
  self.services = await createAppServices({
    userDataDir: dir,
    secretStore: secrets,
    dialogs,
    emit: checkedEvents((channel, payload) => events.push({ channel, payload })),
    syncSeams: {
      scryptCost: TEST_COST,
      deviceLabel: name,
      // The background job only where a test looks at it; elsewhere the routes drive each sync.
      timing: options.background
        ? {
            startDelayMs: 20,
            debounceMs: 30,
            pollMs: 20,
            maxWaitMs: 200,
            intervalMs: options.intervalMs ?? 150,
            paceMs: 10,
          }
        : { startDelayMs: 3_600_000, pollMs: 3_600_000, intervalMs: 3_600_000 },
    },
  });
  const router = createRouter(ROUTES, self.services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [7]),
  });
  self.dispatch = (channel, payload, from = sender) => router.dispatch(channel, payload, from);
  self.api = pageBridge(
    (channel, payload) => router.dispatch(channel, payload, sender),
    () => () => undefined,
    (channel, payload) => void router.receive(channel, payload, sender),
  );
  open.push(self);
  return self;
}

/**
 * The first computer of a new sync through a folder, syncing in the background with no timer to
 * bring a sync (an hour): only a change does.
 */
async function syncingOnChangesOnly(): Promise<{ a: Computer; phrase: string }> {
  const a = await computer('a', { background: true, intervalMs: 3_600_000 });
  await a.api.chooseSyncFolder();
  const { phrase } = await a.api.startNewSync({ target: { kind: 'folder' } });
  await vi.waitFor(async () => expect((await a.api.getSyncStatus()).firstSyncDone).toBe(true));
  return { a, phrase };
}

/** Waits until `times` of the computer's syncs have sent changes of `kind`. */
async function untilSent(c: Computer, kind: string, times: number): Promise<void> {
  const sending = async () =>
    (await c.api.getSyncHistory()).filter(
      (report: { sent: Record<string, number> }) => (report.sent[kind] ?? 0) > 0,
    ).length;
  await vi.waitFor(async () => expect(await sending()).toBe(times), {
    timeout: 20_000,
    interval: 50,
  });
}

async function closeAll() {
  for (const c of open) await c.services.close();
  open = [];
}

async function filesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true })).sort();
  } catch {
    return [];
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'relay-sync-app-'));
  storage = join(root, 'Dropbox', 'Relay');
  await mkdir(storage, { recursive: true });
});
afterEach(async () => {
  await closeAll();
  await rm(root, { recursive: true, force: true });
});

describe('sync routes refuse what a page must not ask', () => {
  it('refuses a path, an unknown storage, a bad address or bucket, and a stranger', async () => {
    const a = await computer('a');
    const refused = async (channel: string, payload: unknown, from = sender) => {
      const answer = (await a.dispatch(channel, payload, from)) as {
        ok: boolean;
        error?: { kind: string };
      };
      expect(answer.ok, `${channel} ${JSON.stringify(payload)}`).toBe(false);
      return answer.error!.kind;
    };
    // The page never names the folder: a path beside the kind is refused.
    expect(await refused('sync:start-new', { target: { kind: 'folder', location: '/etc' } })).toBe(
      'invalid_request',
    );
    expect(await refused('sync:test', { target: { kind: 'ftp' } })).toBe('invalid_request');
    expect(
      await refused('sync:test', {
        target: { kind: 'webdav', url: 'file:///etc/passwd', username: 'x', password: 'y' },
      }),
    ).toBe('invalid_request');
    expect(
      await refused('sync:test', {
        target: {
          kind: 's3',
          endpoint: 'https://s3.example',
          region: 'eu',
          bucket: '../Up',
          accessKeyId: 'id',
          secretAccessKey: 's',
        },
      }),
    ).toBe('invalid_request');
    expect(await refused('sync:join', { target: { kind: 'folder' } })).toBe('invalid_request');
    expect(await refused('sync:pause', { paused: 'yes' })).toBe('invalid_request');
    expect(await refused('sync:history', { limit: 10_000 })).toBe('invalid_request');
    expect(await refused('sync:status', undefined, stranger)).toBe('forbidden');
    expect(await refused('sync:choose-folder', undefined, stranger)).toBe('forbidden');
    expect(await filesIn(storage)).toEqual([]);
  });

  it('says what is missing: no folder chosen, no secret, not set up', async () => {
    const a = await computer('a');
    a.folder = undefined;
    expect(await a.api.chooseSyncFolder()).toEqual({ cancelled: true });
    await expect(a.api.startNewSync({ target: { kind: 'folder' } })).rejects.toMatchObject({
      messageId: 'sync.setup.noFolder',
    });
    await expect(
      a.api.testSyncTarget({
        target: { kind: 'webdav', url: 'https://dav.example/', username: 'me' },
      }),
    ).rejects.toMatchObject({ messageId: 'sync.setup.noSecret' });
    await expect(a.api.syncNow()).rejects.toMatchObject({ messageId: 'sync.setup.off' });
    await expect(a.api.setSyncPaused({ paused: true })).rejects.toMatchObject({
      messageId: 'sync.setup.off',
    });
    expect((await a.api.getSyncStatus()).state).toBe('off');
    expect(await a.api.getSyncHistory()).toEqual([]);
  });

  it('joining an empty storage, or with a wrong phrase, writes nothing anywhere', async () => {
    const a = await computer('a');
    await a.api.chooseSyncFolder();
    const phrase = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
    await expect(a.api.joinSync({ target: { kind: 'folder' }, phrase })).rejects.toMatchObject({
      messageId: 'sync.setup.storageEmpty',
    });
    expect(await filesIn(storage)).toEqual([]);

    const b = await computer('b');
    await b.api.chooseSyncFolder();
    const { phrase: right } = await b.api.startNewSync({ target: { kind: 'folder' } });
    await b.api.syncNow();
    const before = await filesIn(storage);
    await expect(a.api.joinSync({ target: { kind: 'folder' }, phrase })).rejects.toMatchObject({
      messageId: 'sync.phrase.wrong',
    });
    // A mistyped word is named before any key is derived.
    await expect(
      a.api.joinSync({
        target: { kind: 'folder' },
        phrase: right.replace(/^\S+/, 'lgeal'),
      }),
    ).rejects.toMatchObject({ messageId: 'sync.phrase.unknownWord' });
    expect(await filesIn(storage)).toEqual(before);
    expect((await a.api.getSyncStatus()).state).toBe('off');
    expect(await exists(join(a.dir, 'sync.json'))).toBe(false);
    expect(await a.secrets.getAll()).toEqual(new Map());
    // A storage in use is not set up anew over the other computer's data.
    await expect(a.api.startNewSync({ target: { kind: 'folder' } })).rejects.toMatchObject({
      messageId: 'sync.setup.storageInUse',
    });
    expect(await filesIn(storage)).toEqual(before);
  });
});

describe('two computers syncing through a folder', () => {
  it('sets up with a phrase shown once, joins with it, and both keep each other’s changes', async () => {
    const laptop = await computer('laptop');
    const chosen = await laptop.api.chooseSyncFolder();
    expect(chosen).toEqual({ cancelled: false, location: storage });
    expect(await laptop.api.testSyncTarget({ target: { kind: 'folder' } })).toEqual({ ok: true });
    const made = await laptop.api.createConversation({ title: 'Ferry times' });
    const started = await laptop.api.startNewSync({ target: { kind: 'folder' } });
    expect(started.phrase.split(' ')).toHaveLength(12);
    expect(started.status).toMatchObject({
      state: expect.stringMatching(/idle|syncing/),
      target: { kind: 'folder', location: storage },
    });
    // The phrase is kept nowhere: not in the status, the settings or the keychain.
    const words = started.phrase.split(' ');
    expect(JSON.stringify(await laptop.api.getSyncStatus())).not.toContain(words.join(' '));
    for (const secret of (await laptop.secrets.getAll()).values())
      expect(secret).not.toContain(words[0]);
    expect(await readFile(join(laptop.dir, 'sync.json'), 'utf8')).not.toContain(words[0]);
    expect([...(await laptop.secrets.getAll()).keys()].sort()).toEqual(['sync.device', 'sync.key']);

    await laptop.api.syncNow();
    const desktop = await computer('desktop');
    await desktop.api.chooseSyncFolder();
    const joined = await desktop.api.joinSync({
      target: { kind: 'folder' },
      // As a person types it: spaces and capitals.
      phrase: `  ${started.phrase.toUpperCase().replace(/ /g, '   ')} `,
    });
    expect(joined.state).not.toBe('off');
    const first = await desktop.api.syncNow();
    expect(first).toMatchObject({ state: 'idle', firstSyncDone: true, problem: null });
    expect(first.devices).toBeGreaterThanOrEqual(1);
    const listed = await desktop.api.listConversations();
    expect(listed.map((c: { title: string }) => c.title)).toContain('Ferry times');
    const history = await desktop.api.getSyncHistory();
    expect(history[0]).toMatchObject({ ok: true });
    expect(history[0]!.applied.conversation).toBeGreaterThanOrEqual(1);
    expect(desktop.events.some((e) => e.channel === 'chat:conversations-changed')).toBe(true);
    expect(desktop.events.some((e) => e.channel === 'sync:status-changed')).toBe(true);

    // Both answer while apart; both keep both answers.
    const question = new ChatStore(laptop.services.db).append(made.id, [
      { role: 'user', content: 'When does it leave?', status: 'complete' },
    ])[0]!;
    await laptop.api.syncNow();
    await desktop.api.syncNow();
    new ChatStore(laptop.services.db).append(
      made.id,
      [{ role: 'assistant', content: 'At seven.', status: 'complete' }],
      question.id,
    );
    new ChatStore(desktop.services.db).append(
      made.id,
      [{ role: 'assistant', content: 'Hourly.', status: 'complete' }],
      question.id,
    );
    await desktop.api.renameConversation({ id: made.id, title: 'Ferry, renamed' });
    for (const c of [laptop, desktop, laptop]) await c.api.syncNow();
    for (const c of [laptop, desktop]) {
      const replies = new ChatStore(c.services.db)
        .children(question.id)
        .map((m) => m.content)
        .sort();
      expect(replies).toEqual(['At seven.', 'Hourly.']);
      expect((await c.api.getConversation({ id: made.id })).conversation.title).toBe(
        'Ferry, renamed',
      );
    }
    // The storage holds only ciphertext.
    for (const name of await filesIn(storage)) {
      if (name === 'keyring' || (await stat(join(storage, name))).isDirectory()) continue;
      const bytes = await readFile(join(storage, name));
      for (const word of ['Ferry', 'seven', 'Hourly', 'laptop'])
        expect(bytes.includes(word), `${name} holds ${word}`).toBe(false);
    }
  });

  it('sets up on a data folder written by 0.1: its conversations reach a new computer', async () => {
    // The previous release's folder (tests/fixtures/data-0.1) gets sync's tables at set-up.
    const dir = join(root, 'old-release');
    await cp(join(import.meta.dirname, '../fixtures/data-0.1/user-data'), dir, { recursive: true });
    const old = await computer('old-release', { dir });
    const titles = (await old.api.listConversations()).map((c: { title: string }) => c.title);
    expect(titles.length).toBeGreaterThan(0);
    await old.api.chooseSyncFolder();
    const started = await old.api.startNewSync({ target: { kind: 'folder' } });
    expect(await old.api.syncNow()).toMatchObject({ state: 'idle', problem: null });

    const fresh = await computer('fresh');
    await fresh.api.chooseSyncFolder();
    await fresh.api.joinSync({ target: { kind: 'folder' }, phrase: started.phrase });
    expect(await fresh.api.syncNow()).toMatchObject({ state: 'idle', problem: null });
    const arrived = (await fresh.api.listConversations()).map((c: { title: string }) => c.title);
    expect(arrived.sort()).toEqual([...titles].sort());
  });

  it('pauses, resumes and turns off: the storage and the data stay, the key goes', async () => {
    const a = await computer('a');
    await a.api.chooseSyncFolder();
    await a.api.startNewSync({ target: { kind: 'folder' } });
    await a.api.syncNow();
    expect((await a.api.setSyncPaused({ paused: true })).state).toBe('paused');
    expect((await a.api.getSyncStatus()).state).toBe('paused');
    expect((await a.api.setSyncPaused({ paused: false })).state).not.toBe('paused');
    const inStorage = await filesIn(storage);
    expect((await a.api.turnOffSync()).state).toBe('off');
    expect(await a.secrets.getAll()).toEqual(new Map());
    expect(await exists(join(a.dir, 'sync.json'))).toBe(false);
    expect(await filesIn(storage)).toEqual(inStorage);
    expect(await a.api.getSyncHistory()).toEqual([]);
    // Turned off, changes are no longer tracked.
    await a.api.createConversation({ title: 'After' });
    expect(a.services.db.one<{ n: number }>('SELECT count(*) AS n FROM sync_dirty')!.n).toBe(0);
  });

  it('syncs by itself after a change, and stops cleanly when the app quits', async () => {
    const a = await computer('a', { background: true });
    await a.api.chooseSyncFolder();
    const { phrase } = await a.api.startNewSync({ target: { kind: 'folder' } });
    await vi.waitFor(async () => expect((await a.api.getSyncStatus()).firstSyncDone).toBe(true));
    const b = await computer('b', { background: true });
    await b.api.chooseSyncFolder();
    await b.api.joinSync({ target: { kind: 'folder' }, phrase });
    await a.api.createConversation({ title: 'Made on A, synced by itself' });
    await vi.waitFor(
      async () => {
        const titles = (await b.api.listConversations()).map((c: { title: string }) => c.title);
        expect(titles).toContain('Made on A, synced by itself');
      },
      { timeout: 20_000, interval: 50 },
    );
    await closeAll();
    // Closed mid-job: nothing more is written to the storage.
    const after = await filesIn(storage);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await filesIn(storage)).toEqual(after);
  });

  it('syncs by itself after a connection is added, renamed or edited', async () => {
    const { a, phrase } = await syncingOnChangesOnly();
    const made = await a.api.createConnection({
      name: 'Relay',
      baseUrl: 'https://relay.example.com',
    });
    await untilSent(a, 'connection', 1);
    await a.api.updateConnection({ id: made.id, changes: { name: 'Relay (EU)' } });
    await untilSent(a, 'connection', 2);
    await a.api.updateConnection({
      id: made.id,
      changes: { headers: [{ name: 'X-Team', value: 'blue' }] },
    });
    await untilSent(a, 'connection', 3);
    // What those syncs sent is what another computer gets.
    const b = await computer('b');
    await b.api.chooseSyncFolder();
    await b.api.joinSync({ target: { kind: 'folder' }, phrase });
    expect((await b.api.syncNow()).problem).toBeNull();
    expect(await b.api.listConnections()).toMatchObject([
      { name: 'Relay (EU)', headers: [{ name: 'X-Team', value: 'blue' }] },
    ]);
  });

  it('starts as a new computer when its database was copied from another', async () => {
    const a = await computer('a');
    await a.api.chooseSyncFolder();
    const { phrase } = await a.api.startNewSync({ target: { kind: 'folder' } });
    await a.api.createConversation({ title: 'Only once' });
    await a.api.syncNow();
    const b = await computer('b');
    await b.api.chooseSyncFolder();
    await b.api.joinSync({ target: { kind: 'folder' }, phrase });
    await b.api.syncNow();
    const [deviceA, deviceB] = [
      await a.secrets.get('sync.device'),
      await b.secrets.get('sync.device'),
    ];
    expect(deviceA).not.toBe(deviceB);
    await closeAll();
    // A's data folder copied over B's: B's keychain still says which computer it is.
    await rm(join(root, 'b'), { recursive: true });
    await cp(join(root, 'a'), join(root, 'b'), { recursive: true });
    const bAgain = await computer('b', { secrets: b.secrets });
    const copied = await bAgain.api.syncNow();
    expect(copied.problem).toBeNull();
    const device = await b.secrets.get('sync.device');
    expect(device).not.toBe(deviceA);
    expect(
      bAgain.services.db.one<{ value: string }>("SELECT value FROM sync_state WHERE key = 'device'")
        ?.value,
    ).toBe(device);
    const aAgain = await computer('a', { secrets: a.secrets });
    expect((await aAgain.api.syncNow()).problem).toBeNull();
    for (const c of [aAgain, bAgain]) {
      const titles = (await c.api.listConversations()).map((x: { title: string }) => x.title);
      expect(titles.filter((t) => t === 'Only once')).toHaveLength(1);
    }
  });

  it('asks to join again when the key has gone from the keychain', async () => {
    const a = await computer('a');
    await a.api.chooseSyncFolder();
    await a.api.startNewSync({ target: { kind: 'folder' } });
    await closeAll();
    const again = await computer('a', { secrets: new MemorySecretStore() });
    expect(await again.api.getSyncStatus()).toMatchObject({
      state: 'attention',
      problem: { messageId: 'sync.setup.keyMissing' },
    });
    expect((await again.api.turnOffSync()).state).toBe('off');
  });
});

describe('connections, knowledge bases and prices', () => {
  async function pair() {
    const laptop = await computer('laptop');
    await laptop.api.chooseSyncFolder();
    const { phrase } = await laptop.api.startNewSync({ target: { kind: 'folder' } });
    const desktop = await computer('desktop');
    await desktop.api.chooseSyncFolder();
    await desktop.api.joinSync({ target: { kind: 'folder' }, phrase });
    // The first syncs (set-up and join start one each) end before the test goes on.
    await round(laptop, desktop);
    return { laptop, desktop };
  }
  async function round(...computers: Computer[]) {
    for (const c of computers) expect(await c.api.syncNow()).toMatchObject({ problem: null });
  }

  it('syncs a connection without its key: asked once by name, then kept apart', async () => {
    const { laptop, desktop } = await pair();
    const KEY = 'sk-laptop-only-0123456789';
    const HEADER = 'gateway-secret-value';
    const made = await laptop.api.createConnection({
      name: 'Work relay',
      baseUrl: 'https://relay.example.com',
      apiKey: KEY,
      consoleUrl: 'https://console.example.com',
      headers: [
        { name: 'X-Team', value: 'blue' },
        { name: 'X-Gateway-Key', value: HEADER, secret: true },
      ],
    });
    await round(laptop, desktop);
    const there = await desktop.api.listConnections();
    expect(there).toHaveLength(1);
    expect(there[0]).toMatchObject({
      name: 'Work relay',
      baseUrl: 'https://relay.example.com',
      consoleUrl: 'https://console.example.com',
      hasKey: false,
      // A secret header cannot be kept without its value: it is asked for with the key.
      headers: [{ name: 'X-Team', secret: false, value: 'blue' }],
    });
    expect(desktop.events.some((e) => e.channel === 'connections:changed')).toBe(true);
    // Neither the key nor the secret header left the laptop: not in the storage, not here.
    for (const name of await filesIn(storage)) {
      if ((await stat(join(storage, name))).isDirectory()) continue;
      const bytes = await readFile(join(storage, name));
      expect(bytes.includes(KEY) || bytes.includes(HEADER)).toBe(false);
    }
    expect([...(await desktop.secrets.getAll()).values()].join()).not.toContain(KEY);
    // Asked for once, by name.
    const needed = await desktop.api.getSyncKeysNeeded();
    expect(needed).toEqual([
      { id: there[0]!.id, name: 'Work relay', key: true, headers: ['X-Gateway-Key'] },
    ]);
    await desktop.api.updateConnection({
      id: there[0]!.id,
      changes: {
        apiKey: 'sk-desktop-own-9876543210',
        headers: [
          { name: 'X-Team', value: 'blue' },
          { name: 'X-Gateway-Key', value: 'desktop-gateway', secret: true },
        ],
      },
    });
    await desktop.api.syncKeyAsked({ id: there[0]!.id });
    expect(await desktop.api.getSyncKeysNeeded()).toEqual([]);
    expect(await laptop.api.getSyncKeysNeeded()).toEqual([]);

    // A rename here and a new address there, both arrive; syncing again doubles nothing.
    await laptop.api.updateConnection({ id: made.id, changes: { name: 'Work relay (EU)' } });
    await round(laptop, desktop, laptop, desktop);
    for (const c of [laptop, desktop]) {
      const list = await c.api.listConnections();
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ name: 'Work relay (EU)' });
    }
    // Each computer keeps its own key.
    expect((await laptop.api.listConnections())[0]!.keyLast4).toBe('6789');
    expect((await desktop.api.listConnections())[0]!.keyLast4).toBe('3210');

    // Deleted on the desktop: gone on the laptop too, its key with it.
    await desktop.api.deleteConnection({ id: there[0]!.id });
    await round(desktop, laptop, desktop);
    expect(await laptop.api.listConnections()).toEqual([]);
    expect(await desktop.api.listConnections()).toEqual([]);
    expect(await laptop.secrets.get(made.id)).toBeUndefined();
  });

  it('syncs a knowledge base’s sources and settings; a file not on this computer is missing', async () => {
    const { laptop, desktop } = await pair();
    await laptop.api.createConnection({ name: 'Relay', baseUrl: 'https://relay.example.com' });
    // One file both computers have at the same place, one only the laptop has.
    const shared = join(root, 'Shared', 'handbook.md');
    await mkdir(join(root, 'Shared'), { recursive: true });
    await writeFile(shared, '# Handbook\n\nThe ferry leaves at seven.\n');
    const own = join(laptop.dir, 'private-notes.md');
    await writeFile(own, '# Notes\n');
    const base = await laptop.api.createKnowledgeBase({ name: 'Travel', model: 'embed-small' });
    laptop.paths = [shared, own];
    await laptop.api.addKnowledgeSources({ id: base.id, kind: 'files' });
    await round(laptop);
    // As if on another computer: the laptop's own file is not there.
    await rm(own);
    await round(desktop);
    const bases = await desktop.api.listKnowledgeBases();
    expect(bases).toHaveLength(1);
    expect(bases[0]).toMatchObject({ name: 'Travel', model: 'embed-small' });
    // Its connection came too, and the base uses it.
    const relay = (await desktop.api.listConnections())[0]!;
    expect(bases[0]!.connectionId).toBe(relay.id);
    const detail = await desktop.api.getKnowledgeBase({ id: bases[0]!.id });
    const sources = detail.sources.map((s) => [s.path, s.missing === true]);
    expect(sources.sort()).toEqual(
      [
        [own, true],
        [shared, false],
      ].sort(),
    );
    expect((await desktop.api.getSyncHistory())[0]!.applied.knowledge).toBe(1);

    // Renamed on the desktop, a source removed there: both arrive; nothing is made twice.
    await desktop.api.renameKnowledgeBase({ id: bases[0]!.id, name: 'Travel notes' });
    const missing = detail.sources.find((s) => s.missing)!;
    await desktop.api.removeKnowledgeSource({ id: bases[0]!.id, sourceId: missing.id });
    await round(desktop, laptop, desktop, laptop);
    for (const c of [laptop, desktop]) {
      const list = await c.api.listKnowledgeBases();
      expect(list.map((b: { name: string }) => b.name)).toEqual(['Travel notes']);
      const d = await c.api.getKnowledgeBase({ id: list[0]!.id });
      expect(d.sources.map((s) => s.path)).toEqual([shared]);
    }
  });

  it('syncs by itself after a knowledge base is made, renamed or given sources', async () => {
    const { a } = await syncingOnChangesOnly();
    await a.api.createConnection({ name: 'Relay', baseUrl: 'https://relay.example.com' });
    const base = await a.api.createKnowledgeBase({ name: 'Travel', model: 'embed-small' });
    await untilSent(a, 'knowledge', 1);
    await a.api.renameKnowledgeBase({ id: base.id, name: 'Travel notes' });
    await untilSent(a, 'knowledge', 2);
    const handbook = join(root, 'handbook.md');
    await writeFile(handbook, '# Handbook\n\nThe ferry leaves at seven.\n');
    a.paths = [handbook];
    await a.api.addKnowledgeSources({ id: base.id, kind: 'files' });
    await untilSent(a, 'knowledge', 3);
  });

  it('makes a knowledge base whose connection arrives in a later sync than the base', async () => {
    const laptop = await computer('laptop');
    await laptop.api.chooseSyncFolder();
    const { phrase } = await laptop.api.startNewSync({ target: { kind: 'folder' } });
    const tablet = await computer('tablet');
    await tablet.api.chooseSyncFolder();
    await tablet.api.joinSync({ target: { kind: 'folder' }, phrase });
    // The first syncs (set-up and join start one each) end before the test goes on.
    await round(laptop, tablet);
    await laptop.api.createConnection({ name: 'Relay', baseUrl: 'https://relay.example.com' });
    await round(laptop, tablet);
    // The tablet builds a base on the connection the laptop made.
    await tablet.api.createKnowledgeBase({ name: 'Harbour', model: 'embed-small' });
    await round(tablet);
    // A third computer joins while its copy of the storage (a synced folder, which fills in
    // any order) has the tablet's changes but not yet the laptop's.
    const laptopHead = laptop.services.db.one<{ value: string }>(
      "SELECT value FROM sync_state WHERE key = 'head'",
    )!.value;
    const aside = join(root, 'not-arrived-yet');
    await rename(join(storage, laptopHead), aside);
    const desktop = await computer('desktop');
    await desktop.api.chooseSyncFolder();
    await desktop.api.joinSync({ target: { kind: 'folder' }, phrase });
    await round(desktop);
    // The base waits for its connection; it is not made on a connection that is not here.
    expect(await desktop.api.listKnowledgeBases()).toEqual([]);
    await rename(aside, join(storage, laptopHead));
    await round(desktop);
    const relay = (await desktop.api.listConnections())[0]!;
    const bases = await desktop.api.listKnowledgeBases();
    expect(bases).toHaveLength(1);
    expect(bases[0]).toMatchObject({
      name: 'Harbour',
      model: 'embed-small',
      connectionId: relay.id,
    });
    // Nothing is made twice, and nothing goes back changed.
    await round(desktop, laptop, tablet, desktop);
    for (const c of [laptop, tablet, desktop]) {
      expect((await c.api.listKnowledgeBases()).map((b: { name: string }) => b.name)).toEqual([
        'Harbour',
      ]);
      expect(await c.api.listConnections()).toHaveLength(1);
    }
  });

  it('makes a knowledge base on the demo relay on the other computer’s own demo relay, never waiting for it', async () => {
    const { laptop, desktop } = await pair();
    await laptop.api.startDemoRelay();
    const made = await laptop.api.createKnowledgeBase({
      name: 'Demo notes',
      model: 'demo-embedding',
    });
    await round(laptop, desktop);
    // The demo relay runs on each computer on a port of its own: the base is made on this
    // computer's, not kept waiting for the laptop's (which never syncs).
    const bases = await desktop.api.listKnowledgeBases();
    expect(bases.map((b: { name: string }) => b.name)).toEqual([made.name]);
    const connections = await desktop.api.listConnections();
    expect(connections.map((c: { isDemo: boolean }) => c.isDemo)).toEqual([true]);
    expect(bases[0]!.connectionId).toBe(connections[0]!.id);
    // Nothing goes back changed, and nothing is made twice.
    await round(desktop, laptop, desktop, laptop);
    for (const c of [laptop, desktop]) {
      expect((await c.api.listKnowledgeBases()).map((b: { name: string }) => b.name)).toEqual([
        made.name,
      ]);
      const list = await c.api.listConnections();
      expect(list.map((x: { isDemo: boolean }) => x.isDemo)).toEqual([true]);
      expect((await c.api.listKnowledgeBases())[0]!.connectionId).toBe(list[0]!.id);
    }
  });

  it('tells the page when prices changed on another computer', async () => {
    const { laptop, desktop } = await pair();
    await round(laptop, desktop);
    await laptop.api.setModelPrice({
      modelId: 'gpt-test',
      price: { inputPerMillion: 1.5, outputPerMillion: 6 },
    });
    desktop.events.length = 0;
    await round(laptop, desktop);
    await vi.waitFor(() =>
      expect(
        desktop.events.find((e) => e.channel === 'models:prices-changed')?.payload,
      ).toMatchObject({ prices: { 'gpt-test': { inputPerMillion: 1.5, outputPerMillion: 6 } } }),
    );
  });
});

describe('a storage with a secret', () => {
  let webdav: RunningWebdav;
  beforeAll(async () => {
    webdav = await startWebdav();
  });
  afterAll(() => webdav.stop());

  it('keeps the WebDAV password in the keychain, never in the file or an answer', async () => {
    const a = await computer('a');
    const url = await webdav.folder();
    await expect(
      a.api.testSyncTarget({
        target: { kind: 'webdav', url, username: webdav.username, password: 'wrong' },
      }),
    ).resolves.toMatchObject({ ok: false, step: 'list', problem: 'auth' });
    const target = { kind: 'webdav' as const, url, username: webdav.username };
    expect(
      await a.api.testSyncTarget({ target: { ...target, password: webdav.password } }),
    ).toEqual({ ok: true });
    await a.api.startNewSync({ target: { ...target, password: webdav.password } });
    expect(await a.secrets.get('sync.secret')).toBe(webdav.password);
    expect(await readFile(join(a.dir, 'sync.json'), 'utf8')).not.toContain(webdav.password);
    const status = await a.api.syncNow();
    expect(status).toMatchObject({ state: 'idle', problem: null, target });
    expect(JSON.stringify(status)).not.toContain(webdav.password);
    // Testing again without the password uses the one kept.
    expect(await a.api.testSyncTarget({ target })).toEqual({ ok: true });
    for (const e of a.events) expect(JSON.stringify(e.payload)).not.toContain(webdav.password);
  });
});
