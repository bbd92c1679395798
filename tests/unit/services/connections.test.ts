/**
 * Saved connections with the in-memory key store and a temp data folder: what a person does on
 * the connect screen, and what must hold for their key and their file whatever happens.
 */
import { readBoundSecret } from '../../../electron/main/services/connections/secrets';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../../electron/demo-relay/index';
import {
  ConnectionsService,
  type ConnectionsServiceOptions,
} from '../../../electron/main/services/connections/connections';
import { CONNECTIONS_FILE } from '../../../electron/main/services/connections/store';
import { AppError } from '../../../electron/main/services/app-error';
import { writeFileAtomic } from '../../../electron/main/services/data-files';
import { errorText } from '../../../electron/main/services/words';
import { MemorySecretStore, type SecretStore } from '../../../electron/main/services/secret-store';

/** The secret a key store value holds (stored bound to its origin). */
function secretIn(stored: string | undefined): string | undefined {
  return stored === undefined ? undefined : readBoundSecret(stored)?.secret;
}

const KEY = 'sk-test-canary-5b7e1f0c9a3d';
const OTHER_KEY = 'sk-test-replaced-77aa66bb55cc';

let relay: DemoRelay;
let htmlServer: Server;
let htmlUrl: string;

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY, OTHER_KEY], ratePerMinute: 10_000 });
  htmlServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Welcome</p>');
  });
  await new Promise<void>((resolve) => htmlServer.listen(0, '127.0.0.1', resolve));
  htmlUrl = `http://127.0.0.1:${(htmlServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await relay.close();
  await new Promise((resolve) => htmlServer.close(resolve));
});

let dir: string;
let secrets: MemorySecretStore;
const services: ConnectionsService[] = [];

beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'relay-connections-'));
  secrets = new MemorySecretStore();
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  await fs.rm(dir, { recursive: true, force: true });
});

function service(options: Partial<ConnectionsServiceOptions> = {}): ConnectionsService {
  const created = new ConnectionsService({ dataDir: dir, secrets, ...options });
  services.push(created);
  return created;
}

/** Every byte of every file in the data folder, backups and temp files included. */
async function folderBytes(): Promise<string> {
  const names = await fs.readdir(dir, { recursive: true });
  let all = '';
  for (const name of names) {
    const path = join(dir, name);
    if ((await fs.stat(path)).isFile()) all += await fs.readFile(path, 'latin1');
  }
  return all;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('saving connections', () => {
  it('lists a saved connection with only whether a key is saved and its last four characters', async () => {
    const connections = service();
    const created = await connections.create({
      name: '  Work relay ',
      baseUrl: `${relay.url}/v1/`,
      consoleUrl: 'https://console.example.com/billing',
      apiKey: KEY,
    });
    expect(created).toMatchObject({
      name: 'Work relay',
      consoleUrl: 'https://console.example.com/billing',
      hasKey: true,
      keyLast4: KEY.slice(-4),
    });
    const list = await connections.list();
    expect(list).toEqual([created]);
    expect(JSON.stringify(list)).not.toContain(KEY.slice(0, -4));
    expect(secretIn(await secrets.get(created.id))).toBe(KEY);
  });

  it('lists many connections with one look-up of the key store where it has one', async () => {
    const reads: string[] = [];
    let lookups = 0;
    const counted: SecretStore = {
      status: secrets.status,
      get: (account) => (reads.push(account), secrets.get(account)),
      set: (account, value) => secrets.set(account, value),
      delete: (account) => secrets.delete(account),
      getAll: () => (lookups++, secrets.getAll()),
    };
    const connections = service({ secrets: counted });
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(
        await connections.create({ name: `Relay ${i}`, baseUrl: relay.url, apiKey: `${KEY}-${i}` }),
      );
    // A connection saved without a key is one the look-up does not find: read on its own.
    const keyless = await connections.create({ name: 'No key', baseUrl: relay.url });
    reads.length = 0;
    const list = await connections.list();
    expect(lookups).toBe(1);
    expect(reads).toEqual([keyless.id]);
    expect(list.map((c) => [c.hasKey, c.keyLast4])).toEqual([
      ...made.map((_, i) => [true, `${KEY}-${i}`.slice(-4)]),
      [false, undefined],
    ]);
  });

  it('reads each key on its own when the one look-up fails', async () => {
    const failing: SecretStore = {
      status: secrets.status,
      get: (account) => secrets.get(account),
      set: (account, value) => secrets.set(account, value),
      delete: (account) => secrets.delete(account),
      getAll: () => Promise.reject(new Error('The search was refused')),
    };
    const connections = service({ secrets: failing });
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    expect(await connections.list()).toMatchObject([{ id, hasKey: true, keyLast4: KEY.slice(-4) }]);
  });

  it('never writes the key to the data folder', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    await connections.update(id, { apiKey: OTHER_KEY, name: 'B' });
    await connections.create({ name: 'C', baseUrl: 'https://c.example.com', apiKey: KEY });
    const bytes = await folderBytes();
    expect(bytes).toContain('"name": "B"');
    expect(bytes).not.toContain(KEY);
    expect(bytes).not.toContain(OTHER_KEY);
  });

  it('shows no last four characters for a key so short that they would give half of it away', async () => {
    const created = await service().create({ name: 'Short', baseUrl: relay.url, apiKey: 'abc123' });
    expect(created.hasKey).toBe(true);
    expect(created.keyLast4).toBeUndefined();
  });

  it('keeps connections across restarts of the app', async () => {
    const first = service();
    const a = await first.create({ name: 'A', baseUrl: 'https://a.example.com', apiKey: KEY });
    const b = await first.create({ name: 'B', baseUrl: 'https://b.example.com' });
    await first.select(b.id);
    const second = service();
    expect((await second.list()).map((c) => [c.name, c.hasKey])).toEqual([
      ['A', true],
      ['B', false],
    ]);
    expect(await second.activeId()).toBe(b.id);
    expect(await second.get(a.id)).toMatchObject({ keyLast4: KEY.slice(-4) });
  });

  it('makes the first connection the active one, and switches on select', async () => {
    const connections = service();
    const a = await connections.create({ name: 'A', baseUrl: 'https://a.example.com' });
    const b = await connections.create({ name: 'B', baseUrl: 'https://b.example.com' });
    expect(await connections.activeId()).toBe(a.id);
    await connections.select(b.id);
    expect(await connections.activeId()).toBe(b.id);
    const error = await rejection(connections.select('no-such-id'));
    expect(error.kind).toBe('not_found');
  });

  it('saves every one of many connections created at once', async () => {
    const connections = service();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        connections.create({ name: `R${i}`, baseUrl: `https://r${i}.example.com`, apiKey: KEY }),
      ),
    );
    expect(await service().list()).toHaveLength(20);
  });

  it('writes the file readable by this user only, with no temp file left behind', async () => {
    await service().create({ name: 'A', baseUrl: 'https://a.example.com' });
    expect(await fs.readdir(dir)).toEqual([CONNECTIONS_FILE]);
    if (process.platform !== 'win32') {
      expect((await fs.stat(join(dir, CONNECTIONS_FILE))).mode & 0o777).toBe(0o600);
    }
  });
});

