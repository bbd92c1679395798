/**
 * A hostile page against the built bundle (`out/main/index.js` on the Electron double), the way
 * the review that found them tried it: the page names a file on disk to read or send, writes a
 * launcher and asks main to open it. None of it may work; a file the person dropped (handed over
 * by the preload's own channel, as grants) still does.
 */
import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bootApp, type BootedApp } from './boot-app';
import { mainProcessExports, otherProcessExports } from './electron-api';

const { appRoot, runtime } = inject('boot');
const packageJson = JSON.parse(
  await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'),
) as { version: string; productName: string };

let home: string;
let app: BootedApp;

/** A route's answer from the main window's page: its value, or its error. */
async function call(
  channel: string,
  payload: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { kind: string } }> {
  const answer = await app.invoke(channel, payload, { frame: 'main' });
  // A route that is not there at all refuses too (the routes that took a path are gone).
  if (!answer.ok && /No handler registered/.test(String(answer.error))) {
    return { ok: false, error: { kind: 'no_route' } };
  }
  if (!answer.ok) throw new Error(answer.error);
  return answer.value as { ok: boolean; value?: unknown; error?: { kind: string } };
}

async function value<T>(channel: string, payload: unknown): Promise<T> {
  const result = await call(channel, payload);
  if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'relay-boot-hostile-'));
  await mkdir(join(home, 'userData'), { recursive: true });
  app = await bootApp({
    runtime,
    main: join(appRoot, 'out', 'main', 'index.js'),
    exportNames: mainProcessExports(),
    otherProcessNames: otherProcessExports(),
    home,
    appName: packageJson.productName,
    appVersion: packageJson.version,
  });
  await app.ready();
  await app.waitForCall('BrowserWindow#1.show');
});

afterAll(async () => {
  await app?.kill();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('a hostile page against the built app', () => {
  it('cannot name a file on disk to read it, add it to a knowledge base or attach it', async () => {
    const secret = join(home, 'id_rsa');
    await writeFile(secret, 'PRIVATE-KEY-CANARY\n', { mode: 0o600 });
    const base = await value<{ id: string }>('knowledge:create', {
      name: 'Mine',
      model: 'demo-embedding',
    }).catch(() => ({ id: 'none' }));
    for (const [channel, payload] of [
      ['knowledge:add-paths', { id: base.id, paths: [secret] }],
      ['chat:attach-paths', { paths: [secret] }],
      ['knowledge:add-dropped', { id: base.id, grants: [secret] }],
      ['chat:attach-dropped', { grants: [secret] }],
      ['chat:attach-dropped', { grants: ['A'.repeat(32)] }],
      ['app:show-saved-file', { path: secret }],
    ] as const) {
      expect(await call(channel, payload), channel).toMatchObject({ ok: false });
    }
  });

  it('takes a drop by the grants of the preload’s own channel, once', async () => {
    const notes = join(home, 'notes.txt');
    await writeFile(notes, 'harbour notes\n');
    const { grants } = await value<{ grants: string[] }>('files:grant-dropped', {
      purpose: 'attach',
      paths: [notes],
    });
    const attached = await value<{ attached: Array<{ name: string }> }>('chat:attach-dropped', {
      grants,
    });
    expect(attached.attached.map((a) => a.name)).toEqual(['notes.txt']);
    expect(await call('chat:attach-dropped', { grants })).toMatchObject({
      ok: false,
      error: { kind: 'invalid_request' },
    });
  });

  it('writes a launcher and asks to open it: main opens a private copy that shows, never runs', async () => {
    await value('connections:start-demo', undefined);
    const { attached } = await value<{ attached: Array<{ id: string }> }>('chat:attach-bytes', {
      name: 'run.hta',
      base64: Buffer.from('<script>alert(1)</script>').toString('base64'),
    });
    const conversation = await value<{ id: string }>('chat:create', { model: 'demo-chat-fast' });
    await value('chat:send', {
      conversationId: conversation.id,
      text: 'What is this?',
      attachmentIds: attached.map((a) => a.id),
      options: { stream: false },
    });
    const { messages } = await value<{
      messages: Array<{ attachments?: Array<{ id: string }> }>;
    }>('chat:get', { id: conversation.id });
    const stored = messages[0]?.attachments?.[0]?.id;
    expect(stored).toBeDefined();
    await value('chat:attachment-open', { id: stored });
    const opened = app.callsTo('shell.openPath').map((c) => c.args[0] as string);
    expect(opened).toHaveLength(1);
    expect(basename(opened[0]!)).toBe('run.hta.txt');
    expect(opened[0]!.startsWith(join(home, 'userData'))).toBe(true);
    expect(((await lstat(opened[0]!)).mode & 0o777).toString(8)).toBe('600');
    expect(app.missing).toEqual([]);
    expect(app.uncaught).toEqual([]);
  });
});
