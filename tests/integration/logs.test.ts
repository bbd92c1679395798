/**
 * The support log through real request paths: the app's services over the router and bridge,
 * against the demo relay, writing with electron-log's own file transport (its Node entry) into a
 * temp user data folder. Then the log folder is searched for a canary key and canary prompts.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import electronLog from 'electron-log/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { createAppLog } from '../../electron/main/services/log';
import { logsFolder } from '../../electron/main/services/log-policy';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { pageBridge } from '../fakes/page-bridge';
import { ROUTES } from '../../electron/shared/ipc/contract';

/** Not shaped like a key (no `sk-`): only "the keys in use" can keep it out of the log. */
const KEY = 'canary-relay-key-3b8f0d6e1a';
const WRONG_KEY = 'canary-wrong-key-91c2e4f7aa';
/** Saved with the connection and never typed for a test: the log learns it from the key store. */
const SAVED_KEY = 'canary-saved-key-5e2d8c0b47';
const PROMPT = 'PROMPT-CANARY-7d1e: what is in the tide pool?';
const ECHOED = 'PROMPT-CANARY-e5a0: the relay quotes this back in its error';
const INPUT = 'INPUT-CANARY-22b9 for the embeddings';
const IMAGE_PROMPT = 'IMAGE-CANARY-61fd: a red kite over the sea';
const ALLOWED = 'ALLOWED-CANARY-0c4f: logged because the person said so';
const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };

let relay: DemoRelay;
let dataDir: string;
let services: AppServices;
let secrets: MemorySecretStore;
let loggers = 0;
/** The electron-log logger under the app's log, to write a careless line straight through it. */
let logger: ReturnType<typeof electronLog.create>;
const events: Array<{ channel: string; payload: Record<string, unknown> }> = [];

/** Node's fetch, except that a chat request holding ECHOED gets a 400 quoting it back. */
const echoingFetch: FetchLike = async (url, init) => {
  if (typeof init.body === 'string' && init.body.includes(ECHOED)) {
    const message = `Your message "${ECHOED}" was refused (key ${SAVED_KEY}).`;
    return new Response(JSON.stringify({ error: { message, type: 'invalid_request_error' } }), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
  }
  return fetch(url, init);
};

async function open() {
  logger = electronLog.create({ logId: `logs-it-${process.pid}-${++loggers}` });
  const log = createAppLog(logger, { folder: logsFolder(dataDir) });
  services = await createAppServices({
    userDataDir: dataDir,
    secretStore: secrets,
    fetch: echoingFetch,
    log,
    emit: (channel, payload) =>
      events.push({ channel, payload: payload as Record<string, unknown> }),
  });
  const router = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [1]),
  });
  return pageBridge(
    (channel, payload) => router.dispatch(channel, payload, sender),
    () => () => undefined,
    (channel, payload) => void router.receive(channel, payload, sender),
  );
}

