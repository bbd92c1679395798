/**
 * Section 3, IPC: arbitrary payloads for every route of the contract (fast-check) through the
 * real router to the real handlers of createAppServices on a temp user data folder; oversized
 * payloads, `__proto__` keys and calls from foreign senders. No crash, every invalid payload
 * refused with a clear error, no write outside the app's folders: HOME and TMPDIR point at an
 * empty sandbox for the whole run, network fetches are refused and file dialogs cancel.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createRouter,
  trustedSender,
  type Handlers,
  type IpcSender,
} from '../../electron/main/ipc/router';
import { IPC_ERROR_KINDS, type IpcError, type IpcResult } from '../../electron/shared/ipc/define';
import { ROUTES } from '../../electron/shared/ipc/contract';
import { MAX_REPLY_CHARS } from '../../electron/shared/ipc/routes/chat';
import { openChatApp, type ChatApp } from '../fakes/chat-app';
import { supportLog } from './lib/app-log';
import { captureOutput, type Capture } from './lib/capture';
import { CANARY_KEY, CANARY_PROMPT, cleanUp, keepOutput, suiteDir, sweep } from './lib/canary';
import { count, FULL, recordFigures } from './lib/record';

const PER_ROUTE = count(10_000, 150);
const ours: IpcSender = { url: 'app://relay/index.html', isMainFrame: true, webContentsId: 1 };
const FOREIGN: Array<[string, IpcSender]> = [
  ['an iframe', { ...ours, isMainFrame: false }],
  ['another window', { ...ours, webContentsId: 2 }],
  ['another origin', { ...ours, url: 'https://evil.example/app' }],
  ['a file page', { ...ours, url: 'file:///tmp/index.html' }],
  ['a garbage url', { ...ours, url: 'not a url' }],
];

let app: ChatApp;
let capture: Capture;
let dataDir: string;
let picturesDir: string;
let sandbox: string;
const savedEnv = { HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
const fetches: string[] = [];
const internalErrors: string[] = [];

function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  capture = captureOutput();
  dataDir = await suiteDir('ipc');
  picturesDir = await suiteDir('ipc-pictures');
  sandbox = await suiteDir('ipc-sandbox');
  mkdirSync(join(sandbox, 'home'));
  mkdirSync(join(sandbox, 'tmp'));
  process.env.HOME = join(sandbox, 'home');
  process.env.TMPDIR = join(sandbox, 'tmp');
  app = await openChatApp(dataDir, undefined, {
    log: supportLog(dataDir),
    picturesDir,
    fetch: async (url) => {
      fetches.push(url);
      throw new TypeError('fetch failed: the network is off in this test');
    },
  });
  // Something for the routes to find: a conversation holding the canary prompt.
  const conversation = await app.api.createConversation({ model: 'demo-chat' });
  await app.api
    .renameConversation({ id: conversation.id, title: CANARY_PROMPT })
    .catch(() => undefined);
});
afterAll(async () => {
  await app?.services.close();
  process.env.HOME = savedEnv.HOME;
  process.env.TMPDIR = savedEnv.TMPDIR;
  capture.stop();
  keepOutput('ipc', capture.text());
  cleanUp([dataDir, picturesDir, sandbox]);
});

/** The top-level field names of a route's request schema, when it is an object. */
/** The field names of a route's request object, looking through `.optional()`. */
function fieldsOf(schema: unknown): string[] {
  let current = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown } | undefined;
  while (current && !current.shape && typeof current.unwrap === 'function')
    current = current.unwrap() as typeof current;
  const shape = current?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

const UUID = '3f2b8c1e-9d4a-4e7b-8c2f-1a2b3c4d5e6f';
const plausible = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(UUID, 'demo-chat', 'demo-embedding', 'http://127.0.0.1:9/', '', ' '),
  fc.integer({ min: -5, max: 5000 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom(UUID, 'a', ''), { maxLength: 4 }),
  fc.dictionary(
    fc.constantFrom('temperature', 'maxTokens', 'requestSeconds', 'idleSeconds', 'x'),
    fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double()),
  ),
);

function payloadArb(fields: string[]): fc.Arbitrary<unknown> {
  const anything = fc.anything({
    withObjectString: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withTypedArray: true,
    withSparseArray: true,
  });
  if (fields.length === 0) return fc.oneof(anything, fc.constant(undefined));
  // The canary key goes only where a key belongs (apiKey): anywhere else it is a name or a model
  // the person typed, which the app rightly stores.
  const withKey = (arb: fc.Arbitrary<Record<string, unknown>>) =>
    fc
      .tuple(arb, fc.boolean())
      .map(([payload, useKey]) =>
        useKey && 'apiKey' in payload ? { ...payload, apiKey: CANARY_KEY } : payload,
      );
  return fc.oneof(
    anything,
    withKey(fc.dictionary(fc.constantFrom(...fields), plausible, { maxKeys: fields.length })),
    withKey(
      fc.dictionary(fc.constantFrom(...fields, 'extra', 'constructor', 'toString'), plausible),
    ),
  );
}