describe('editing and deleting', () => {
  it('keeps the key when an edit gives none, and replaces it when one is given', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    // Another mount on the same origin keeps the key (a move to another origin does not).
    const renamed = await connections.update(id, {
      name: 'Renamed',
      baseUrl: `${relay.url}/openai`,
      consoleUrl: 'https://console.example.com',
    });
    expect(renamed).toMatchObject({
      name: 'Renamed',
      baseUrl: `${relay.url}/openai`,
      consoleUrl: 'https://console.example.com',
      hasKey: true,
    });
    expect(secretIn(await secrets.get(id))).toBe(KEY);

    const rekeyed = await connections.update(id, { apiKey: OTHER_KEY, consoleUrl: '' });
    expect(rekeyed.keyLast4).toBe(OTHER_KEY.slice(-4));
    expect(rekeyed.consoleUrl).toBeUndefined();
    expect(secretIn(await secrets.get(id))).toBe(OTHER_KEY);

    const keyless = await connections.update(id, { apiKey: null });
    expect(keyless.hasKey).toBe(false);
    expect(await secrets.get(id)).toBeUndefined();
  });

  it('removes the key from the key store when a connection is deleted, and picks another active one', async () => {
    const connections = service();
    const a = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    const b = await connections.create({ name: 'B', baseUrl: relay.url, apiKey: OTHER_KEY });
    await connections.delete(a.id);
    expect(await secrets.get(a.id)).toBeUndefined();
    expect(secretIn(await secrets.get(b.id))).toBe(OTHER_KEY);
    expect((await connections.list()).map((c) => c.id)).toEqual([b.id]);
    expect(await connections.activeId()).toBe(b.id);
    await connections.delete(b.id);
    expect(await connections.activeId()).toBeUndefined();
    expect((await rejection(connections.delete(b.id))).kind).toBe('not_found');
  });

  it('deletes nothing when the key cannot be removed, so no key is left behind', async () => {
    const failing: SecretStore = Object.assign(new MemorySecretStore(), {
      delete: () => Promise.reject(new Error('keyring locked')),
    });
    const connections = service({ secrets: failing });
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    const error = await rejection(connections.delete(id));
    expect(error.kind).toBe('internal');
    expect(error.message).toMatch(/could not be removed from the key store/);
    expect(await connections.list()).toHaveLength(1);
  });

  it("says, by its key, that a connection's key could not be read", async () => {
    const locked: SecretStore = Object.assign(new MemorySecretStore(), {
      get: () => Promise.reject(new Error('keyring locked')),
    });
    const connections = service({ secrets: locked });
    await connections.create({ name: 'A', baseUrl: relay.url });
    const [summary] = await connections.list();
    expect(summary?.keyError).toMatch(/could not be read/);
    expect(summary).toMatchObject({
      keyErrorId: 'connections.keyStore.because',
      keyErrorValues: { action: 'read', detail: 'keyring locked' },
    });
    expect(errorText('de', summary!.keyErrorId!, summary!.keyErrorValues)).not.toBe(
      summary!.keyError,
    );
  });

  it('saves no connection whose key could not be stored', async () => {
    const failing: SecretStore = Object.assign(new MemorySecretStore(), {
      set: () => Promise.reject(new Error('keyring locked')),
    });
    const connections = service({ secrets: failing });
    const error = await rejection(
      connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY }),
    );
    expect(error.kind).toBe('internal');
    expect(error.message).not.toContain(KEY);
    expect(await connections.list()).toEqual([]);
  });
});

