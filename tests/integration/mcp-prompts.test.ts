/**
 * MCP prompts and resources through the real router and bridge, over the app's services, with
 * real servers (server-everything, and a small SDK server for what it lacks): the `/` list's
 * prompts, a prompt's messages with its arguments checked, a resource attached like a file, and
 * what is refused (a missing argument, a prompt or resource the server did not list, a type a
 * message cannot carry). Every event is checked against the contract.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppServices, type AppServices } from '../../electron/main/app-services';
import { createRouter, trustedSender } from '../../electron/main/ipc/router';
import { MemorySecretStore } from '../../electron/main/services/secret-store';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { ScriptedDialogs } from '../fakes/chat-dialogs';
import { checkedEvents } from '../fakes/contract-events';
import { pageBridge } from '../fakes/page-bridge';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const MISBEHAVING = join(root, 'tests/fixtures/mcp/misbehaving-server.mjs');
const RESOURCES = join(root, 'tests/fixtures/mcp/resources-server.mjs');
const sender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };

let dataDir: string;
let services: AppServices | undefined;
let chosen: string[] = [];
/** Main's own questions (running a local server): each answered from the queue, else Cancel. */
let scripted = new ScriptedDialogs();
const crossed: string[] = [];
const events: Array<{ channel: string; payload: unknown }> = [];

