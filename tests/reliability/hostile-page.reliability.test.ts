/**
 * Section 12, a hostile page, a hostile zip and a tampered backup: what a script in the page (any
 * call the contract allows, with any arguments, through the real router to the real services), a
 * chat export made to attack, or a backup edited and given back could make main do with the
 * person's files and keys. Each input is recorded with what happened to it; none may reach a file
 * the person did not choose, launch a program, or move a key.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'libsql';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import {
  checksumLine,
  FILES_TABLE,
  MANIFEST_TABLE,
  sha256File,
  vacuumInto,
} from '../../electron/main/services/backups/backup-file';
import {
  PlaintextFileSecretStore,
  PLAINTEXT_KEYS_FILE,
} from '../../electron/main/services/secret-store';
import { makeLogRedactor } from '../../electron/main/services/log-policy';
import { updateUnsupportedReason } from '../../electron/main/services/updates/support';
import { openChatApp, type ChatApp, type ChatAppOptions } from '../fakes/chat-app';
import { RecordingProxyStack } from '../fakes/recording-desktop';
import { cleanUp, suiteDir } from './lib/canary';
import { recordFigures, type Figure } from './lib/record';

const KEY = 'sk-hostile-page-canary-4c1f9e07b2';
const SAMPLES = join(import.meta.dirname, '../../resources/knowledge-samples');

let relay: DemoRelay;
const servers: Server[] = [];
const folders: string[] = [];
const apps: ChatApp[] = [];
const figures: Figure[] = [];

/** One hostile input and what became of it: `ok` when it did no harm. */
function outcome(name: string, value: string, ok: boolean, target = 'no harm'): void {
  figures.push({ name, value, target, ok });
}

async function folder(name: string): Promise<string> {
  const dir = await suiteDir(`hostile-${name}`);
  folders.push(dir);
  return dir;
}

async function open(dir: string, options: ChatAppOptions = {}): Promise<ChatApp> {
  const app = await openChatApp(dir, undefined, options);
  apps.push(app);
  return app;
}

/** The call's refusal (its kind and message), or 'accepted' when it went through. */
async function tried(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'accepted';
  } catch (error) {
    const { kind, message } = error as { kind?: string; message?: string };
    return `refused (${kind ?? 'error'}): ${(message ?? '').slice(0, 80)}`;
  }
}

/** A file name's last extension, lower case ('' for none). */
function extensionOf(path: string): string {
  const name = basename(path).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1);
}

/** Types a system runs, or hands to something that runs, rather than shows. */
const LAUNCHED = new Set(
  'exe bat cmd com scr hta vbs vbe js jse wsf wsh ps1 msi lnk url reg jar app command pkg desktop sh appimage'.split(
    ' ',
  ),
);

beforeAll(async () => {
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 0 });
});

afterAll(async () => {
  for (const app of apps.splice(0)) await app.services.close().catch(() => undefined);
  await relay?.close();
  for (const server of servers) server.closeAllConnections?.();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  cleanUp(folders);
  recordFigures(12, 'Hostile page, files and backups', figures, [
    'Every input was sent as the page would send it (through the real router, with the real services on a temp user data folder), or given to main as a file the person chose (an import, a restore).',
    'A figure holds when the input did no harm: refused, or done without reaching a file the person did not choose, launching anything, or sending a key where it was not given.',
  ]);
});

/**
 * A server of the attacker's, answering as a relay would (models, embeddings, a reply), and
 * keeping every request body it is sent.
 */
