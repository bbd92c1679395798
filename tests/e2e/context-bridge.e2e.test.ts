/**
 * The context bridge the e2e suite runs the built preload behind (tests/harness/context-bridge),
 * checked between the two worlds of a real Chromium page: every case of the type table (the
 * same cases the unit tests check between two Node realms), what crosses by reference in a
 * window (Elements, Files), and the harness's file drop with `webUtils.getPathForFile`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  connectPage,
  loadBridgeScripts,
  withPreload,
  type BridgedPage,
  type BridgeScripts,
} from '../harness/context-bridge/chromium';
import {
  TABLE_CASES,
  TABLE_PRELOAD,
  caseExpression,
  tableMain,
} from '../harness/context-bridge/type-table';

/** A preload that hands the page's Elements, Files and Blobs back, and the paths of Files. */
const REFERENCES_PRELOAD = String.raw`
const { contextBridge, webUtils } = require('electron');
let kept;
contextBridge.exposeInMainWorld('refs', {
  echo: (value) => value,
  keep: (value) => { kept = value; },
  isKept: (value) => value === kept,
  tagOf: (element) => [element.tagName, element.constructor.name, typeof element.querySelector],
  body: () => document.body,
  blobText: (blob) => blob.text(),
  pathForFile: (file) => webUtils.getPathForFile(file),
});
`;

let browser: Browser;
let server: Server;
let origin: string;
let scripts: BridgeScripts;
let context: BrowserContext | undefined;

beforeAll(async () => {
  const e2e = inject('e2e');
  [browser, scripts] = await Promise.all([
    chromium.connect(e2e.wsEndpoint),
    loadBridgeScripts(e2e.bridgeScripts),
  ]);
  // A page with the app's kind of policy: scripts from itself only.
  server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'self'; script-src 'self'",
    });
    res.end('<!doctype html><title>bridge</title><main><div id="target">drop here</div></main>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function open(
  preload: string,
): Promise<{ page: Page; bridged: BridgedPage; errors: string[] }> {
  context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const target: { bridged?: BridgedPage } = {};
  const main = tableMain((channel, payload) => target.bridged?.deliver(channel, payload));
  target.bridged = await connectPage(
    page,
    withPreload(scripts, preload),
    { handle: (channel, payload) => main.handle(channel, payload), on: () => undefined },
    { webContentsId: 1 },
  );
  await page.goto(origin);
  return { page, bridged: target.bridged, errors };
}

describe('the context bridge between the two worlds of a Chromium page', () => {
  it('loads the preload without an error, and the page sees only what it exposed', async () => {
    const { page, errors } = await open(TABLE_PRELOAD);
    const globals = await page.evaluate(() => Object.keys(globalThis));
    const bridgeLike = ['api', 'exposedTwice', 'loneFunction', 'require', 'process', 'ipcRenderer'];
    expect(globals.filter((key) => bridgeLike.includes(key) || /relay/i.test(key))).toEqual([
      'api',
      'exposedTwice',
      'loneFunction',
    ]);
    expect(errors).toEqual([]);
  });

  describe('the type table, on one page', () => {
    let table: Page;
    let tableContext: BrowserContext | undefined;
    beforeAll(async () => {
      ({ page: table } = await open(TABLE_PRELOAD));
      // Kept for every case of the table (the other specs' pages close after each).
      tableContext = context;
      context = undefined;
    });
    afterAll(() => tableContext?.close());

    it.each(TABLE_CASES)('$name', async ({ code, expected }) => {
      const seen = await table.evaluate(caseExpression(code));
      expect(JSON.parse(seen as string)).toEqual(expected);
    });
  });

  it('passes Elements and Files by reference, and a Blob as a copy of its bytes', async () => {
    const { page } = await open(REFERENCES_PRELOAD);
    const seen = await page.evaluate(async () => {
      const refs = (globalThis as unknown as { refs: Record<string, (...a: unknown[]) => unknown> })
        .refs;
      const doc = (
        globalThis as unknown as {
          document: { body: unknown; getElementById(id: string): unknown };
        }
      ).document;
      const target = doc.getElementById('target');
      const file = new (
        globalThis as unknown as { File: new (parts: string[], name: string) => object }
      ).File(['bytes'], 'made.txt');
      const blob = new (globalThis as unknown as { Blob: new (parts: string[]) => object }).Blob([
        'ab',
        'cd',
      ]);
      refs.keep!(target);
      return [
        refs.echo!(target) === target,
        refs.isKept!(target),
        refs.tagOf!(target),
        refs.body!() === doc.body,
        refs.echo!(file) === file,
        refs.echo!(blob) === blob,
        await refs.blobText!(blob),
        refs.pathForFile!(file),
      ];
    });
    expect(seen).toEqual([
      true,
      true,
      ['DIV', 'HTMLDivElement', 'function'],
      true,
      true,
      false,
      'abcd',
      '',
    ]);
  });

  it('drops files "from disk": the page hands them back and the preload finds their paths', async () => {
    const { page, bridged } = await open(REFERENCES_PRELOAD);
    await page.evaluate(() => {
      const doc = (
        globalThis as unknown as {
          document: {
            getElementById(id: string): {
              addEventListener(t: string, l: (e: unknown) => void): void;
            };
          };
        }
      ).document;
      const seen: unknown[] = [];
      (globalThis as unknown as { dropped: unknown[] }).dropped = seen;
      doc.getElementById('target').addEventListener('drop', (event) => {
        const files = [
          ...(
            event as {
              dataTransfer: {
                files: Iterable<{ name: string; type: string; text(): Promise<string> }>;
              };
            }
          ).dataTransfer.files,
        ];
        const refs = (globalThis as unknown as { refs: { pathForFile(f: unknown): string } }).refs;
        for (const file of files) seen.push([file.name, file.type, refs.pathForFile(file)]);
      });
    });
    await bridged.dropFiles('#target', [
      { path: '/home/ana/tides.md', content: '# Tides', type: 'text/markdown' },
      { path: '/home/ana/notes.pdf', content: '%PDF-1.4' },
    ]);
    const dropped = await page.evaluate(
      () => (globalThis as unknown as { dropped: unknown[] }).dropped,
    );
    expect(dropped).toEqual([
      ['tides.md', 'text/markdown', '/home/ana/tides.md'],
      ['notes.pdf', '', '/home/ana/notes.pdf'],
    ]);
  });
});
