/**
 * Reliability section 7: hostile model output. Hundreds of XSS and exfiltration payloads
 * (tests/reliability/hostile-payloads.ts) arrive as model replies through the real path (main's
 * relay client over a scripted relay, the bridge, the real chat view in Chromium under the
 * production CSP): streamed, not streamed, and rendered again from the database when the
 * conversation is opened again. For every payload: no script runs, no request leaves for another
 * origin, no link but http(s) is clickable, no dangerous element or attribute is in a message.
 *
 * The detector is proven first: the same payloads rendered naively (marked's HTML through
 * innerHTML, in a page without CSP) must set off the canary, dialogs, console and exfiltration
 * server, and rendered naively inside the app page they must be flagged by the scan, the
 * MutationObserver and the CSP.
 */
import { marked } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import type { AppUnderTest } from '../e2e/harness/harness';
import { e2eSuite } from '../e2e/harness/suite';
import { ChatPage } from '../e2e/pages/chat-page';
import {
  idsIn,
  installDetector,
  pageCatches,
  removeUnsafe,
  renderUnsafely,
  scanPage,
  startExfilServer,
  watchPage,
  type ExfilServer,
  type Finding,
  type PageWatch,
  type ScanResult,
} from './hostile-output-detect';
import {
  buildCorpus,
  MARKER_PATTERN,
  replyFor,
  selectPayloads,
  type HostilePayload,
} from './hostile-payloads';
import { FULL, recordFigures, type Figure } from './lib/record';

/** Payloads per reply. */
const BATCH = 20;
/** In reduced mode (npm test): the classics and this many of the rest. */
const REDUCED_SAMPLE = 150;
/** In reduced mode only the first batches also go through the non-streamed path. */
const REDUCED_PLAIN_BATCHES = 2;
/** Replies per conversation. */
const GROUP = 20;
const CONTENT = 'article.chat-message[data-role="assistant"] .markdown';

/** The browser session and the demo relay (its chat completions replaced by `hostileRelay`). */
const suite = e2eSuite({ connectionName: 'Hostile relay' });
let exfil: ExfilServer;
/** The lab's own exfiltration server, so that nothing the lab sets off can be counted later. */
let labExfil: ExfilServer;
let app: AppUnderTest;
let page: ChatPage;
let watch: PageWatch;
/** CSP reports seen while each batch was sent and rendered, by batch. */
const cspWhileSending = new Map<number, number>();
/** Canary hits in the app page, reported straight to the test. */
const appCanary: number[] = [];
let corpus: HostilePayload[];
let payloads: HostilePayload[];
let batches: HostilePayload[][];

/** Deterministic pseudo-random numbers (mulberry32), for chunk sizes. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function chunkEvent(delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-hostile',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'demo-chat',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
}

/**
 * Node's fetch, except that chat completions answer "batch <n>" with that batch's payloads:
 * streamed in chunks of 1–48 characters cut anywhere (so every payload is also seen half-written),
 * a few at a time between macrotasks; or as one JSON answer when the request is not streamed.
 */
function hostileRelay(): FetchLike {
  return (url, init) => {
    if (!url.endsWith('/v1/chat/completions')) return fetch(url, init);
    const body = JSON.parse(String(init.body)) as {
      stream?: boolean;
      messages: Array<{ role: string; content: string }>;
    };
    const asked = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const index = Number(/batch (\d+)/.exec(asked)?.[1] ?? -1);
    const reply = replyFor(batches[index] ?? []);
    if (body.stream === false) {
      return Promise.resolve(
        Response.json({
          id: 'chatcmpl-hostile',
          object: 'chat.completion',
          created: 0,
          model: 'demo-chat',
          choices: [
            { index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 5, completion_tokens: 100, total_tokens: 105 },
        }),
      );
    }
    const next = random(index + 1);
    let at = 0;
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // A few events per macrotask: main coalesces them per frame, so the page sees the reply
        // grow in many partial states.
        let events = '';
        for (let n = 0; n < 6 && at < reply.length; n++) {
          const size = 1 + Math.floor(next() * 48);
          events += chunkEvent({ content: reply.slice(at, at + size) }, null);
          at += size;
        }
        if (at >= reply.length) {
          events += chunkEvent({}, 'stop') + 'data: [DONE]\n\n';
          controller.enqueue(encoder.encode(events));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(events));
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
    });
    return Promise.resolve(
      new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
  };
}