describe('checking what people type', () => {
  it.each([
    [{ name: '', baseUrl: 'https://a.example.com' }, 'name', /Give the connection a name/],
    [{ name: '   ', baseUrl: 'https://a.example.com' }, 'name', /Give the connection a name/],
    [{ name: 'x'.repeat(101), baseUrl: 'https://a.example.com' }, 'name', /at most 100/],
    [{ name: 'A', baseUrl: '' }, 'baseUrl', /is empty/],
    [{ name: 'A', baseUrl: 'relay.example.com' }, 'baseUrl', /not a valid web address/],
    [{ name: 'A', baseUrl: 'ftp://relay.example.com' }, 'baseUrl', /only http and https/],
    [{ name: 'A', baseUrl: 'https://u:p@relay.example.com' }, 'baseUrl', /user name or password/],
    [
      { name: 'A', baseUrl: 'https://a.example.com', consoleUrl: 'javascript:alert(1)' },
      'consoleUrl',
      /must be a web address/,
    ],
    [
      { name: 'A', baseUrl: 'https://a.example.com', consoleUrl: 'file:///etc/passwd' },
      'consoleUrl',
      /must be a web address/,
    ],
    [
      { name: 'A', baseUrl: 'https://a.example.com', apiKey: 'sk-with space-in-it' },
      'apiKey',
      /spaces or characters that cannot be sent/,
    ],
    [{ name: 'A', baseUrl: 'https://a.example.com', apiKey: '  ' }, 'apiKey', /is empty/],
  ])('refuses %j with a message for the %s field', async (input, field, message) => {
    const connections = service();
    const error = await rejection(connections.create(input));
    expect(error.kind).toBe('invalid_request');
    expect(error.details.issues).toContainEqual({ field, message: expect.stringMatching(message) });
    expect(error.message).toMatch(message);
    if ('apiKey' in input) expect(error.message).not.toContain(input.apiKey.trim() || '\u0000');
    expect(await connections.list()).toEqual([]);
  });

  it('reports every wrong field at once, so a form can mark them all', async () => {
    const error = await rejection(
      service().create({ name: '', baseUrl: 'nope', consoleUrl: 'mailto:x@example.com' }),
    );
    expect(error.details.issues?.map((i) => i.field)).toEqual(['name', 'baseUrl', 'consoleUrl']);
  });

  it('checks edits the same way and leaves the connection as it was', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'A', baseUrl: 'https://a.example.com' });
    const error = await rejection(
      connections.update(id, { baseUrl: 'https://a.example.com/?x=1' }),
    );
    expect(error.details.issues?.[0]).toMatchObject({
      field: 'baseUrl',
      message: expect.stringMatching(/query/),
    });
    expect((await connections.get(id)).baseUrl).toBe('https://a.example.com');
  });
});

