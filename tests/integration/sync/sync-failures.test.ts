/**
 * Failure is boring: a storage that is full, refuses the sign-in, fails with 5xx or does not
 * answer ends the sync with the reason and its fix, retried later; nothing is lost meanwhile and
 * nothing is sent twice once it works again. Against a real S3 server (s3rver) whose answers a
 * fetch wrapper replaces, a real WebDAV server (rclone) with a wrong password, and a folder on a
 * full disk.
 */
import { mkdtemp } from 'node:fs/promises';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newRecoveryPhrase } from '../../../electron/main/services/sync/sync-crypto';
import { retryDelayMs } from '../../../electron/main/services/sync/sync-engine';
import { openStorage } from '../../../electron/main/services/sync/sync-setup';
import { FolderTarget } from '../../../electron/main/services/sync/targets/folder-target';
import { S3Target } from '../../../electron/main/services/sync/targets/s3-target';
import { testConnection } from '../../../electron/main/services/sync/targets/test-connection';
import { WebdavTarget } from '../../../electron/main/services/sync/targets/webdav-target';
import { openSyncDevice, visibleState, type SyncDevice } from '../../fakes/sync-device';
import { startS3, startWebdav, type RunningS3, type RunningWebdav } from '../../fakes/sync-servers';
import { TEST_COST } from './scenarios';

let s3: RunningS3;
let webdav: RunningWebdav;
const devices: SyncDevice[] = [];

beforeAll(async () => {
  [s3, webdav] = await Promise.all([startS3(), startWebdav()]);
});
afterAll(async () => {
  await Promise.all([s3.stop(), webdav.stop()]);
});
afterEach(async () => {
  for (const device of devices.splice(0)) await device.destroy();
});

type Fault = { method?: string; status?: number; hang?: boolean; body?: string } | undefined;

/** A fetch to the real server whose answers can be replaced while `fault` is set. */
function faultyFetch() {
  const control = { fault: undefined as Fault, calls: 0 };
  const wrapped = (async (input: Request | string | URL, init?: RequestInit) => {
    control.calls += 1;
    const request = new Request(input, init);
    const fault = control.fault;
    if (fault && (fault.method === undefined || fault.method === request.method)) {
      if (fault.hang)
        return new Promise<Response>((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        });
      return new Response(fault.body ?? '', { status: fault.status ?? 500 });
    }
    return fetch(request, init);
  }) as typeof fetch;
  return { control, fetch: wrapped };
}

function s3Target(prefix: string, fetchImpl?: typeof fetch, timeoutSeconds?: number) {
  return new S3Target({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    prefix,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    ...(timeoutSeconds ? { timeoutSeconds } : {}),
  });
}