/** Waits until every formula KaTeX has deferred is rendered (none left as TeX). */
async function mathSettled(): Promise<void> {
  await app.page.waitForFunction(
    (selector) =>
      (
        globalThis as unknown as {
          document: { querySelectorAll(s: string): ArrayLike<unknown> };
        }
      ).document.querySelectorAll(selector).length === 0,
    `${CONTENT} .math-inline, ${CONTENT} .math-display, ${CONTENT} code.language-math`,
    { timeout: 30_000 },
  );
}

interface PhaseResult {
  name: string;
  markers: Set<number>;
  findings: Finding[];
  hrefs: Set<string>;
  images: string[];
}

function newPhase(name: string): PhaseResult {
  return { name, markers: new Set(), findings: [], hrefs: new Set(), images: [] };
}

function absorb(phase: PhaseResult, scan: ScanResult): void {
  for (const id of scan.markers) phase.markers.add(id);
  phase.findings.push(...scan.findings);
  for (const href of scan.hrefs) phase.hrefs.add(href);
  phase.images.push(...scan.images);
}

/** The id of the conversation's last reply, with the list scrolled to its bottom. */
async function lastReplyId(): Promise<string | null> {
  const list = app.page.locator('.chat-messages');
  // An empty conversation shows its suggestions instead of a list.
  if ((await list.count()) === 0) return null;
  await list.evaluate((el: { scrollTop: number; scrollHeight: number }) => {
    el.scrollTop = el.scrollHeight;
  });
  const replies = page.replies();
  return (await replies.count()) === 0 ? null : replies.last().getAttribute('data-message-id');
}

async function newChat(): Promise<void> {
  await page.newChat();
  await expect.poll(() => page.modelName()).toMatch(/^demo-chat/);
}

/** Sends every batch in the open conversation, scanning each reply once it is finished. */
async function sendBatches(
  phase: PhaseResult,
  indexes: readonly number[],
  streaming: boolean,
): Promise<number> {
  let groups = 0;
  for (const [at, index] of indexes.entries()) {
    // A new conversation every GROUP replies, so that each is opened again whole (a conversation
    // is loaded in pages of 100 messages).
    if (at % GROUP === 0) {
      await newChat();
      await page.setChatOption('Stream', streaming);
      groups++;
    }
    // Rows out of view unmount: a new reply is told by its id, not by a count.
    const before = await lastReplyId();
    const cspBefore = app.cspViolations.length;
    await page.send(`${phase.name} group ${groups} batch ${index}`);
    try {
      await expect.poll(lastReplyId, { timeout: 30_000 }).not.toBe(before);
    } catch (error) {
      await app.screenshot(`hostile-${phase.name}-${index}`);
      throw error;
    }
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await lastReplyId();
    await mathSettled();
    absorb(phase, await scanPage(app.page, `${CONTENT}`));
    cspWhileSending.set(
      index,
      (cspWhileSending.get(index) ?? 0) + app.cspViolations.length - cspBefore,
    );
  }
  return groups;
}

/**
 * Walks a re-opened conversation from its first row to its last, scanning the rows as they mount
 * (only rows near the view are mounted): each step brings the last mounted row's end to the top
 * of the view, never moving more than the view and the list's 400 px margins cover.
 */