async function startRecorder(): Promise<{ url: string; bodies: string[] }> {
  /** Each request's headers and body, as one text. */
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(`${JSON.stringify(request.headers)}\n${body}`);
      response.setHeader('content-type', 'application/json');
      const url = request.url ?? '';
      if (url.endsWith('/embeddings')) {
        const input = (JSON.parse(body) as { input: string[] }).input;
        response.end(
          JSON.stringify({
            object: 'list',
            model: 'demo-embedding',
            data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, 0, 0] })),
          }),
        );
      } else if (url.endsWith('/chat/completions')) {
        response.end(
          JSON.stringify({
            id: 'c',
            object: 'chat.completion',
            model: 'demo-chat',
            choices: [
              { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } },
            ],
          }),
        );
      } else {
        response.end(
          JSON.stringify({ object: 'list', data: [{ id: 'demo-chat', object: 'model' }] }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

/** A connected app whose messages go to the demo relay. */
async function connected(name: string, options: ChatAppOptions = {}): Promise<ChatApp> {
  const app = await open(await folder(name), options);
  await app.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
  return app;
}

/** Sends a message with a pasted file and answers the stored attachment's id. */
async function sentWithPaste(
  app: ChatApp,
  name: string,
  text: string,
): Promise<string | undefined> {
  const { attached } = await app.api.attachBytes({
    name,
    base64: Buffer.from(text).toString('base64'),
  });
  if (attached.length === 0) return undefined;
  const { id } = await app.api.createConversation({ model: 'demo-chat-fast' });
  const sent = await app.api.sendMessage({
    conversationId: id,
    text: 'What is in this file?',
    attachmentIds: attached.map((a) => a.id),
  });
  await app.finished(sent.replyId);
  const { messages } = await app.api.getConversation({ id });
  return messages[0]?.attachments?.[0]?.id;
}

describe('3. the page makes main open a file it wrote', () => {
  const NAMES = [
    'run.hta',
    'x.vbs',
    'x.bat',
    'x.desktop',
    'x.cmd',
    'x.ps1',
    'x.js',
    'x.sh',
    'x.url',
    'x.scr',
    'setup.exe',
    'Tool.app',
    'install.command',
    'x.AppImage',
    'x.exe.',
    'x.EXE',
  ];

  it('writes a pasted launcher, then asks to open it: nothing is launched', async () => {
    const app = await connected('launch');
    for (const name of NAMES) {
      const id = await sentWithPaste(app, name, 'echo the page ran this\r\n');
      if (id === undefined) {
        outcome(`attach-bytes ${name}, then attachment-open`, 'refused when attached', true);
        continue;
      }
      const before = app.opened.length;
      const answer = await tried(() => app.api.openAttachment({ id }));
      const launched = app.opened.slice(before).filter((path) => LAUNCHED.has(extensionOf(path)));
      const opened = app.opened.slice(before).map((path) => basename(path));
      outcome(
        `attach-bytes ${name}, then attachment-open`,
        launched.length > 0
          ? `launched ${launched.map((p) => basename(p)).join(', ')}`
          : opened.length > 0
            ? `opened as text (${opened.join(', ')})`
            : answer,
        launched.length === 0,
      );
      expect(launched, name).toEqual([]);
    }
  });
});

describe('5. the copy opened is private to the person', () => {
  it('lands in a random folder of the app’s own, readable by this user only, gone at quit', async () => {
    const dir = await folder('temp');
    const app = await open(dir);
    await app.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
    // A folder another user made where the copies used to go, pointing at theirs.
    const shared = join(tmpdir(), 'relay-desktop-attachments');
    const planted = await lstat(shared).catch(() => undefined);
    const id = await sentWithPaste(app, 'id_rsa.txt', '-----BEGIN OPENSSH PRIVATE KEY-----\n');
    await app.api.openAttachment({ id: id! });
    const copy = app.opened.at(-1)!;
    const inData = !relative(dir, copy).startsWith('..');
    const fileMode = (await stat(copy)).mode & 0o777;
    const folderMode = (await stat(join(copy, '..'))).mode & 0o777;
    outcome('the opened copy’s place', inData ? 'inside the user data folder' : copy, inData);
    outcome('the opened copy’s mode', fileMode.toString(8), fileMode === 0o600, '600');
    outcome('its folder’s mode', folderMode.toString(8), (folderMode & 0o077) === 0, '700');
    expect(inData).toBe(true);
    expect(fileMode).toBe(0o600);
    expect(folderMode & 0o077).toBe(0);
    if (planted === undefined) expect(await lstat(shared).catch(() => undefined)).toBeUndefined();
    await app.services.close();
    apps.splice(apps.indexOf(app), 1);
    const left = await lstat(copy).catch(() => undefined);
    outcome('the copy after quitting', left ? 'still there' : 'removed', left === undefined);
    expect(left).toBeUndefined();
  });

  it('does not follow a link planted where a copy is written', async () => {
    const dir = await folder('temp-link');
    const app = await open(dir);
    await app.api.createConnection({ name: 'Demo', baseUrl: relay.url, apiKey: KEY });
    const id = await sentWithPaste(app, 'notes.txt', 'harbour notes\n');
    await app.api.openAttachment({ id: id! });
    const first = app.opened.at(-1)!;
    // Another process swaps the next copy's place for a link to a file of the person's.
    const target = join(dir, '..', `victim-${basename(dir)}.txt`);
    await writeFile(target, 'the person’s own file\n');
    folders.push(target);
    const root = join(first, '..', '..');
    for (const entry of await readdir(root)) {
      await rm(join(root, entry), { recursive: true, force: true });
      await mkdir(join(root, entry), { recursive: true });
      await symlink(target, join(root, entry, 'notes.txt')).catch(() => undefined);
    }
    await tried(() => app.api.openAttachment({ id: id! }));
    const after = await readFile(target, 'utf8');
    outcome(
      'a link planted in the copies’ folder',
      after === 'the person’s own file\n' ? 'not followed' : 'followed: the file was overwritten',
      after === 'the person’s own file\n',
    );
    expect(after).toBe('the person’s own file\n');
  });
});

describe('4. a hostile chat export', () => {
  it('opens no executable attachment and no path the zip names', async () => {
    const a = await connected('zip-a');
    // An executable's name on a text file, and a reply asked with a knowledge base.
    await sentWithPaste(a, 'Quarterly report.pdf.exe', 'MZ this is not a report\n');
    const base = await a.api.createKnowledgeBase({ name: 'Samples', model: 'demo-embedding' });
    a.dialogs.folders.push(SAMPLES);
    const from = a.events.length;
    await a.api.addKnowledgeSources({ id: base.id, kind: 'folder' });
    await a.until(() =>
      a.events
        .slice(from)
        .find((e) => e.channel === 'knowledge:index-ended' && e.payload.kbId === base.id),
    );
    const { id } = await a.api.createConversation({ model: 'demo-chat-fast' });
    await a.api.setConversationKnowledge({ conversationId: id, kbIds: [base.id] });
    const asked = await a.api.sendMessage({
      conversationId: id,
      text: 'When does the ferry leave?',
    });
    await a.finished(asked.replyId);
    const conversations = await a.api.listConversations();
    const zipPath = join(await folder('zip-file'), 'export.zip');
    a.dialogs.savePaths.push(zipPath);
    await a.api.exportConversations({ ids: conversations.map((c) => c.id), format: 'zip' });

    // The zip is edited: every cited file now names a script on this computer, or a system file.
    const scratch = await folder('zip-targets');
    const script = join(scratch, 'payload.sh');
    await writeFile(script, '#!/bin/sh\necho the zip ran this\n', { mode: 0o755 });
    const entries = unzipSync(new Uint8Array(await readFile(zipPath)));
    const targets = [script, '/etc/passwd', '\\\\attacker.invalid\\share\\x.exe'];
    for (const [name, bytes] of Object.entries(entries)) {
      if (!name.endsWith('.json')) continue;
      const document = JSON.parse(strFromU8(bytes)) as {
        conversations: Array<{
          messages: Array<{ retrieval?: { chunks: Array<{ path: string; fileName: string }> } }>;
        }>;
      };
      for (const conversation of document.conversations)
        for (const message of conversation.messages)
          message.retrieval?.chunks.forEach((chunk, i) => {
            chunk.path = targets[i % targets.length]!;
            chunk.fileName = basename(chunk.path);
          });
      entries[name] = strToU8(JSON.stringify(document));
    }
    await writeFile(zipPath, zipSync(entries));

    const b = await open(await folder('zip-b'));
    b.dialogs.openPaths.push([zipPath]);
    const imported = await b.api.importConversations();
    expect(imported.conversationIds.length).toBeGreaterThan(0);
    for (const conversationId of imported.conversationIds) {
      const { messages } = await b.api.getConversation({ id: conversationId });
      for (const message of messages) {
        for (const attachment of message.attachments ?? []) {
          const before = b.opened.length;
          const answer = await tried(() => b.api.openAttachment({ id: attachment.id }));
          const launched = b.opened.slice(before).filter((p) => LAUNCHED.has(extensionOf(p)));
          outcome(
            `imported attachment “${attachment.name}”, then attachment-open`,
            launched.length > 0
              ? `launched ${launched.map((p) => basename(p)).join(', ')}`
              : b.opened.length > before
                ? `opened as ${basename(b.opened.at(-1)!)}`
                : answer,
            launched.length === 0,
          );
          expect(launched).toEqual([]);
        }
        if (message.role !== 'assistant') continue;
        const record = await b.api.getRetrieval({ messageId: message.id });
        for (const chunk of record?.chunks.slice(0, targets.length) ?? []) {
          for (const action of ['open', 'show'] as const) {
            const opened = b.opened.length;
            const shown = b.shown.length;
            const answer = await tried(() =>
              b.api.revealRetrievedFile({ messageId: message.id, chunkId: chunk.chunkId, action }),
            );
            const reached = [...b.opened.slice(opened), ...b.shown.slice(shown)];
            outcome(
              `imported citation naming ${chunk.path}, then “${action === 'open' ? 'Open file' : 'Show in folder'}”`,
              reached.length > 0
                ? `${action === 'open' ? 'opened' : 'shown'}: ${reached.join(', ')}`
                : answer,
              reached.length === 0,
            );
            expect(reached).toEqual([]);
          }
        }
      }
    }
  });
});

describe('1 and 2. the page names a file on disk', () => {
  it('can neither read a file it names nor send it to a relay it picks', async () => {
    const scratch = await folder('paths');
    const secret = join(scratch, 'id_rsa');
    const CANARY = 'PRIVATE-KEY-CANARY-5be81f';
    await writeFile(secret, `-----BEGIN OPENSSH PRIVATE KEY-----\n${CANARY}\n`, { mode: 0o600 });
    const evil = await startRecorder();
    const app = await open(await folder('paths-app'));
    // A keyless connection to the attacker's server, made active: every request goes there.
    await app.api.createConnection({ name: 'Theirs', baseUrl: evil.url });
    const base = await app.api.createKnowledgeBase({ name: 'Mine', model: 'demo-embedding' });
    const forged = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const calls: Array<[string, unknown]> = [
      ['knowledge:add-paths', { id: base.id, paths: [secret] }],
      ['knowledge:add-paths', { id: base.id, paths: [scratch] }],
      ['chat:attach-paths', { paths: [secret] }],
      ['knowledge:add-dropped', { id: base.id, grants: [secret] }],
      ['knowledge:add-dropped', { id: base.id, grants: [forged] }],
      ['chat:attach-dropped', { grants: [secret] }],
      ['chat:attach-dropped', { grants: [forged] }],
      // The preload's own channel, which hands main the paths of a drop: not the page's to call.
      ['files:grant-dropped', { purpose: 'attach', paths: [secret] }],
      ['files:grant-dropped', { purpose: 'knowledge', paths: [scratch] }],
      ['knowledge:remove-source', { id: base.id, path: secret }],
      ['app:show-saved-file', { path: secret }],
    ];
    const attached: string[] = [];
    for (const [channel, payload] of calls) {
      const result = await app.router.dispatch(channel, payload, app.sender);
      const value = result.ok ? (result.value as { attached?: Array<{ id: string }> }) : undefined;
      attached.push(...(value?.attached ?? []).map((a) => a.id));
      const took = result.ok && (value?.attached?.length ?? 1) > 0;
      outcome(
        `${channel} ${JSON.stringify(payload).replaceAll(scratch, '~')}`,
        result.ok ? 'accepted' : `refused (${result.error.kind})`,
        !took,
        'refused',
      );
    }
    // Whatever was taken, the page then asks for it: searched, and sent with a message.
    await app
      .until(() => app.events.find((e) => e.channel === 'knowledge:index-ended'), 3_000)
      .catch(() => undefined);
    const hits = await app.api
      .searchKnowledgeBase({ id: base.id, question: 'private key' })
      .then((r) => r.hits.map((h) => h.text).join('\n'))
      .catch(() => '');
    const { id } = await app.api.createConversation({ model: 'demo-chat' });
    await app.api
      .sendMessage({
        conversationId: id,
        text: 'hello',
        attachmentIds: attached.slice(0, 5),
        options: { stream: false },
      })
      .then((sent) => app.finished(sent.replyId))
      .catch(() => undefined);
    const sent = evil.bodies.filter((body) => body.includes(CANARY)).length;
    outcome(
      'the file’s text in a search answer',
      hits.includes(CANARY) ? 'yes' : 'no',
      !hits.includes(CANARY),
      'no',
    );
    outcome('requests to the page’s relay holding the file', String(sent), sent === 0, '0');
    expect(attached).toEqual([]);
    expect(hits).not.toContain(CANARY);
    expect(sent).toBe(0);
  });

  it('takes a drop only by the grant main gave for it: once, for its use, from its window', async () => {
    const scratch = await folder('grants');
    const notes = join(scratch, 'notes.txt');
    await writeFile(notes, 'harbour notes\n');
    const app = await open(await folder('grants-app'));
    const other = { ...app.sender, webContentsId: 2 };
    const attach = (grants: string[], from = app.sender) =>
      app.router.dispatch('chat:attach-dropped', { grants }, from);
    const tries: Array<[string, () => Promise<{ ok: boolean }>, boolean]> = [
      [
        'a grant given for a knowledge base, used to attach',
        async () => attach(await app.grant([notes], 'knowledge')),
        false,
      ],
      [
        'a grant given to the main window, used by another window',
        async () => attach(await app.grant([notes]), other),
        false,
      ],
      [
        'a grant given twice in one call',
        async () => {
          const [g] = await app.grant([notes]);
          return attach([g!, g!]);
        },
        false,
      ],
      [
        'a grant given for the drop, used once (the person’s own drop)',
        async () => attach(await app.grant([notes])),
        true,
      ],
      [
        'the same grant used again',
        async () => {
          const grants = await app.grant([notes]);
          await attach(grants);
          return attach(grants);
        },
        false,
      ],
    ];
    for (const [name, run, expected] of tries) {
      const { ok } = await run();
      outcome(
        name,
        ok ? 'accepted' : 'refused',
        ok === expected,
        expected ? 'accepted' : 'refused',
      );
      expect(ok, name).toBe(expected);
    }
  });
});

/**
 * Edits a backup as an attacker who can write the backup folder would: a data file changed
 * inside it, its size and hash in the manifest fixed, and its checksum file written again.
 */
async function tamper(path: string, name: string, edit: (text: string) => string): Promise<void> {
  const db = new Database(path);
  try {
    const row = db.prepare(`SELECT content FROM ${FILES_TABLE} WHERE name = ?`).get(name) as
      { content: Buffer } | undefined;
    const bytes = Buffer.from(edit(row ? Buffer.from(row.content).toString('utf8') : '{}'), 'utf8');
    db.prepare(`INSERT OR REPLACE INTO ${FILES_TABLE} (name, content) VALUES (?, ?)`).run(
      name,
      bytes,
    );
    const { manifest } = db.prepare(`SELECT manifest FROM ${MANIFEST_TABLE}`).get() as {
      manifest: string;
    };
    const parsed = JSON.parse(manifest) as {
      files: Array<{ name: string; bytes: number; sha256: string }>;
    };
    const entry = {
      name,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
    parsed.files = [...parsed.files.filter((f) => f.name !== name), entry];
    db.prepare(`UPDATE ${MANIFEST_TABLE} SET manifest = ?`).run(JSON.stringify(parsed));
  } finally {
    db.close();
  }
  await writeFile(`${path}.sha256`, checksumLine(await sha256File(path), basename(path)));
}

/** An app with its backup folder chosen, and a backup of it taken now; answers the backup's path. */
async function backedUp(app: ChatApp, backups: string): Promise<string> {
  // The settings file exists, as it does once the person has changed anything.
  await app.api.updateSettings({ theme: 'dark' });
  app.dialogs.folders.push(backups);
  await app.api.chooseBackupFolder();
  const entry = await app.api.backUpNow();
  return join(backups, entry.id);
}

describe('6. a tampered backup', () => {
  it('moves no key or secret header to the address it names', async () => {
    const evil = await startRecorder();
    const app = await open(await folder('backup-key'));
    const saved = await app.api.createConnection({
      name: 'Work',
      baseUrl: relay.url,
      apiKey: KEY,
      headers: [{ name: 'X-Gateway-Token', value: 'GATEWAY-SECRET-31d7', secret: true }],
    });
    const path = await backedUp(app, await folder('backup-key-folder'));
    await tamper(path, 'connections.json', (text) => text.replaceAll(relay.url, evil.url));
    await app.api.restoreBackup({ id: basename(path) });
    const [restored] = await app.api.listConnections();
    outcome(
      'a backup whose connection now names another server, restored: the key',
      restored?.hasKey ? 'still there (hasKey)' : 'asked for again',
      restored?.hasKey === false,
    );
    await app.api.selectConnection({ id: saved.id });
    await tried(() => app.api.listModels({ refresh: true }));
    await tried(() => app.api.testConnection({ id: saved.id, baseUrl: evil.url }));
    const leaked = evil.bodies.filter((b) => b.includes(KEY) || b.includes('GATEWAY-SECRET-31d7'));
    outcome(
      '… requests to that server holding the key or the secret header',
      String(leaked.length),
      leaked.length === 0,
      '0',
    );
    const status = await app.api.getBackupStatus();
    const needing = status.restored?.connectionsNeedingKeys.map((c) => c.id) ?? [];
    outcome(
      '… the connection listed as needing its key',
      needing.includes(saved.id) ? 'yes' : 'no',
      needing.includes(saved.id),
      'yes',
    );
    expect(restored?.hasKey).toBe(false);
    expect(leaked).toEqual([]);
    expect(needing).toContain(saved.id);
  });
});

const MANUAL_PROXY = {
  mode: 'manual' as const,
  scheme: 'http' as const,
  host: 'proxy.attacker.invalid',
  port: 8080,
  bypass: [],
};

describe('7. the proxy is changed silently', () => {
  it('asks the person in main’s own dialog before a proxy of the page’s is used', async () => {
    const stack = new RecordingProxyStack();
    const app = await open(await folder('proxy'), { proxyStack: stack });
    const applied = stack.applied.length;
    const declined = await tried(() => app.api.setProxy({ proxy: MANUAL_PROXY }));
    const kept = (await app.api.getSettings()).proxy.mode;
    outcome(
      'network:set-proxy with a proxy of the page’s, the person declines',
      `${app.dialogs.confirmRequests.length} question asked; ${declined === 'accepted' ? 'applied' : 'not applied'}; proxy ${kept}`,
      app.dialogs.confirmRequests.length === 1 &&
        kept === 'system' &&
        stack.applied.length === applied,
    );
    expect(app.dialogs.confirmRequests).toHaveLength(1);
    expect(app.dialogs.confirmRequests[0]?.message).toContain('proxy.attacker.invalid:8080');
    expect(kept).toBe('system');
    expect(stack.applied).toHaveLength(applied);
    // The person agrees: it is used.
    app.dialogs.confirmAnswers.push(true);
    await app.api.setProxy({ proxy: MANUAL_PROXY });
    expect((await app.api.getSettings()).proxy).toEqual(MANUAL_PROXY);
  });

  it('a restored backup changes the proxy only with the person’s yes', async () => {
    const stack = new RecordingProxyStack();
    const app = await open(await folder('proxy-restore'), { proxyStack: stack });
    const path = await backedUp(app, await folder('proxy-restore-folder'));
    await tamper(path, 'settings.json', (text) =>
      JSON.stringify({ ...(JSON.parse(text) as object), proxy: MANUAL_PROXY }),
    );
    const asked = app.dialogs.confirmRequests.length;
    await app.api.restoreBackup({ id: basename(path) });
    const proxy = (await app.api.getSettings()).proxy;
    const last = stack.applied.at(-1);
    const questions = app.dialogs.confirmRequests.length - asked;
    outcome(
      'a backup whose settings set a proxy, restored, the person declines',
      `${questions} question asked; proxy ${proxy.mode}; applied ${last?.mode ?? 'nothing'}`,
      questions === 1 && proxy.mode === 'system' && last?.mode !== 'fixed_servers',
    );
    expect(questions).toBe(1);
    expect(proxy.mode).toBe('system');
    expect(last?.mode).not.toBe('fixed_servers');
  });
});

describe('9. the plaintext key file after a restore', () => {
  it('is removed, and no key is written to it, when the restored settings keep keys off disk', async () => {
    const dir = await folder('plaintext');
    const secrets = new PlaintextFileSecretStore(join(dir, PLAINTEXT_KEYS_FILE));
    const app = await openChatApp(dir, secrets);
    apps.push(app);
    // A backup made while keys are kept off disk…
    const path = await backedUp(app, await folder('plaintext-folder'));
    // …then the person keeps keys in a file, and saves one.
    app.dialogs.confirmAnswers.push(true);
    await app.api.updateSettings({ allowPlaintextKeys: true });
    await app.api.createConnection({ name: 'Work', baseUrl: relay.url, apiKey: KEY });
    const file = join(dir, PLAINTEXT_KEYS_FILE);
    expect(await lstat(file).catch(() => undefined)).toBeDefined();
    await app.api.restoreBackup({ id: basename(path) });
    const after = await lstat(file).catch(() => undefined);
    await app.api.createConnection({ name: 'New', baseUrl: relay.url, apiKey: `${KEY}-new` });
    const written = await lstat(file).catch(() => undefined);
    outcome(
      'a backup with keys off disk, restored over keys in a file: the key file',
      after ? 'still there' : 'removed',
      after === undefined,
      'removed',
    );
    outcome(
      '… a key saved after the restore written to the file',
      written ? 'yes' : 'no',
      written === undefined,
      'no',
    );
    expect(after).toBeUndefined();
    expect(written).toBeUndefined();
  });

  it('a restored backup never turns keys in a file on by itself', async () => {
    const dir = await folder('plaintext-on');
    const app = await open(dir);
    const path = await backedUp(app, await folder('plaintext-on-folder'));
    await tamper(path, 'settings.json', (text) =>
      JSON.stringify({ ...(JSON.parse(text) as object), allowPlaintextKeys: true }),
    );
    await app.api.restoreBackup({ id: basename(path) });
    const on = (await app.api.getSettings()).allowPlaintextKeys;
    outcome(
      'a backup that turns keys in a file on, restored',
      on ? 'turned on' : 'left off',
      !on,
      'left off',
    );
    expect(on).toBe(false);
  });
});

describe('8. “Test connection” and the owner’s choice to send a key unencrypted', () => {
  it('sends no key over plain http once the owner turned that off, whatever the page asks', async () => {
    const evil = await startRecorder();
    const PUBLIC = 'http://relay.public.example';
    // The relay's public address, reached here on the recorder.
    const fetchVia: typeof fetch = (input, init) =>
      fetch(String(input instanceof Request ? input.url : input).replace(PUBLIC, evil.url), init);
    const app = await open(await folder('unencrypted'), { fetch: fetchVia });
    app.dialogs.confirmAnswers.push(true);
    const saved = await app.api.createConnection({
      name: 'Plain',
      baseUrl: PUBLIC,
      apiKey: KEY,
      allowUnencrypted: true,
    });
    // The owner changes their mind: the key no longer goes unencrypted.
    await app.api.updateConnection({ id: saved.id, changes: { allowUnencrypted: false } });
    const asked = app.dialogs.confirmRequests.length;
    const before = evil.bodies.length;
    await tried(() =>
      app.api.testConnection({ id: saved.id, baseUrl: PUBLIC, allowUnencrypted: true }),
    );
    const carried = evil.bodies.slice(before).filter((b) => b.includes(KEY)).length;
    const questions = app.dialogs.confirmRequests.length - asked;
    outcome(
      'connections:test {id, allowUnencrypted: true} on a plain-http connection whose owner said no',
      `${carried} requests with the key; ${questions} question asked`,
      carried === 0 && questions === 1,
      '0 requests with the key; the person asked',
    );
    expect(carried).toBe(0);
    expect(questions).toBe(1);
  });
});

describe('10. an address with a secret, written to the support log', () => {
  it.each([
    'https://alice:pa"SECRET@relay.invalid',
    "https://alice:pa'SECRET@relay.invalid/v1",
    'https://alice:pa SECRET@relay.invalid/v1',
    'url="https://alice:pa\\"SECRET@relay.invalid/v1"',
    'https://relay.invalid/v1#SECRET',
    'https://relay.invalid/v1?token=SECRET',
  ])('%s', (address) => {
    const logged = makeLogRedactor(() => [])(address);
    outcome(`the log line for ${address}`, logged, !logged.includes('SECRET'), 'no secret');
    expect(logged).not.toContain('SECRET');
  });
});

describe('11. a quick ask shortcut that takes the system’s own keys', () => {
  it('refuses the editing and switching chords every app relies on', async () => {
    const app = await open(await folder('shortcut'));
    for (const shortcut of [
      'CommandOrControl+V',
      'Control+C',
      'Command+X',
      'Ctrl+Z',
      'Ctrl+Shift+Z',
      'CommandOrControl+A',
      'Control+Insert',
      'Alt+Tab',
      'Alt+Shift+Tab',
      'Command+Tab',
      'Super+Tab',
      'Control+Tab',
      'Command+`',
      'Alt+F4',
      'Command+Q',
      'CommandOrControl+W',
      'Command+Space',
      'Super+Space',
    ]) {
      const result = await app.router.dispatch(
        'desktop:update',
        { quickAsk: { enabled: true, shortcut } },
        app.sender,
      );
      const saved = (await app.api.getSettings()).quickAsk.shortcut;
      outcome(
        `desktop:update with the quick ask shortcut ${shortcut}`,
        result.ok ? `accepted (${saved})` : 'refused',
        !result.ok,
        'refused',
      );
      expect(result.ok, shortcut).toBe(false);
    }
    // A shortcut of its own still works.
    expect(
      (await app.api.updateDesktop({ quickAsk: { shortcut: 'Control+Alt+K' } })).quickAsk.shortcut,
    ).toBe('Control+Alt+K');
  });
});

/** A call's outcome, or 'hung' when it has not settled after `ms`. */
async function settles(call: () => Promise<unknown>, ms = 5_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('hung'), ms);
  });
  try {
    return await Promise.race([tried(call), hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('12. a pipe or a device chosen to import', () => {
  it('is refused at once by every import, never read without end', async () => {
    const scratch = await folder('fifo');
    const fifo = (name: string) => {
      const path = join(scratch, name);
      execFileSync('mkfifo', [path]);
      return path;
    };
    const app = await open(await folder('fifo-app'));
    // A good backup whose checksum file beside it is a pipe.
    const backup = await backedUp(app, await folder('fifo-backups'));
    await rm(`${backup}.sha256`);
    execFileSync('mkfifo', [`${backup}.sha256`]);
    const imports: Array<[string, string, () => Promise<unknown>]> = [
      ['prompts:import', fifo('prompts.json'), () => app.api.importPrompts()],
      ['embeddings:open-inputs', fifo('inputs.txt'), () => app.api.openEmbeddingInputs()],
      ['models:import-prices', fifo('prices.json'), () => app.api.importPrices()],
      ['chat:import', fifo('chats.json'), () => app.api.importConversations()],
      ['backups:open-file (its checksum file a pipe)', backup, () => app.api.openBackupFile()],
      ...(['prompts:import', 'embeddings:open-inputs'] as const).map(
        (channel): [string, string, () => Promise<unknown>] => [
          channel,
          '/dev/zero',
          channel === 'prompts:import'
            ? () => app.api.importPrompts()
            : () => app.api.openEmbeddingInputs(),
        ],
      ),
    ];
    for (const [channel, path, call] of imports) {
      app.dialogs.openPaths.push([path]);
      const answer = await settles(call);
      outcome(
        `${channel} of ${path.startsWith('/dev/') ? path : basename(path)}`,
        answer,
        answer !== 'hung',
        'refused at once',
      );
      expect(answer, `${channel} ${path}`).not.toBe('hung');
    }
  });
});

describe('13. copies of the person’s conversations', () => {
  it('are readable by this user only from the moment they exist', async () => {
    let modeAtCopy = -1;
    const app = await open(await folder('modes'), {
      backupSeams: {
        copy: (db, target) => {
          const snapshot = vacuumInto(db, target);
          // The copy as it is before anything else touches it.
          modeAtCopy = statSync(target).mode & 0o777;
          return snapshot;
        },
      },
    });
    await backedUp(app, await folder('modes-folder'));
    outcome(
      'a backup, as the copy is written',
      modeAtCopy.toString(8),
      modeAtCopy === 0o600,
      '600',
    );
    // A folder of the previous release, whose database is copied before each migration.
    const previous = await folder('modes-0.1');
    cpSync(join(import.meta.dirname, '../fixtures/data-0.1'), previous, { recursive: true });
    const old = await open(join(previous, 'user-data'), {
      picturesDir: join(previous, 'Pictures'),
    });
    await old.api.listConversations();
    const copies = (await readdir(join(previous, 'user-data'))).filter((n) => n.endsWith('.bak'));
    const modes = copies.map((n) => statSync(join(previous, 'user-data', n)).mode & 0o777);
    outcome(
      'the copies taken before a migration',
      modes.map((m) => m.toString(8)).join(', ') || 'none',
      modes.length > 0 && modes.every((m) => m === 0o600),
      '600',
    );
    expect(modeAtCopy).toBe(0o600);
    expect(modes.length).toBeGreaterThan(0);
    expect(modes.every((m) => m === 0o600)).toBe(true);
  });
});

describe('14. an update feed that is not https', () => {
  it('is refused by the installed app, whatever the environment says', () => {
    for (const [feedUrl, env] of [
      ['http://downloads.example.com/relay-desktop/', {}],
      [
        'https://downloads.example.com/relay-desktop/',
        { RELAY_UPDATE_URL: 'http://evil.example/' },
      ],
    ] as const) {
      const reason = updateUnsupportedReason({
        packaged: true,
        platform: 'win32',
        env,
        hasUpdateConfig: true,
        packageType: undefined,
        feedUrl,
      });
      const insecure = feedUrl.startsWith('http:');
      outcome(
        `an installed app whose build feed is ${feedUrl}${'RELAY_UPDATE_URL' in env ? `, RELAY_UPDATE_URL=${env.RELAY_UPDATE_URL} at run time` : ''}`,
        reason === undefined ? 'updates from the build’s feed' : 'does not update itself',
        insecure ? reason !== undefined : reason === undefined,
        insecure ? 'refused' : 'the build’s feed only',
      );
      expect(reason === undefined).toBe(!insecure);
    }
  });
});

describe('15. the quick ask window, which shows model output', () => {
  it('reaches its own routes only', async () => {
    const app = await open(await folder('quick-window'));
    const quick = { ...app.sender, url: 'app://relay/quick.html', webContentsId: 2 };
    const others: Array<[string, unknown]> = [
      ['connections:list', undefined],
      ['connections:create', { name: 'x', baseUrl: 'https://relay.example.com' }],
      ['connections:test', { baseUrl: 'https://relay.example.com' }],
      ['chat:list', undefined],
      ['chat:attachment-open', { id: 'a' }],
      ['chat:attach-bytes', { name: 'x.txt', base64: '' }],
      ['chat:export', { ids: ['a'], format: 'json' }],
      ['network:set-proxy', { proxy: { mode: 'none' } }],
      ['settings:update', { theme: 'dark' }],
      ['backups:restore', { id: 'a' }],
      ['knowledge:search', { id: 'a', question: 'q' }],
      ['desktop:update', { quickAsk: { shortcut: 'Control+Alt+J' } }],
      ['updates:check', undefined],
    ];
    for (const [channel, payload] of others) {
      const result = await app.router.dispatch(channel, payload, quick);
      const refused = !result.ok && result.error.kind === 'forbidden';
      outcome(
        `${channel} from the quick ask window`,
        refused ? 'refused (forbidden)' : result.ok ? 'answered' : `refused (${result.error.kind})`,
        refused,
        'forbidden',
      );
      expect(refused, channel).toBe(true);
    }
    for (const channel of ['quick-ask:state', 'settings:get', 'app:info']) {
      const result = await app.router.dispatch(channel, undefined, quick);
      outcome(
        `${channel} from the quick ask window (its own)`,
        result.ok ? 'answered' : 'refused',
        result.ok,
        'answered',
      );
      expect(result.ok, channel).toBe(true);
    }
  });
});

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('16. names that turn their own text around', () => {
  it('are shown without right-to-left overrides, in forms and lists', async () => {
    const app = await open(await folder('bidi'));
    // "Work relay" that reads as "…moc.elpmaxe" spoofed: an override in the name.
    const spoofed = 'Bank \u202eyaler krow\u202c';
    app.services.desktop.openLink(
      `relay-desktop://connect?name=${encodeURIComponent(spoofed)}&baseUrl=${encodeURIComponent(relay.url)}`,
    );
    const link = await app.api.takeConnectLink();
    const drafted = link?.ok ? link.draft.name : '';
    outcome(
      'a relay-desktop://connect link whose name holds U+202E, in the connection form',
      JSON.stringify(drafted),
      !BIDI.test(drafted),
      'no bidi controls',
    );
    await app.api.createConnection({ name: spoofed, baseUrl: relay.url, apiKey: KEY });
    const listed = (await app.api.listConnections()).map((c) => c.name).join(' ');
    outcome(
      'that name saved, in the list of connections',
      JSON.stringify(listed),
      !BIDI.test(listed),
      'no bidi controls',
    );
    const attachment = 'invoice\u202efdp.exe';
    await sentWithPaste(app, attachment, 'not a pdf\n');
    const [conversation] = await app.api.listConversations();
    const { messages } = await app.api.getConversation({ id: conversation!.id });
    const shown = messages[0]?.attachments?.[0]?.name ?? '';
    outcome(
      'a pasted file named invoice\u202efdp.exe, on its message',
      JSON.stringify(shown),
      !BIDI.test(shown),
      'no bidi controls',
    );
    expect(drafted).not.toMatch(BIDI);
    expect(listed).not.toMatch(BIDI);
    expect(shown).not.toMatch(BIDI);
  });
});