describe('a damaged or unreadable connections file', () => {
  const at = new Date('2026-05-04T03:02:01.000Z');

  it('is kept aside as a .corrupt copy, reported, and not lost when the app saves again', async () => {
    const path = join(dir, CONNECTIONS_FILE);
    await fs.writeFile(path, '{"version":1,"connections":[{"id":"a","na');
    const connections = service({ now: () => at });
    expect(await connections.list()).toEqual([]);
    const problem = await connections.fileProblem();
    const backupPath = `${path}.corrupt-2026-05-04T03-02-01-000Z`;
    expect(problem).toEqual({
      kind: 'corrupt',
      backupPath,
      message: expect.stringContaining(backupPath),
    });
    await connections.create({ name: 'Fresh', baseUrl: 'https://a.example.com' });
    expect(await fs.readFile(backupPath, 'utf8')).toBe('{"version":1,"connections":[{"id":"a","na');
    expect(JSON.parse(await fs.readFile(path, 'utf8')).connections).toHaveLength(1);
  });

  it('treats valid JSON of the wrong shape as damaged too', async () => {
    const path = join(dir, CONNECTIONS_FILE);
    await fs.writeFile(path, JSON.stringify({ version: 1, connections: [{ name: 7 }] }));
    const connections = service({ now: () => at });
    expect(await connections.list()).toEqual([]);
    expect((await connections.fileProblem())?.kind).toBe('corrupt');
    expect(await fs.readdir(dir)).toContain(`${CONNECTIONS_FILE}.corrupt-2026-05-04T03-02-01-000Z`);
  });

  it('is never replaced when it cannot be read at all', async () => {
    // A folder where the file should be: reading fails with EISDIR, like a permissions problem.
    await fs.mkdir(join(dir, CONNECTIONS_FILE));
    await fs.writeFile(join(dir, CONNECTIONS_FILE, 'inside'), 'keep me');
    const connections = service();
    expect(await connections.list()).toEqual([]);
    expect(await connections.fileProblem()).toMatchObject({ kind: 'unreadable', code: 'EISDIR' });
    const error = await rejection(
      connections.create({ name: 'A', baseUrl: 'https://a.example.com' }),
    );
    expect(error.kind).toBe('internal');
    expect(error.message).toMatch(/could not be read .*Nothing was changed/);
    expect(await fs.readFile(join(dir, CONNECTIONS_FILE, 'inside'), 'utf8')).toBe('keep me');
  });
});