describe('a storage that fails', { timeout: 90_000 }, () => {
  it.each([
    ['storage full (507)', { method: 'PUT', status: 507 }, 'full', 'sync.target.full'],
    ['a 401', { status: 401 }, 'auth', 'sync.target.auth'],
    ['a 5xx', { status: 500 }, 'server', 'sync.target.server'],
    [
      'S3 quota exceeded',
      { method: 'PUT', status: 403, body: '<Error><Code>QuotaExceeded</Code></Error>' },
      'full',
      'sync.target.full',
    ],
    ['a 413', { method: 'PUT', status: 413 }, 'too_large', 'sync.target.tooLarge'],
  ] as const)(
    '%s: said with its fix, retried later, nothing lost or sent twice',
    async (_name, fault, problem, messageId) => {
      const prefix = s3.prefix();
      const phrase = newRecoveryPhrase();
      const faulty = faultyFetch();
      const { keys } = await openStorage(s3Target(prefix), phrase, TEST_COST);
      const a = await openSyncDevice({ target: s3Target(prefix, faulty.fetch), keys, label: 'a' });
      const b = await openSyncDevice({ target: s3Target(prefix), keys, label: 'b' });
      devices.push(a, b);
      const conversation = a.chat.create({ title: 'Written while the storage failed' });
      a.chat.append(conversation.id, [
        { role: 'user', content: 'Still here?', status: 'complete' },
      ]);

      faulty.control.fault = fault;
      const failed = await a.engine.sync();
      expect(failed.ok).toBe(false);
      expect(failed.problem).toMatchObject({ problem, messageId });
      const status = a.engine.status();
      expect(status.state).toBe('attention');
      expect(status.problem?.message).toMatch(/\.$/);
      expect(status.pendingChanges).toBeGreaterThan(0);
      expect(Date.parse(status.retryAt!)).toBeGreaterThan(Date.now());
      expect(a.engine.history(1)[0]?.problem?.messageId).toBe(messageId);

      faulty.control.fault = undefined;
      const fixed = await a.engine.sync();
      expect(fixed.problem).toBeNull();
      expect(a.engine.status()).toMatchObject({ state: 'idle', pendingChanges: 0, problem: null });
      // Sent once: each log A took its changes into is in the storage once, and nothing more.
      const logs = (await s3Target(prefix).list('o/')).objects.map((o) => o.name).sort();
      const uploaded = a.db
        .all<{ name: string }>('SELECT name FROM sync_uploaded ORDER BY name')
        .map((r) => r.name);
      expect(logs).toEqual(uploaded);
      const seq = a.db.one<{ value: string }>("SELECT value FROM sync_state WHERE key = 'seq'");
      expect(logs).toHaveLength(Number(seq!.value));
      await b.engine.sync();
      expect(visibleState(b)).toEqual(visibleState(a));
      expect(b.chat.allMessages(conversation.id)).toHaveLength(1);
    },
  );

  it('a storage that does not answer: offline, with the timeout said, and fine once it answers', async () => {
    const prefix = s3.prefix();
    const faulty = faultyFetch();
    const { keys } = await openStorage(s3Target(prefix), newRecoveryPhrase(), TEST_COST);
    const a = await openSyncDevice({ target: s3Target(prefix, faulty.fetch, 1), keys });
    devices.push(a);
    a.chat.create({ title: 'Offline' });
    faulty.control.fault = { hang: true };
    const report = await a.engine.sync();
    expect(report.problem).toMatchObject({ problem: 'timeout', messageId: 'sync.target.timeout' });
    expect(a.engine.status().state).toBe('offline');
    faulty.control.fault = undefined;
    expect((await a.engine.sync()).ok).toBe(true);
  });

  it('backs off longer after each failure, and longest for what the person must fix', () => {
    expect(retryDelayMs(1, 'server')).toBeLessThan(retryDelayMs(3, 'server'));
    expect(retryDelayMs(50, 'timeout')).toBe(1_800_000);
    expect(retryDelayMs(1, 'auth')).toBe(3_600_000);
  });

  it('WebDAV with a wrong password: the 401 is said, with the fix', async () => {
    const url = await webdav.folder();
    const target = new WebdavTarget({ url, username: webdav.username, password: 'wrong' });
    const result = await testConnection(target);
    expect(result).toMatchObject({ ok: false, step: 'list', problem: 'auth' });
    if (!result.ok) expect(result.said.english).toMatch(/refused the sign-in \(401\)/);
    const right = new WebdavTarget({ url, username: webdav.username, password: webdav.password });
    expect(await testConnection(right)).toEqual({ ok: true });
  });

  it('S3 with a wrong secret or a missing bucket: said as what it is', async () => {
    const wrong = new S3Target({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: 'us-east-1',
      accessKeyId: 'nobody',
      secretAccessKey: 'nothing',
    });
    expect(await testConnection(wrong)).toMatchObject({ ok: false, step: 'list', problem: 'auth' });
    const missing = new S3Target({
      endpoint: s3.endpoint,
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
    expect(await testConnection(missing)).toMatchObject({ ok: false, problem: 'not_found' });
    expect(await testConnection(s3Target(s3.prefix()))).toEqual({ ok: true });
  });

  it('a server that keeps fewer bytes than it was sent fails the connection test by name', async () => {
    const root = await mkdtemp(join(tmpdir(), 'relay-sync-short-'));
    const folder = new FolderTarget(root);
    const short = {
      description: 'a server that keeps nothing',
      list: (prefix: string) => folder.list(prefix),
      get: (name: string) => folder.get(name),
      putIfAbsent: (name: string) => folder.putIfAbsent(name, new Uint8Array(0)),
      delete: (name: string) => folder.delete(name),
    };
    const result = await testConnection(short);
    expect(result).toMatchObject({ ok: false, step: 'read', problem: 'damaged' });
    if (!result.ok) expect(result.said.english).toMatch(/kept 0 bytes of the 1,024 written/);
  });

  it('a folder on a full disk, or gone: said with the fix', async () => {
    const root = await mkdtemp(join(tmpdir(), 'relay-sync-full-'));
    const full = {
      ...fs,
      open: (async () => {
        throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      }) as unknown as typeof fs.open,
    };
    const result = await testConnection(new FolderTarget(root, full));
    expect(result).toMatchObject({ ok: false, step: 'write', problem: 'full' });
    const gone = await testConnection(new FolderTarget(join(root, 'not-there')));
    expect(gone).toMatchObject({ ok: false, step: 'list', problem: 'not_found' });
    if (!gone.ok) expect(gone.said.english).toMatch(/is not there\. Create it/);
  });
});
