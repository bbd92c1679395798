/**
 * A reply that used tools, through the real router and services: the demo relay's `demo-tools`
 * model and server-everything over stdio. Its usage is every step's summed (what each request of
 * the turn spent), in the reply and on the Usage screen; its calls are found by search; they
 * travel in a JSON export and come back with its import, and a Markdown export shows each call
 * as text (never HTML from a result).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { EXPORT_VERSION } from '../../electron/main/services/chat/transfer';
import type { ChatMessageRecord } from '../../electron/shared/ipc/routes/chat';
import { openChatApp, type ChatApp } from '../fakes/chat-app';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let relay: DemoRelay;
let dir: string;
let app: ChatApp;
let serverId: string;
/** What each streamed request to the relay's chat completions reported it spent. */
const spent: Array<Promise<{ prompt: number; completion: number; total: number } | undefined>> = [];

/** Node's fetch, with the usage of each streamed chat completion read from a copy of its body. */
async function recordingFetch(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (!url.endsWith('/chat/completions') || response.body === null) return response;
  const [mine, theirs] = response.body.tee();
  spent.push(
    new Response(theirs).text().then((text) => {
      for (const line of text.split('\n')) {
        if (!line.startsWith('data: {')) continue;
        const usage = (JSON.parse(line.slice(6)) as { usage?: Record<string, number> }).usage;
        if (usage)
          return {
            prompt: usage.prompt_tokens!,
            completion: usage.completion_tokens!,
            total: usage.total_tokens!,
          };
      }
      return undefined;
    }),
  );
  return new Response(mine, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

beforeAll(async () => {
  relay = await startDemoRelay({ keys: ['sk-tool-turns-abcdef'], tokensPerSecond: 0 });
  dir = await mkdtemp(join(tmpdir(), 'relay-tool-turns-'));
  app = await openChatApp(join(dir, 'user-data'), undefined, { fetch: recordingFetch as never });
  await app.api.createConnection({
    name: 'Local relay',
    baseUrl: relay.url,
    apiKey: 'sk-tool-turns-abcdef',
  });
  // Main asks before it starts a local server's command: the person says yes.
  app.dialogs.confirmAnswers.push(true, true, true);
  serverId = (
    await app.services.mcp.add({
      name: 'Everything',
      transport: 'stdio',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
    })
  ).id;
  await app.api.setMcpServerRule({ id: serverId, rule: 'allow' });
}, 60_000);
afterAll(async () => {
  await app.services.close();
  await relay.close();
  await rm(dir, { recursive: true, force: true });
});

/** A conversation with the server's tools, and a reply that called one. */
async function toolReply(
  text: string,
): Promise<{ conversationId: string; reply: ChatMessageRecord }> {
  const conversation = await app.api.createConversation({ model: 'demo-tools' });
  await app.api.updateConversationSettings({ id: conversation.id, toolServerIds: [serverId] });
  const sent = await app.api.sendMessage({ conversationId: conversation.id, text });
  const finished = await app.finished(sent.replyId);
  expect(finished.status).toBe('complete');
  const shown = await app.api.getConversation({ id: conversation.id });
  const reply = shown.messages.find((m) => m.id === sent.replyId)!;
  expect(reply.tools?.steps[0]?.calls[0]?.state).toBe('done');
  return { conversationId: conversation.id, reply };
}

describe('a reply that used tools', { timeout: 60_000 }, () => {
  it('records the tokens of every step of the turn, summed, in the reply and on the Usage screen', async () => {
    spent.length = 0;
    const { reply } = await toolReply('What is the sum of 2 and 3?');
    // Two requests: the one that called the tool, and the one that answered from its result.
    const steps = await Promise.all(spent);
    expect(steps).toHaveLength(2);
    expect(steps.every((s) => s !== undefined && s.prompt > 0 && s.completion > 0)).toBe(true);
    const sum = (key: 'prompt' | 'completion' | 'total') =>
      steps.reduce((total, s) => total + s![key], 0);
    expect(reply.usage).toEqual({
      promptTokens: sum('prompt'),
      completionTokens: sum('completion'),
      totalTokens: sum('total'),
    });
    const usage = await app.api.getUsage({ days: 1 });
    expect(usage.byModel.find((m) => m.model === 'demo-tools')).toMatchObject({
      replies: 1,
      promptTokens: sum('prompt'),
      completionTokens: sum('completion'),
    });
  });

  it('is found by a word of its call’s arguments, exported with its calls and imported back', async () => {
    const { conversationId, reply } = await toolReply(
      'Echo the message "<b>narwhal</b> <img src=x onerror=alert(1)>"',
    );
    const call = reply.tools!.steps[0]!.calls[0]!;
    expect(call.tool).toBe('echo');
    expect(call.result).toContain('<img src=x onerror=alert(1)>');

    // Search: the word of the arguments finds the reply, its snippet led by the tool's name.
    const hits = await app.api.searchMessages({ query: 'narwhal' });
    expect(hits.map((h) => h.messageId)).toContain(reply.id);

    // JSON: the calls travel, and come back whole with the import.
    const jsonPath = join(dir, 'echo.json');
    app.dialogs.savePaths.push(jsonPath);
    await app.api.exportConversations({ ids: [conversationId], format: 'json' });
    const document = JSON.parse(await readFile(jsonPath, 'utf8'));
    expect(document.version).toBe(EXPORT_VERSION);
    const exported = document.conversations[0].messages.find(
      (m: { role: string }) => m.role === 'assistant',
    );
    expect(exported.tools).toEqual(reply.tools);
    app.dialogs.openPaths.push([jsonPath]);
    const imported = await app.api.importConversations();
    expect(imported.refused).toEqual([]);
    const copy = await app.api.getConversation({ id: imported.conversationIds[0]! });
    const copied = copy.messages.find((m) => m.role === 'assistant')!;
    expect(copied.tools).toEqual(reply.tools);
    expect(copied.usage).toEqual(reply.usage);
    // The copy's calls are found too.
    const again = await app.api.searchMessages({ query: 'narwhal' });
    expect(again.map((h) => h.messageId)).toContain(copied.id);

    // Markdown: the call as text, its result fenced so that no HTML of it is ever rendered.
    const mdPath = join(dir, 'echo.md');
    app.dialogs.savePaths.push(mdPath);
    await app.api.exportConversations({ ids: [conversationId], format: 'markdown' });
    const markdown = await readFile(mdPath, 'utf8');
    expect(markdown).toContain('**Tool call: echo** on Everything');
    // The calls come before the reply's own text (the model's words, as in any export).
    const calls = markdown.slice(
      markdown.indexOf('**Tool call: echo**'),
      markdown.indexOf(reply.content.split('\n')[0]!),
    );
    const fence = /```+text\n[\s\S]*?\n```+/g;
    expect(calls.match(fence)).toContain(
      '```text\nEcho: <b>narwhal</b> <img src=x onerror=alert(1)>\n```',
    );
    expect(calls).toContain('Arguments:\n\n```text\n{\n  "message": "<b>narwhal</b>');
    // Outside the fences, no tag of the arguments or the result.
    expect(calls.replace(fence, '')).not.toMatch(/<img|<b>/);
  });
});