async function replyFinished(replyId: string) {
  for (let i = 0; i < 400; i++) {
    const found = events.find(
      (e) => e.channel === 'chat:reply-finished' && e.payload['replyId'] === replyId,
    );
    if (found) return found.payload;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No end for reply ${replyId}`);
}

/** Every log file in the folder, concatenated. */
async function logText(): Promise<string> {
  const folder = logsFolder(dataDir);
  const names = (await readdir(folder)).sort();
  const texts = await Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')));
  return texts.join('\n');
}

beforeAll(async () => {
  relay = await startDemoRelay({
    keys: [KEY, SAVED_KEY],
    ratePerMinute: 100_000,
    tokensPerSecond: 0,
  });
});
afterAll(() => relay.close());
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-logs-'));
  events.length = 0;
  secrets = new MemorySecretStore();
  relay.setFaults(undefined);
});
afterEach(async () => {
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the support log over real requests', () => {
  it('records what support needs and never a key or a prompt while prompts are off', async () => {
    const api = await open();
    await api.testConnection({ baseUrl: relay.url, apiKey: WRONG_KEY });
    await api.testConnection({ baseUrl: relay.url, apiKey: KEY });
    await api.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: SAVED_KEY });
    await api.listModels({ refresh: true });

    const conversation = await api.createConversation({ model: 'demo-chat-fast' });
    // One 500 first: the client retries, and the retry is logged with the same request id.
    relay.setFaults({ status: 500, failOnce: true });
    const sent = await api.sendMessage({ conversationId: conversation.id, text: PROMPT });
    expect((await replyFinished(sent.replyId))['status']).toBe('complete');
    const echoed = await api.sendMessage({ conversationId: conversation.id, text: ECHOED });
    expect((await replyFinished(echoed.replyId))['status']).toBe('error');
    await api.embedQuery({ model: 'demo-embedding', text: INPUT });
    await api.generateImages({
      requestId: 'image-request-1',
      model: 'demo-image',
      prompt: IMAGE_PROMPT,
      size: '256x256',
      count: 1,
    });
    // A careless line anywhere in main: the keys the app met on those paths (saved, read from
    // the keychain, typed for a test) are not shaped like keys, yet are still cut out.
    logger.error('careless', { header: KEY }, `tried ${WRONG_KEY} and ${SAVED_KEY}`);

    const text = await logText();
    expect(text).toContain('careless');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(WRONG_KEY);
    expect(text).not.toContain(SAVED_KEY);
    expect(text).not.toContain('IMAGE-CANARY');
    expect(text).not.toContain('PROMPT-CANARY');
    expect(text).not.toContain('INPUT-CANARY');
    expect(text).not.toContain('demo reply'); // no reply text either

    const lines = text.split('\n');
    const find = (...parts: string[]) => lines.filter((l) => parts.every((p) => l.includes(p)));
    expect(find('[warn] connection.test', 'outcome=unauthorized', 'status=401')).toHaveLength(1);
    expect(find('[info] connection.test', 'outcome=ok', 'models=')).toHaveLength(1);
    expect(find('relay.request route=models', 'outcome=ok')).not.toHaveLength(0);
    const retry = find('[warn] relay.retry', 'attempt=1', 'kind=server_error', 'status=500');
    expect(retry).toHaveLength(1);
    const requestId = /requestId=(\S+)/.exec(retry[0] ?? '')?.[1];
    const ok = find('[info] relay.request route=chat/completions', `requestId=${requestId}`);
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatch(/model=demo-chat-fast .*outcome=ok .*durationMs=\d+/);
    const refused = find('[warn] relay.request route=chat/completions', 'outcome=bad_request');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('status=400');
    expect(refused[0]).toContain('[content withheld]');
    expect(find('relay.request route=embeddings', 'model=demo-embedding', 'inputs=1')).toHaveLength(
      1,
    );
    expect(
      find('relay.request route=images/generations', 'model=demo-image', 'outcome=ok', 'images=1'),
    ).toHaveLength(1);
    // The chat database was created on this start: its migrations are in the log.
    expect(find('[info] database.migrated', 'domain=')).not.toHaveLength(0);
  });

  it('writes prompts once the person turns "Include prompts in logs" on, also after a restart, and never the key', async () => {
    let api = await open();
    expect((await api.getSettings()).includePromptsInLogs).toBe(false);
    await api.createConnection({ name: 'Local', baseUrl: relay.url, apiKey: SAVED_KEY });
    const conversation = await api.createConversation({ model: 'demo-chat-fast' });
    const before = await api.sendMessage({ conversationId: conversation.id, text: PROMPT });
    await replyFinished(before.replyId);
    expect((await api.updateSettings({ includePromptsInLogs: true })).includePromptsInLogs).toBe(
      true,
    );

    // A restart: a new log that learns the saved key only when it is read from the key store.
    await services.close();
    events.length = 0;
    api = await open();
    const after = await api.sendMessage({ conversationId: conversation.id, text: ALLOWED });
    const end = await replyFinished(after.replyId);
    await api.embedQuery({ model: 'demo-embedding', text: INPUT });
    logger.error('careless', `key ${SAVED_KEY}`);

    const text = await logText();
    expect(text).toContain('careless');
    expect(text).not.toContain(SAVED_KEY);
    expect(text).not.toContain('PROMPT-CANARY'); // sent while the setting was off
    expect(text).toContain(`prompt=${JSON.stringify(ALLOWED)}`);
    expect(text).toContain(String(end['content']).slice(0, 40));
    expect(text).toContain('INPUT-CANARY');
  });
});