async function scanWholeConversation(phase: PhaseResult): Promise<void> {
  // The list places itself at the bottom after it mounts: go to the top until the first row shows.
  const first = app.page.locator('.chat-messages [data-index="0"]');
  await expect
    .poll(
      async () => {
        await app.page.locator('.chat-messages').evaluate((el: { scrollTop: number }) => {
          el.scrollTop = 0;
        });
        await app.page.waitForTimeout(100);
        return first.count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  let last = -1;
  let stuck = 0;
  while (stuck < 3) {
    await app.page.waitForTimeout(80);
    await mathSettled();
    absorb(phase, await scanPage(app.page, CONTENT));
    const { max, atBottom } = await app.page.evaluate(() => {
      type Box = { top: number; bottom: number };
      type Row = { getAttribute(name: string): string | null; getBoundingClientRect(): Box };
      const doc = (
        globalThis as unknown as {
          document: {
            querySelector(s: string): {
              scrollTop: number;
              scrollHeight: number;
              clientHeight: number;
              getBoundingClientRect(): Box;
            };
            querySelectorAll(s: string): ArrayLike<Row>;
          };
        }
      ).document;
      const scroller = doc.querySelector('.chat-messages');
      let lastRow: Row | undefined;
      let index = -1;
      for (const row of Array.from(doc.querySelectorAll('.chat-messages [data-index]'))) {
        const at = Number(row.getAttribute('data-index'));
        if (at > index) {
          index = at;
          lastRow = row;
        }
      }
      const bottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
      // The last mounted row's bottom to the top of the view: the rows after it mount.
      const below = lastRow ? lastRow.getBoundingClientRect().bottom : 0;
      const step = Math.max(200, below - scroller.getBoundingClientRect().top - 40);
      scroller.scrollTop += Math.min(step, scroller.clientHeight + 700);
      return { max: index, atBottom: bottom };
    });
    if (max > last || !atBottom) {
      last = Math.max(last, max);
      stuck = 0;
    } else {
      stuck++;
    }
  }
}

/** Opens a conversation again by its title, and waits until its own messages are shown. */
async function reopen(title: string): Promise<void> {
  await page.openConversation(title);
  const messages = app.page.locator('article.chat-message[data-role="user"]');
  await expect
    .poll(() => messages.filter({ hasText: title }).count(), { timeout: 30_000 })
    .toBeGreaterThan(0);
  await expect
    .poll(() => messages.filter({ hasNotText: title }).count(), { timeout: 30_000 })
    .toBe(0);
}

/** What a naive renderer makes of the markdown: marked's HTML, raw HTML and all. */
function naiveHtml(markdown: string): string {
  try {
    return marked.parse(markdown, { async: false, gfm: true });
  } catch {
    return markdown;
  }
}

const figures: Figure[] = [];
const notes: string[] = [];

beforeAll(async () => {
  [exfil, labExfil] = await Promise.all([startExfilServer(), startExfilServer()]);
  corpus = buildCorpus({ exfil: exfil.origin });
  payloads = selectPayloads(corpus, FULL, REDUCED_SAMPLE);
  batches = [];
  const light = payloads.filter((p) => p.family !== 'nesting');
  for (let i = 0; i < light.length; i += BATCH) batches.push(light.slice(i, i + BATCH));
  // The nesting bombs in a reply of their own (streamed, and also sent whole in reduced runs).
  batches.push(payloads.filter((p) => p.family === 'nesting'));
});

afterAll(async () => {
  await Promise.all([exfil?.close(), labExfil?.close()]);
});

describe('hostile model output (reliability section 7)', () => {
  // One app for the whole file: the detector check renders payloads unsafely in it on purpose
  // (CSP reports, flagged nodes), so only its events are checked against the contract at the end.
  const shared = suite.sharedApp({ fetch: hostileRelay(), healthyPage: false });

  beforeAll(async () => {
    app = shared.app;
    await suite.connectApp(app);
    page = new ChatPage(app.page);
    await page.open();
    await app.page.exposeBinding('__pwnReport', (_source, id: unknown) => {
      appCanary.push(Number(id));
    });
    await installDetector(app.page, CONTENT, MARKER_PATTERN.source);
    watch = watchPage(app.page, app.context, suite.e2e.origin);
  });

  afterAll(() => {
    watch?.stop();
  });

  it('has a corpus of at least 500 distinct payloads', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(500);
    expect(new Set(corpus.map((p) => p.markdown)).size).toBe(corpus.length);
    const families = new Map<string, number>();
    for (const p of corpus) families.set(p.family, (families.get(p.family) ?? 0) + 1);
    notes.push(
      `Corpus: ${corpus.length} payloads (${[...families].map(([f, n]) => `${f} ${n}`).join(', ')}); ` +
        `this run: ${payloads.length} (${FULL ? 'all' : `every classic and ${REDUCED_SAMPLE} of the rest`}).`,
    );
  });

  it('detector: the payloads fire and are flagged when rendered unsafely', async () => {
    // 1. A naive renderer (marked's HTML through innerHTML) in a page without any CSP.
    const context = await suite.e2e.browser.newContext();
    const lab = await context.newPage();
    const labWatch = watchPage(lab, context, labExfil.origin);
    const aborted: string[] = [];
    await lab.route('**/*', (route) => {
      const request = route.request();
      if (
        request.isNavigationRequest() &&
        request.frame() === lab.mainFrame() &&
        !request.url().endsWith('/__lab')
      ) {
        aborted.push(request.url());
        return route.abort();
      }
      return route.continue();
    });
    const logStart = labExfil.requests.length;
    const canary: number[] = [];
    // The canary also reports straight to the test, so a hit survives its document being replaced.
    await lab.exposeBinding('__pwnReport', (_source, id: unknown) => {
      canary.push(Number(id));
    });
    // The same payloads, aimed at the lab's own exfiltration server.
    const selected = new Set(payloads.map((p) => p.id));
    const labPayloads = buildCorpus({ exfil: labExfil.origin }).filter((p) => selected.has(p.id));
    const labFindings: Finding[] = [];
    let lost = 0;
    // A fresh lab document for each handful: a payload that ran may replace the document
    // (document.open from an inline handler) and take the others' results with it.
    for (let i = 0; i < labPayloads.length; i += 25) {
      // A payload of the chunk before may still navigate the page (a delayed refresh, whose
      // navigation the route above aborts to an error page) and interrupt this one: try again.
      for (let attempt = 1; ; attempt++) {
        try {
          await lab.goto(labExfil.labUrl);
          break;
        } catch (error) {
          if (attempt === 3) throw error;
          await lab.waitForTimeout(500);
        }
      }
      await installDetector(lab, '[data-unsafe]', MARKER_PATTERN.source);
      const chunk = labPayloads
        .slice(i, i + 25)
        .map((p) => ({ id: p.id, html: naiveHtml(p.markdown) }));
      await renderUnsafely(lab, '#lab', chunk);
      await lab.waitForTimeout(400);
      try {
        labFindings.push(...(await scanPage(lab, '[data-unsafe]')).findings);
      } catch {
        lost++;
      }
    }
    // Each channel of the detector, proven by a probe of its own in a fresh document: which
    // sampled payloads use which channel, and whether a neighbour wiped their document before
    // they ran, varies, so the payloads alone cannot show that every channel is wired.
    await lab.goto(labExfil.labUrl);
    await installDetector(lab, '[data-unsafe]', MARKER_PATTERN.source);
    const probes = [
      `__pwn(0)`,
      `alert('probe 0')`,
      `console.log('PWN-probe')`,
      `fetch('${labExfil.origin}/probe/0')`,
    ].map((action) => ({ id: 0, html: `<img src="x" onerror="${action}">` }));
    await renderUnsafely(lab, '#lab', probes);
    await expect
      .poll(() => ({
        canary: canary.includes(0),
        dialog: labWatch.dialogs.includes('probe 0'),
        console: labWatch.payloadConsole.includes('PWN-probe'),
        exfil: labExfil.requests.slice(logStart).some((r) => r.path === '/probe/0'),
      }))
      .toEqual({ canary: true, dialog: true, console: true, exfil: true });
    labWatch.stop();
    await context.close();
    const labScan = { findings: labFindings };

    const fired = new Set<number>([
      ...canary,
      ...labWatch.dialogs.flatMap(idsIn),
      ...labWatch.payloadConsole.flatMap(idsIn),
      ...labExfil.requests.slice(logStart).flatMap((r) => idsIn(r.path)),
      ...aborted.flatMap(idsIn),
    ]);
    const flagged = new Set(
      labScan.findings.map((f) => f.payload).filter((id) => id !== undefined),
    );
    const caught = new Set([...fired, ...flagged]);
    const ids = new Set(payloads.map((p) => p.id));
    const firedInRun = [...fired].filter((id) => ids.has(id)).length;
    const caughtInRun = [...caught].filter((id) => ids.has(id)).length;
    // Each channel of the detector worked at least once.
    expect(canary.length).toBeGreaterThan(0);
    expect(labWatch.dialogs.length).toBeGreaterThan(0);
    expect(labWatch.payloadConsole.length).toBeGreaterThan(0);
    expect(labExfil.requests.length).toBeGreaterThan(logStart);
    expect(flagged.size).toBeGreaterThan(payloads.length / 2);
    figures.push(
      {
        name: 'Detector check: payloads that ran or loaded under a naive renderer without CSP',
        value: firedInRun,
        unit: 'payloads',
      },
      {
        name: 'Detector check: payloads caught (ran, loaded or flagged) under a naive renderer',
        value: caughtInRun,
        unit: 'payloads',
      },
    );
    notes.push(
      `Detector check: rendered naively (marked's HTML through innerHTML, no CSP), ${firedInRun} of ` +
        `${payloads.length} payloads ran script or sent a request by themselves (canary ${canary.length}, ` +
        `dialogs ${labWatch.dialogs.length}, console ${labWatch.payloadConsole.length}, exfil requests ` +
        `${labExfil.requests.length - logStart}, navigations ${aborted.length}, lab documents lost ${lost}) and ${caughtInRun} were ` +
        'caught by one of the checks; the rest are inert even there: code, math that marked leaves as text, and addresses no browser reads as a scheme.',
    );

    // 2. The same kind of unsafe rendering inside the app page, under its CSP: scan, observer
    //    and CSP reports all see it.
    await newChat();
    await page.send('detector batch 0');
    await expect(page.finishedReplyStatus()).resolves.toBe('complete');
    await mathSettled();
    const classics = payloads.filter((p) => p.classic).slice(0, 12);
    const cspBefore = app.cspViolations.length;
    await renderUnsafely(
      app.page,
      `${CONTENT}`,
      classics.map((p) => ({ id: p.id, html: naiveHtml(p.markdown) })),
    );
    await app.page.waitForTimeout(500);
    const inApp = await scanPage(app.page, CONTENT);
    const catches = await pageCatches(app.page, true);
    expect(inApp.findings.filter((f) => f.payload !== undefined).length).toBeGreaterThan(0);
    expect(catches.observed.length).toBeGreaterThan(0);
    expect(app.cspViolations.length).toBeGreaterThan(cspBefore);
    notes.push(
      `Detector check in the app page (production CSP): 12 classics inserted unsafely gave ` +
        `${inApp.findings.length} scan findings, ${catches.observed.length} observer findings and ` +
        `${app.cspViolations.length - cspBefore} CSP reports (${[...new Set(app.cspViolations.slice(cspBefore).map((v) => v.split(' ')[0]))].join(', ')}).`,
    );
    await removeUnsafe(app.page);
    await app.page.waitForTimeout(200);
    // Start the real run clean.
    await pageCatches(app.page, true);
    app.cspViolations.length = 0;
    appCanary.length = 0;
    watch.dialogs.length = 0;
    watch.payloadConsole.length = 0;
    watch.offsite.length = 0;
    watch.navigations.length = 0;
    exfil.requests.length = 0;
  });

  it('renders every payload as harmless content: streamed, not streamed and reopened', async () => {
    const began = Date.now();
    const all = batches.map((_, i) => i);
    const nestingIndex = all.length - 1;
    const streamedIndexes = all;
    const plainIndexes = FULL ? all : [...all.slice(0, REDUCED_PLAIN_BATCHES), nestingIndex];

    // Streamed, in conversations of their own.
    const streamed = newPhase('streamed');
    const streamedGroups = await sendBatches(streamed, streamedIndexes, true);

    // Not streamed.
    const plain = newPhase('plain');
    const plainGroups = await sendBatches(plain, plainIndexes, false);
    await page.setChatOption('Stream', true);

    const cspBeforeReopen = app.cspViolations.length;
    // Every conversation opened again: rendered from what the database kept.
    const reopened = newPhase('reopened');
    for (let group = 1; group <= streamedGroups; group++) {
      await reopen(`streamed group ${group} batch`);
      await scanWholeConversation(reopened);
    }
    const reopenedStreamed = new Set(reopened.markers);
    for (let group = 1; group <= plainGroups; group++) {
      await reopen(`plain group ${group} batch`);
      await scanWholeConversation(reopened);
    }

    await app.page.waitForTimeout(500);
    const catches = await pageCatches(app.page);
    const elapsed = (Date.now() - began) / 1000;

    const expectedAll = streamedIndexes.flatMap((i) => batches[i]!.map((p) => p.id));
    const expectedPlain = plainIndexes.flatMap((i) => batches[i]!.map((p) => p.id));
    const phases = [streamed, plain, reopened];
    // Rows are scanned each time they are mounted: one finding per element and phase.
    const findings = [
      ...new Map(
        phases.flatMap((p) =>
          p.findings.map((f) => [`${p.name} ${f.reason} ${f.html}`, { ...f, phase: p.name }]),
        ),
      ).values(),
    ];
    const dangerousLinks = [...new Set(phases.flatMap((p) => [...p.hrefs]))].filter((href) => {
      try {
        const url = new URL(href);
        return !(url.protocol === 'http:' || url.protocol === 'https:');
      } catch {
        return true;
      }
    });
    const images = phases.flatMap((p) => p.images);
    const scripts = [
      ...new Set([...catches.canary, ...appCanary].map((id) => `canary ${id}`)),
      ...watch.dialogs.map((d) => `dialog ${d}`),
      ...watch.payloadConsole.map((c) => `console ${c}`),
    ];
    const crossOrigin = [
      ...watch.offsite,
      ...watch.navigations,
      ...exfil.requests.map((r) => `exfil ${r.method} ${r.path}`),
    ];
    const dangerousElements = [
      ...findings,
      ...catches.observed.map((f) => ({ ...f, phase: 'observer' })),
    ];
    const csp = [...app.cspViolations];
    const missing = (phase: PhaseResult, expected: number[]) =>
      expected.filter((id) => !phase.markers.has(id));

    figures.push(
      {
        name: 'Payloads rendered in all',
        value: new Set([...streamed.markers, ...plain.markers]).size,
        unit: 'payloads',
        target: FULL ? '>= 500' : `${payloads.length} (reduced run)`,
        ok: FULL
          ? new Set([...streamed.markers, ...plain.markers]).size >= 500
          : new Set([...streamed.markers, ...plain.markers]).size === payloads.length,
      },
      {
        name: 'Payloads rendered (streamed)',
        value: streamed.markers.size,
        unit: 'payloads',
      },
      { name: 'Payloads rendered (not streamed)', value: plain.markers.size, unit: 'payloads' },
      {
        name: 'Payloads rendered again from the database (reopened)',
        value: reopened.markers.size,
        unit: 'payloads',
      },
      { name: 'Scripts executed', value: scripts.length, target: '0', ok: scripts.length === 0 },
      {
        name: 'Uncaught errors in the page',
        value: app.pageErrors.length,
        target: '0',
        ok: app.pageErrors.length === 0,
      },
      {
        name: 'Cross-origin requests',
        value: crossOrigin.length,
        target: '0',
        ok: crossOrigin.length === 0,
      },
      {
        name: 'Dangerous clickable links',
        value: dangerousLinks.length,
        target: '0',
        ok: dangerousLinks.length === 0,
      },
      {
        name: 'Dangerous elements or attributes in messages',
        value: dangerousElements.length + images.length,
        target: '0',
        ok: dangerousElements.length + images.length === 0,
      },
      { name: 'CSP violations observed', value: csp.length, unit: 'reports' },
      {
        name: 'Links rendered (all http or https)',
        value: new Set(phases.flatMap((p) => [...p.hrefs])).size,
        unit: 'links',
      },
      { name: 'Time taken', value: Math.round(elapsed), unit: 's' },
    );
    if (csp.length > 0) {
      const counts = new Map<string, number>();
      for (const report of csp) counts.set(report, (counts.get(report) ?? 0) + 1);
      notes.push(
        `CSP reports by directive and blocked address: ${[...counts]
          .map(([report, n]) => `${report} ×${n}`)
          .slice(0, 20)
          .join(
            '; ',
          )}; none came from a payload's markup reaching the page (the scan and the observer found none).`,
      );
      const inNesting = cspWhileSending.get(nestingIndex) ?? 0;
      const inOthers = [...cspWhileSending].reduce(
        (n, [i, c]) => (i === nestingIndex ? n : n + c),
        0,
      );
      notes.push(
        `CSP reports while replies were sent and rendered: ${inOthers} for the ${payloads.length - batches[nestingIndex]!.length} ` +
          `payloads other than the nesting bombs, ${inNesting} for the nesting bombs' reply (and the formulas it left to render ` +
          `between frames); ${csp.length - cspBeforeReopen} while the conversations were opened again.`,
      );
    }
    notes.push(
      'Path: scripted relay → main relay client → bridge → chat view in Chromium with the production CSP; ' +
        `${BATCH} payloads per reply, streamed in 1–48 character chunks; the observer scanned every element added while replies streamed.`,
    );
    notes.push(
      'Payloads with U+0000: this suite found that libsql cut a stored reply at that character ' +
        '(the rest was lost once stored, while the live view showed it whole); the database now ' +
        'binds it as U+FFFD, so the whole reply is kept. Nesting bombs: 2,000 nested quotes (they ' +
        'overflowed the lexer and unmounted the chat view before the fix in blocks.ts), 200 nested ' +
        '\\frac and 500 nested \\sqrt (they held the page for 9–15 s before formulas nested ' +
        'more than 64 deep were shown as TeX), and 60 nested \\frac, still rendered by KaTeX.',
    );
    const other = watch.console.filter((line) => !line.includes('PWN'));
    if (other.length > 0)
      notes.push(`Console lines from the app (no payload marker): ${other.length}`);
    recordFigures(7, 'Hostile model output', figures, notes);

    expect(scripts).toEqual([]);
    expect(app.pageErrors.map((e) => e.message)).toEqual([]);
    expect(crossOrigin).toEqual([]);
    expect(dangerousLinks).toEqual([]);
    expect(dangerousElements).toEqual([]);
    expect(images).toEqual([]);
    expect(missing(streamed, expectedAll)).toEqual([]);
    expect(missing(plain, expectedPlain)).toEqual([]);
    expect([...expectedAll].filter((id) => !reopenedStreamed.has(id))).toEqual([]);
    expect(missing(reopened, expectedPlain)).toEqual([]);
  });
});