async function open() {
  services = await createAppServices({
    userDataDir: dataDir,
    secretStore: new MemorySecretStore(),
    emit: checkedEvents((channel, payload) => {
      events.push({ channel, payload });
      crossed.push(JSON.stringify(payload));
    }),
    dialogs: {
      chooseSavePath: async () => undefined,
      chooseOpenPaths: async () => chosen,
      confirm: (question) => scripted.confirm(question),
    },
    version: '9.9.9',
    platform: 'test',
  });
  const opened = createRouter(ROUTES, services.handlers, {
    isTrustedSender: trustedSender(['app://relay'], () => [1]),
  });
  return pageBridge(
    async (channel, payload) => {
      const result = await opened.dispatch(channel, payload, sender);
      crossed.push(JSON.stringify(result));
      return result;
    },
    () => () => undefined,
    (channel, payload) => void opened.receive(channel, payload, sender),
  );
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-mcp-prompts-'));
  crossed.length = 0;
  events.length = 0;
  chosen = [];
  scripted = new ScriptedDialogs();
});
afterEach(async () => {
  await services?.close();
  services = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

async function addServer(
  api: Awaited<ReturnType<typeof open>>,
  name: string,
  args: string[],
): Promise<string> {
  const added = await api.addMcpServer({ name, transport: 'stdio', command: 'node', args });
  scripted.confirmAnswers.push(true);
  return added.id;
}

describe('MCP prompts and resources', { timeout: 60_000 }, () => {
  it('lists prompts, gets one with its arguments checked, and refuses what the server did not list', async () => {
    const api = await open();
    const id = await addServer(api, 'Everything', [EVERYTHING, 'stdio']);
    // Started by the first listing, as tools are.
    expect(services?.mcp.pidOf(id)).toBeUndefined();
    const list = await api.listMcpPrompts({ id });
    expect(list).toMatchObject({ id, name: 'Everything', problem: null });
    expect(services?.mcp.pidOf(id)).toBeGreaterThan(0);
    const byName = Object.fromEntries(list.prompts.map((p) => [p.name, p]));
    expect(byName['simple-prompt']).toMatchObject({ title: 'Simple Prompt', arguments: [] });
    expect(byName['args-prompt']?.arguments).toEqual([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', description: '', required: false },
    ]);

    await expect(
      api.getMcpPrompt({ id, prompt: 'simple-prompt', arguments: {} }),
    ).resolves.toMatchObject({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: 'This is a simple prompt without arguments.' },
        },
      ],
    });
    // An optional argument left blank is not sent.
    const filled = await api.getMcpPrompt({
      id,
      prompt: 'args-prompt',
      arguments: { city: 'Lyon', state: ' ' },
    });
    expect(filled.messages[0]?.content).toEqual({ type: 'text', text: "What's weather in Lyon?" });
    // An embedded text resource comes with its text.
    const embedded = await api.getMcpPrompt({
      id,
      prompt: 'resource-prompt',
      arguments: { resourceType: 'Text', resourceId: '1' },
    });
    expect(embedded.messages[1]?.content).toMatchObject({
      type: 'resource',
      uri: 'demo://resource/dynamic/text/1',
      text: expect.stringContaining('Resource 1'),
    });

    // A required argument missing or blank, one it does not take, a prompt it did not list.
    await expect(
      api.getMcpPrompt({ id, prompt: 'args-prompt', arguments: { city: '  ' } }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      messageId: 'tools.prompt.missingArguments',
      values: { arguments: 'city' },
    });
    await expect(
      api.getMcpPrompt({ id, prompt: 'args-prompt', arguments: { city: 'Lyon', country: 'FR' } }),
    ).rejects.toMatchObject({
      kind: 'invalid_request',
      messageId: 'tools.prompt.unknownArgument',
    });
    await expect(
      api.getMcpPrompt({ id, prompt: 'no-such-prompt', arguments: {} }),
    ).rejects.toMatchObject({ kind: 'not_found', messageId: 'tools.prompt.notListed' });
    // The contract refuses arguments that are not text, and fields it does not know.
    await expect(
      api.getMcpPrompt({ id, prompt: 'args-prompt', arguments: { city: 3 } } as never),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    await expect(api.listMcpPrompts({ id, path: '/etc' } as never)).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await expect(api.listMcpPrompts({ id: 'nope' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('attaches a listed resource like a file, and refuses a URI the server did not list', async () => {
    const api = await open();
    const id = await addServer(api, 'Everything', [EVERYTHING, 'stdio']);
    const list = await api.listMcpResources({ id });
    expect(list.problem).toBeNull();
    const architecture = list.resources.find((r) => r.name === 'architecture.md');
    expect(architecture).toMatchObject({
      uri: 'demo://resource/static/document/architecture.md',
      mimeType: 'text/markdown',
    });

    const attached = await api.attachMcpResource({ serverId: id, uri: architecture!.uri });
    expect(attached.refused).toEqual([]);
    expect(attached.attached).toEqual([
      expect.objectContaining({ name: 'architecture.md', kind: 'text', mimeType: 'text/markdown' }),
    ]);
    expect(attached.attached[0]!.tokens).toBeGreaterThan(10);

    // The server would read this one (a template's), but did not list it: refused, unread.
    await expect(
      api.attachMcpResource({ serverId: id, uri: 'demo://resource/dynamic/text/1' }),
    ).rejects.toMatchObject({ kind: 'invalid_request', messageId: 'tools.resource.notListed' });
    await expect(
      api.attachMcpResource({ serverId: id, uri: 'file:///etc/passwd' }),
    ).rejects.toMatchObject({ kind: 'invalid_request', messageId: 'tools.resource.notListed' });
    await expect(api.attachMcpResource({ serverId: id, uri: '' } as never)).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await expect(
      api.attachMcpResource({ serverId: id, uri: architecture!.uri, path: '/etc/passwd' } as never),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
  });

  it('attaches an image, refuses bytes a message cannot carry, says what a prompt holds besides text, and follows list_changed', async () => {
    const api = await open();
    const id = await addServer(api, 'Memo', [RESOURCES]);
    const { resources } = await api.listMcpResources({ id });
    expect(resources.map((r) => r.name)).toEqual(['notes', 'pixel', 'firmware.bin']);

    const notes = await api.attachMcpResource({ serverId: id, uri: 'memo://notes' });
    expect(notes.attached).toEqual([expect.objectContaining({ name: 'notes.txt', kind: 'text' })]);
    const pixel = await api.attachMcpResource({ serverId: id, uri: 'memo://pixel' });
    expect(pixel.attached).toEqual([
      expect.objectContaining({ name: 'pixel.png', kind: 'image', width: 1, height: 1 }),
    ]);
    const firmware = await api.attachMcpResource({ serverId: id, uri: 'memo://firmware' });
    expect(firmware.attached).toEqual([]);
    expect(firmware.refused).toEqual([
      expect.objectContaining({
        name: 'firmware.bin',
        message:
          'firmware.bin was not added: it is application/octet-stream, which a message cannot carry (text, PDF, .docx and PNG, JPEG, WebP or GIF images can).',
      }),
    ]);

    const mixed = await api.getMcpPrompt({ id, prompt: 'mixed', arguments: {} });
    expect(mixed.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Describe this picture.' } },
      { role: 'user', content: { type: 'image', mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'text', text: 'It is one pixel.' } },
    ]);

    // The server adds a prompt: the page is told, and the next listing has it.
    expect((await api.listMcpPrompts({ id })).prompts.map((p) => p.name)).toEqual(['mixed']);
    await services!.mcp.callTool(id, 'add_prompt', {});
    await expect
      .poll(() => events.filter((e) => e.channel === 'tools:list-changed').map((e) => e.payload))
      .toContainEqual({ id, list: 'prompts' });
    expect((await api.listMcpPrompts({ id })).prompts.map((p) => p.name)).toEqual([
      'mixed',
      'extra_1',
    ]);
    await expect(api.getMcpPrompt({ id, prompt: 'extra_1', arguments: {} })).resolves.toMatchObject(
      { messages: [{ content: { text: 'Extra 1' } }] },
    );
  });

  it('says why a server gave no prompts instead of waiting: one that exits, one not allowed to run', async () => {
    const api = await open();
    const id = await addServer(api, 'Broken', [MISBEHAVING, 'exit-at-start']);
    const list = await api.listMcpPrompts({ id });
    expect(list).toMatchObject({
      name: 'Broken',
      prompts: [],
      problem: { diagnosis: 'exited', messageId: 'tools.start.exited' },
    });
    const resources = await api.listMcpResources({ id });
    expect(resources.problem?.diagnosis).toBe('exited');

    const refused = await api.addMcpServer({
      name: 'Refused',
      transport: 'stdio',
      command: 'node',
      args: [EVERYTHING, 'stdio'],
    });
    scripted.confirmAnswers.push(false);
    expect((await api.listMcpPrompts({ id: refused.id })).problem?.diagnosis).toBe('not_allowed');
    await expect(
      api.attachMcpResource({
        serverId: refused.id,
        uri: 'demo://resource/static/document/architecture.md',
      }),
    ).rejects.toMatchObject({ messageId: 'tools.start.notAllowed' });
  });
});