describe('writing a file atomically', () => {
  it('leaves the old file whole and no temp file when the final rename fails', async () => {
    const path = join(dir, 'data.json');
    await fs.writeFile(path, 'old');
    const failingRename = { ...fs, rename: () => Promise.reject(new Error('disk full')) };
    await expect(writeFileAtomic(path, 'new', { fs: failingRename })).rejects.toThrow('disk full');
    expect(await fs.readFile(path, 'utf8')).toBe('old');
    expect(await fs.readdir(dir)).toEqual(['data.json']);
  });

  it('leaves the old file whole and no temp file when writing fails halfway', async () => {
    const path = join(dir, 'data.json');
    await fs.writeFile(path, 'old');
    const failingWrite = {
      ...fs,
      open: async (...args: Parameters<typeof fs.open>) => {
        const handle = await fs.open(...args);
        // Half the data reaches the disk, then the disk is full.
        return Object.assign(handle, {
          writeFile: async (data: string) => {
            await handle.write(data.slice(0, data.length / 2));
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          },
        });
      },
    };
    await expect(
      writeFileAtomic(path, 'n'.repeat(10_000), { fs: failingWrite as typeof fs }),
    ).rejects.toThrow('ENOSPC');
    expect(await fs.readFile(path, 'utf8')).toBe('old');
    expect(await fs.readdir(dir)).toEqual(['data.json']);
  });

  it('replaces the file only once the new content is complete', async () => {
    const path = join(dir, 'data.json');
    await fs.writeFile(path, 'old');
    let seenBeforeRename = '';
    const watching = {
      ...fs,
      rename: async (from: string, to: string) => {
        seenBeforeRename = await fs.readFile(to, 'utf8');
        expect(await fs.readFile(from, 'utf8')).toBe('x'.repeat(100_000));
        return fs.rename(from, to);
      },
    };
    await writeFileAtomic(path, 'x'.repeat(100_000), { fs: watching as typeof fs });
    expect(seenBeforeRename).toBe('old');
    expect((await fs.readFile(path, 'utf8')).length).toBe(100_000);
  });
});