it(`${PER_ROUTE} arbitrary payloads per route, oversized ones, __proto__ keys and foreign senders`, async () => {
  const routes = Object.entries(ROUTES);
  const calls = new Map<string, number>();
  /** The size of the last request a handler received (after the contract's parse). */
  let lastHandled = { name: '', size: 0 };
  const counted = Object.fromEntries(
    Object.entries(app.services.handlers).map(([name, handler]) => [
      name,
      (request: unknown, sender: IpcSender) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        lastHandled = { name, size: safe(request, Infinity).length };
        return (handler as (r: unknown, s: IpcSender) => unknown)(request, sender);
      },
    ]),
  ) as unknown as Handlers<typeof ROUTES>;
  const router = createRouter(ROUTES, counted, {
    isTrustedSender: trustedSender(['app://relay'], () => [1]),
    onInternalError: (channel, error) =>
      internalErrors.push(`${channel}: ${error instanceof Error ? error.message : String(error)}`),
    onRefused: (_channel, error) => refusedOneWay.push(error),
  });
  /** One-way routes answer nothing: a refusal is what the router reports to `onRefused`. */
  const refusedOneWay: IpcError[] = [];
  const oneWay = new Set(router.oneWayChannels);
  const before = { home: files(join(sandbox, 'home')), tmp: files(join(sandbox, 'tmp')) };
  const problems: string[] = [];
  let sent = 0;
  let refused = 0;
  let accepted = 0;
  let handlerErrors = 0;
  let thrown = 0;

  function judge(channel: string, payload: unknown, result: IpcResult<unknown> | undefined) {
    sent++;
    if (result === undefined) return;
    if (result.ok) {
      accepted++;
      return;
    }
    const { kind, message } = result.error;
    if (!(IPC_ERROR_KINDS as readonly string[]).includes(kind) || message.trim().length < 15)
      problems.push(`${channel}: unclear refusal ${JSON.stringify(result.error)}`);
    if (message.startsWith(`The request to ${channel} is not valid: `)) refused++;
    else handlerErrors++;
    if (kind === 'internal') problems.push(`${channel}: internal error for ${safe(payload)}`);
  }

  async function send(channel: string, payload: unknown, sender = ours) {
    try {
      if (oneWay.has(channel)) {
        const before = refusedOneWay.length;
        await router.receive(channel, payload, sender);
        const result: IpcResult<unknown> =
          refusedOneWay.length > before
            ? { ok: false, error: refusedOneWay.at(-1)! }
            : { ok: true, value: undefined };
        judge(channel, payload, result);
        return result;
      }
      const result = await router.dispatch(channel, payload, sender);
      judge(channel, payload, result);
      return result;
    } catch (error) {
      thrown++;
      problems.push(`${channel}: dispatch threw ${String(error)}`);
      return undefined;
    }
  }

  // 1. Arbitrary payloads.
  for (const [, spec] of routes) {
    const samples = fc.sample(payloadArb(fieldsOf(spec.request)), {
      numRuns: PER_ROUTE,
      seed: 2026,
    });
    for (const payload of samples) await send(spec.channel, payload);
  }
  const arbitrary = { sent, refused, accepted, handlerErrors };

  // 2. Oversized: every field longer than the longest text any route takes (a reply to copy,
  // MAX_REPLY_CHARS), a 200,000-element array, deep nesting.
  let oversizedRefused = 0;
  let oversizedDropped = 0;
  const droppingRoutes = new Set<string>();
  let oversizedSent = 0;
  const big = 'x'.repeat(MAX_REPLY_CHARS + 1);
  let deep: unknown = 'bottom';
  for (let i = 0; i < 5000; i++) deep = { a: deep };
  for (const [, spec] of routes) {
    const fields = fieldsOf(spec.request);
    const payloads: unknown[] = [
      big,
      new Array(200_000).fill(UUID),
      deep,
      ...fields.map((f) => ({ [f]: big })),
      ...(fields.length > 1 ? [Object.fromEntries(fields.map((f) => [f, big]))] : []),
    ];
    for (const payload of payloads) {
      oversizedSent++;
      lastHandled = { name: '', size: 0 };
      const result = await send(spec.channel, payload);
      if (result && !result.ok && result.error.kind === 'invalid_request') oversizedRefused++;
      else if (lastHandled.name !== '' && lastHandled.size < 10_000) {
        // A schema that is not strict drops unknown fields: the handler saw none of the bulk.
        oversizedDropped++;
        droppingRoutes.add(spec.channel);
      } else problems.push(`${spec.channel}: an oversized payload reached its handler`);
    }
  }

  // 3. __proto__ and constructor keys, at the top and nested.
  let protoSent = 0;
  for (const [, spec] of routes) {
    const fields = fieldsOf(spec.request);
    const inner = fields.map((f) => `"${f}":{"__proto__":{"polluted":true}}`).join(',');
    const texts = [
      '{"__proto__":{"polluted":true}}',
      `{"__proto__":{"polluted":true}${fields.length ? `,"${fields[0]}":"${UUID}"` : ''}}`,
      '{"constructor":{"prototype":{"polluted":true}}}',
      `{${inner}}`,
    ];
    for (const text of texts) {
      protoSent++;
      await send(spec.channel, JSON.parse(text));
    }
  }
  const polluted = ({} as Record<string, unknown>).polluted !== undefined;

  // 4. Foreign senders: refused as forbidden, the handler never run.
  const callsBefore = [...calls.values()].reduce((a, b) => a + b, 0);
  let forbidden = 0;
  let foreignSent = 0;
  for (const [, spec] of routes) {
    for (const [, sender] of FOREIGN) {
      foreignSent++;
      const result = await send(spec.channel, undefined, sender);
      if (result && !result.ok && result.error.kind === 'forbidden') forbidden++;
      else problems.push(`${spec.channel}: a foreign sender was not refused`);
    }
  }
  const callsAfter = [...calls.values()].reduce((a, b) => a + b, 0);

  const after = { home: files(join(sandbox, 'home')), tmp: files(join(sandbox, 'tmp')) };
  const outside = [...after.home, ...after.tmp].filter(
    (f) => ![...before.home, ...before.tmp].includes(f),
  );
  const swept = sweep(
    [dataDir, picturesDir, sandbox],
    [{ name: 'console output of section 3', text: capture.text() }],
  );
  const dataFiles = files(dataDir).map((f) => f.slice(dataDir.length + 1));

  recordFigures(
    3,
    'IPC',
    [
      { name: 'Routes', value: routes.length },
      {
        name: 'Arbitrary payloads per route',
        value: PER_ROUTE,
        target: '10,000',
        ok: FULL ? PER_ROUTE >= 10_000 : undefined,
      },
      { name: 'Arbitrary payloads sent', value: arbitrary.sent },
      {
        name: '… refused by the contract (invalid_request with the field)',
        value: arbitrary.refused,
      },
      { name: '… accepted and answered', value: arbitrary.accepted },
      {
        name: '… accepted, then refused by the handler (not_found, …)',
        value: arbitrary.handlerErrors,
      },
      { name: 'Oversized payloads sent', value: oversizedSent },
      { name: '… refused as invalid_request', value: oversizedRefused },
      {
        name: '… accepted with the bulk dropped as unknown fields (handler saw < 10 kB)',
        value: oversizedDropped,
        ok: oversizedRefused + oversizedDropped === oversizedSent,
      },
      { name: '__proto__ / constructor payloads sent', value: protoSent },
      {
        name: 'Object.prototype polluted',
        value: polluted ? 'yes' : 'no',
        target: 'no',
        ok: !polluted,
      },
      {
        name: 'Foreign-sender calls refused as forbidden',
        value: `${forbidden} of ${foreignSent}`,
        ok: forbidden === foreignSent,
      },
      {
        name: 'Handlers run for foreign senders',
        value: callsAfter - callsBefore,
        target: '0',
        ok: callsAfter === callsBefore,
      },
      { name: 'Dispatches that threw', value: thrown, target: '0', ok: thrown === 0 },
      {
        name: 'Internal errors (a handler fault)',
        value: internalErrors.length,
        target: '0',
        ok: internalErrors.length === 0,
      },
      {
        name: 'Unclear refusals',
        value: problems.filter((p) => p.includes('unclear')).length,
        target: '0',
      },
      {
        name: 'Files written in HOME or TMPDIR (sandbox)',
        value: outside.length,
        target: '0',
        ok: outside.length === 0,
      },
      { name: 'Network requests attempted (all refused by the test)', value: fetches.length },
      {
        name: 'Canary key found in files or output',
        value: swept.hits.length,
        target: '0',
        ok: swept.hits.length === 0,
      },
    ],
    [
      'Payloads: fast-check arbitrary values (objects, null-prototype objects, strings, bigints, dates, maps, sets, typed and sparse arrays…) and objects built from each route’s own field names with plausible values (ids, model names, URLs; the canary key in apiKey fields), seed 2026.',
      `Files the app wrote, all inside its user data folder: ${dataFiles.join(', ')}.`,
      ...(droppingRoutes.size > 0
        ? [
            `Routes whose request schema is not strict, so an unknown oversized field is dropped rather than refused: ${[...droppingRoutes].join(', ')}.`,
          ]
        : []),
      ...problems.slice(0, 5).map((p) => `Problem: ${p}`),
      ...internalErrors.slice(0, 3).map((p) => `Internal error: ${p}`),
    ],
  );
  expect(internalErrors.slice(0, 10)).toEqual([]);
  expect(problems.slice(0, 10)).toEqual([]);
  expect(thrown).toBe(0);
  expect(polluted).toBe(false);
  expect(forbidden).toBe(foreignSent);
  expect(callsAfter).toBe(callsBefore);
  expect(oversizedRefused + oversizedDropped).toBe(oversizedSent);
  expect(arbitrary.refused).toBeGreaterThan(0);
  expect(arbitrary.accepted).toBeGreaterThan(0);
  expect(outside).toEqual([]);
  expect(swept.hits).toEqual([]);
});

function safe(value: unknown, max = 200): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, max);
  } catch {
    return typeof value;
  }
}