describe('talking to the relay', () => {
  it('gives a relay client that reads the saved key', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
    const client = await connections.clientFor(id);
    expect((await client.listModels()).length).toBeGreaterThan(0);
    await connections.update(id, { apiKey: 'sk-wrong-key-0000000000' });
    await expect(client.listModels()).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('tests an unsaved address and key, showing the URL it requested', async () => {
    const result = await service().test({ baseUrl: `${relay.url}/v1/`, apiKey: KEY });
    expect(result).toEqual({
      ok: true,
      requestUrl: `${relay.url}/v1/models`,
      modelCount: expect.any(Number),
    });
    expect(result.ok && result.modelCount).toBeGreaterThan(0);
  });

  it('tests with the saved key when an edit form leaves the key field empty', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    expect(await connections.test({ baseUrl: relay.url, id })).toMatchObject({ ok: true });
  });

  it('says precisely why a test failed', async () => {
    const connections = service();
    const wrongKey = await connections.test({
      baseUrl: relay.url,
      apiKey: 'sk-nope-1234567890abc',
    });
    expect(wrongKey).toMatchObject({
      ok: false,
      requestUrl: `${relay.url}/v1/models`,
      error: { kind: 'unauthorized', status: 401 },
    });
    expect(JSON.stringify(wrongKey)).not.toContain('sk-nope-1234567890abc');

    const malformed = await connections.test({ baseUrl: 'ftp://relay.example.com', apiKey: KEY });
    expect(malformed).toEqual({
      ok: false,
      error: {
        kind: 'bad_request',
        message: expect.stringMatching(/only http and https/),
        messageId: 'relay.address.scheme',
        values: { address: 'ftp://relay.example.com', scheme: 'ftp' },
      },
    });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await connections.test({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(!refused.ok && refused.error.message).toMatch(/refused/i);

    const webPage = await connections.test({ baseUrl: htmlUrl, apiKey: KEY });
    expect(webPage).toMatchObject({ ok: false, error: { kind: 'bad_response' } });
    expect(!webPage.ok && webPage.error.message).toMatch(/not a Model Relay/);
  });
});

describe('a saved key goes only to the origin it was saved for', () => {
  /** The relay's own host on another port: another origin, reachable, recording what it gets. */
  async function otherOrigin() {
    const seen: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"m"}]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('removes the saved key when the address moves to another origin without a new key', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    // Another path on the same origin keeps the key.
    expect((await connections.update(id, { baseUrl: `${relay.url}/v1/` })).hasKey).toBe(true);
    const other = await otherOrigin();
    try {
      const moved = await connections.update(id, { baseUrl: other.url });
      expect(moved).toMatchObject({ hasKey: false, baseUrl: other.url });
      expect(await secrets.get(id)).toBeUndefined();
      await (await connections.clientFor(id)).listModels();
      expect(other.seen).toEqual([undefined]);
      // A move with a new key keeps that key, for the new origin.
      const rekeyed = await connections.update(id, { baseUrl: relay.url, apiKey: OTHER_KEY });
      expect(rekeyed.hasKey).toBe(true);
      expect(secretIn(await secrets.get(id))).toBe(OTHER_KEY);
    } finally {
      await other.close();
    }
  });

  it('tests a draft on another origin without reading the saved key, and says so', async () => {
    const reads: string[] = [];
    const watched: SecretStore = {
      status: secrets.status,
      get: (account) => (reads.push(account), secrets.get(account)),
      set: (account, value) => secrets.set(account, value),
      delete: (account) => secrets.delete(account),
    };
    const connections = service({ secrets: watched });
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    const other = await otherOrigin();
    try {
      reads.length = 0;
      expect(await connections.test({ id, baseUrl: `${other.url}/v1` })).toMatchObject({
        ok: true,
      });
      expect(reads).toEqual([]);
      expect(other.seen).toEqual([undefined]);
    } finally {
      await other.close();
    }
    // A relay that wants a key hears why none came.
    const demo2 = await startDemoRelay({ keys: [KEY] });
    try {
      const result = await connections.test({ id, baseUrl: demo2.url });
      expect(result).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
      expect(!result.ok && result.error.message).toContain(
        `the saved key belongs to ${relay.url}, not ${demo2.url}`,
      );
    } finally {
      await demo2.close();
    }
  });

  it('stops a client made before the address changed from reading the new key', async () => {
    const connections = service();
    const { id } = await connections.create({ name: 'A', baseUrl: relay.url, apiKey: KEY });
    const stale = await connections.clientFor(id);
    const other = await otherOrigin();
    try {
      await connections.update(id, { baseUrl: other.url, apiKey: OTHER_KEY });
      await expect(stale.listModels()).rejects.toMatchObject({ code: 'address_changed' });
    } finally {
      await other.close();
    }
  });

  it('sends a key over plain http outside the local network only when the person agreed', async () => {
    const asked: string[] = [];
    let answer = false;
    const connections = service({
      confirmUnencrypted: async (origin) => (asked.push(origin), answer),
    });
    const draft = { name: 'Plain', baseUrl: 'http://relay.example.com', apiKey: KEY };
    // Without the choice, and with the choice declined in main's dialog: refused, nothing saved.
    await expect(connections.create(draft)).rejects.toMatchObject({
      kind: 'invalid_request',
      details: { issues: [{ field: 'allowUnencrypted' }] },
    });
    await expect(connections.create({ ...draft, allowUnencrypted: true })).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    expect(asked).toEqual(['http://relay.example.com']);
    expect(await connections.list()).toEqual([]);
    // Agreed: saved, and marked unencrypted for the badge.
    answer = true;
    const saved = await connections.create({ ...draft, allowUnencrypted: true });
    expect(saved).toMatchObject({ unencrypted: true, allowUnencrypted: true, hasKey: true });
    // Loopback, private ranges and local names need no choice; https never does.
    for (const baseUrl of [
      relay.url,
      'http://10.0.0.7:11434',
      'http://192.168.1.20',
      'http://[fd00::1]:8080',
      'http://ollama:11434',
      'http://studio.local',
      'https://relay.example.com',
    ]) {
      const local = await connections.create({ name: 'L', baseUrl, apiKey: KEY });
      expect(local.unencrypted, baseUrl).toBe(false);
    }
    expect(asked).toHaveLength(2);
  });

  it('refuses to send a saved key unencrypted from a connection saved before the choice existed', async () => {
    await fs.writeFile(
      join(dir, CONNECTIONS_FILE),
      JSON.stringify({
        version: 1,
        activeId: 'old',
        connections: [{ id: 'old', name: 'Old', baseUrl: 'http://relay.example.com' }],
      }),
    );
    await secrets.set('old', KEY);
    const connections = service({
      fetch: () => Promise.reject(new Error('nothing may be sent')),
    });
    expect(await connections.get('old')).toMatchObject({ unencrypted: true, hasKey: true });
    await expect((await connections.clientFor('old')).listModels()).rejects.toMatchObject({
      kind: 'bad_request',
      code: 'key_unencrypted',
    });
  });

  it('never echoes a user name, password or query from an address in its messages', async () => {
    const result = await service().test({
      baseUrl: 'https://alice:hunter2-secret@relay.example.com/v1?token=abc123secret',
    });
    expect(result.ok).toBe(false);
    const text = JSON.stringify(result);
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('alice');
    expect(text).not.toContain('abc123secret');
  });
});

describe('the demo relay', () => {
  it('starts on a loopback port with a fresh key, saved as the active demo connection', async () => {
    const connections = service();
    const demo = await connections.startDemo();
    expect(demo).toMatchObject({ name: 'Demo relay', isDemo: true, hasKey: true });
    expect(demo.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await connections.activeId()).toBe(demo.id);
    const client = await connections.clientFor(demo.id);
    expect((await client.listModels()).length).toBeGreaterThan(0);
    // Starting it again reuses the running relay and the one demo connection.
    expect(await connections.startDemo()).toEqual(demo);
    expect(await connections.list()).toHaveLength(1);
  });

  it('restarts the relay on next use after the app restarted, and saves its new address', async () => {
    const first = service();
    const demo = await first.startDemo();
    await first.close();
    await expect(fetch(`${demo.baseUrl}/v1/models`)).rejects.toThrow();

    const afterRestart = service();
    const client = await afterRestart.clientFor(demo.id);
    expect((await client.listModels()).length).toBeGreaterThan(0);
    const moved = await afterRestart.get(demo.id);
    expect(moved.isDemo).toBe(true);
    expect(client.baseUrl).toBe(moved.baseUrl);
    expect((await service().get(demo.id)).baseUrl).toBe(moved.baseUrl);
  });

  it('stops the relay with stopDemo and when its connection is deleted', async () => {
    const connections = service();
    const demo = await connections.startDemo();
    await connections.stopDemo();
    await expect(fetch(`${demo.baseUrl}/v1/models`)).rejects.toThrow();
    const restarted = await connections.startDemo();
    await connections.delete(restarted.id);
    await expect(fetch(`${restarted.baseUrl}/v1/models`)).rejects.toThrow();
    expect(await secrets.get(demo.id)).toBeUndefined();
  });
});

describe('where keys are kept', () => {
  it('tells the person when keys are kept in memory only', () => {
    expect(service().keyStorage()).toEqual({
      secure: false,
      persistent: false,
      backend: 'memory',
      reason:
        'No secure key store (Secret Service) was found, so your key is kept in memory until you quit.',
      messageId: 'keys.storage.memory',
    });
    expect(errorText('fr', 'keys.storage.memory')).toBe(
      'Aucun stockage sécurisé des clés (Secret Service) n’a été trouvé, votre clé est donc gardée en mémoire jusqu’à ce que vous quittiez l’application.',
    );
  });
});
