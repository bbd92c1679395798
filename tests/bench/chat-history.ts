/**
 * chat-history: opening a 1,000-message conversation against a 10-message one (and one of
 * 10,000 messages), through the real chat screen over the real services and router, in Chromium,
 * with 20,000 other conversations in the sidebar, and that sidebar scrolled end to end.
 *
 * Both conversations (and a warm-up one) are written straight into the chat store of the services'
 * database, replies in markdown with a list, a table and a code fence. Each run opens a fresh page
 * on the Chat screen, opens the warm-up conversation (so the markdown and highlighting code is
 * loaded), then the two measured ones, alternating which comes first.
 *
 * - paint_ms_1000 / _10: from the click on the conversation in the sidebar until its last message
 *   is in the page and the frame after it has been painted (timed in the page).
 * - paint_ratio_1000_vs_10: the 1,000-message paint over the 10-message one, per run.
 * - rows_mounted: message rows in the DOM once the 1,000-message conversation is painted.
 * - paint_ms_10000: the same click-to-painted time for a conversation of 10,000 messages.
 * - sidebar_scroll_long_tasks_over_50ms: main-thread tasks over 50 ms of CPU time (thread time,
 *   from a Chromium trace) while the sidebar's list of 20,004 conversations is scrolled from top
 *   to bottom, 900 px a frame (_wall: the page's longtask observer, by wall time).
 * - paint_ms_1000_branched: the same click-to-painted time for a conversation whose shown path of
 *   1,000 messages crosses 50 branch points (every 20th message has another version).
 * - branch_switch_ms: in that conversation, scrolled up to the branch point in the middle of the
 *   path (message 510 of 1,000, whose other version goes on for 490 messages of its own), from
 *   the click on the ‹ › switcher until the version switched to and the message after it on the
 *   new path are in the page and the frame after them has begun. Both ways (to version 2 and back
 *   to version 1) in every run; the median of all of them.
 *
 * The chat view opens a conversation with its newest page only (older pages load as the person
 * scrolls up), so main's share is measured for that page, and for the whole conversation beside.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { ChatStore, type NewMessage } from '../../electron/main/services/chat/store';
import { withBenchSession, type BenchSession } from './bench-session';
import { median, round, type Benchmark, type BenchResult } from './bench';
import { mainThreadTasks, startTrace, TASK_CATEGORIES } from './chat-render/trace-tasks';

const WARMUP_RUNS = 1;
const MEASURED_RUNS = Number(process.env.CHAT_HISTORY_RUNS ?? 7);
/**
 * CHAT_HISTORY_ONLY=branch: only the branched conversation (opened, switched, and the switches
 * traced), without the others or the sidebar of 20,000: to compare two renderers quickly.
 */
const ONLY_BRANCH = process.env.CHAT_HISTORY_ONLY === 'branch';
const KEY = 'sk-bench-chat-history';
const LONG = 'History of a thousand messages';
const SHORT = 'History of ten messages';
const WARM = 'Warm-up conversation';
const HUGE = 'History of ten thousand messages';
const BRANCHED = 'History of a thousand messages with versions';
/** A branch point every this many messages of the branched conversation's path: 50 of them. */
const BRANCH_EVERY = 20;
/** Conversations in the sidebar besides the measured ones: years of use. */
const OTHER_CONVERSATIONS = 20_000;
/** The page the chat view opens with (PAGE_SIZE in renderer/src/features/chat/chat-actions.ts). */
const OPEN_PAGE = 50;

/** A reply as the relay writes them: headings, a list, a table and a fenced block of code. */
function reply(i: number): string {
  return [
    `### Answer ${i}`,
    '',
    `Here is what message ${i} asked about, in a few **plain** sentences with \`inline code\`.`,
    '',
    `- first point of ${i}`,
    `- second point, with a [link](https://example.com/${i})`,
    '',
    '| name | value |',
    '| --- | ---: |',
    `| items | ${i} |`,
    '',
    '```ts',
    `const answer${i} = [${i}, ${i + 1}].map((n) => n * 2);`,
    '```',
  ].join('\n');
}

function exchange(count: number): NewMessage[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? {
          role: 'user' as const,
          content: `Question ${i}: tell me about item ${i}.`,
          status: 'complete' as const,
        }
      : {
          role: 'assistant' as const,
          content: reply(i),
          status: 'complete' as const,
          model: 'demo-chat',
        },
  );
}

/** The branch point switched in the middle of the branched conversation, both ways. */
interface Switch {
  /** The version shown before the click, and the button clicked on its switcher. */
  from: string;
  button: 'Next version' | 'Previous version';
  /** The version shown after, and the message after it on the new path. */
  to: string;
  toNext: string;
}

/**
 * A conversation of 1,000 messages on its shown path, with 50 branch points: every 20th message
 * (a reply) has a second version. The one in the middle (message 510) has a path of its own under
 * it, as long as the first one's (either way the path is 1,000 messages); the others end there.
 */
function seedBranched(store: ChatStore): { last: string; there: Switch; back: Switch } {
  const conversation = store.create({ title: BRANCHED, model: 'demo-chat' });
  const messages = exchange(1000);
  // Replies 9, 29, … 989 have a second version; the one in the middle, its own path.
  const points = Array.from({ length: 1000 / BRANCH_EVERY }, (_, k) => 9 + BRANCH_EVERY * k);
  const middle = points[points.length / 2]!;
  const ids: string[] = [];
  let there: Switch | undefined;
  // Written in the order a person would have: each other version right after the first one,
  // before the conversation went on (so that the end of the first path is the message written
  // last under each branch point, where the switcher's path follows).
  for (const point of [...points, messages.length - 1]) {
    const written = store.append(
      conversation.id,
      messages.slice(ids.length, point + 1),
      ids.at(-1) ?? null,
    );
    ids.push(...written.map((m) => m.id));
    if (point === messages.length - 1) break;
    const [version] = store.addChildren(conversation.id, ids[point - 1]!, [
      {
        role: 'assistant',
        content: `${reply(point)}\n\nAnother version of answer ${point}.`,
        status: 'complete',
        model: 'demo-chat',
      },
    ]);
    if (point === middle) {
      const [next] = store.append(
        conversation.id,
        exchange(messages.length - middle - 1),
        version!.id,
      );
      there = { from: ids[middle]!, button: 'Next version', to: version!.id, toNext: next!.id };
    }
  }
  // The path shown is the first one, to its end.
  store.setLeaf(conversation.id, ids.at(-1)!);
  return {
    last: ids.at(-1)!,
    there: there!,
    back: {
      from: there!.to,
      button: 'Previous version',
      to: ids[middle]!,
      toNext: ids[middle + 1]!,
    },
  };
}

/** The few browser globals the page-side code uses (the bench compiles without the DOM library). */
interface El {
  textContent: string | null;
  click(): void;
  getAttribute(name: string): string | null;
  querySelector(s: string): El | null;
  scrollIntoView(options: { block: string }): void;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}
interface PageGlobals {
  document: { querySelectorAll(s: string): ArrayLike<El>; querySelector(s: string): El | null };
  requestAnimationFrame(callback: () => void): number;
  PerformanceObserver: new (
    callback: (list: { getEntries(): Array<{ duration: number }> }) => void,
  ) => { observe(options: { type: string; buffered: boolean }): void; disconnect(): void };
}

/** Scrolls the sidebar's list top to bottom, a step a frame; long tasks by CPU and by wall. */
async function scrollSidebar(
  page: Page,
): Promise<{ taskCpuMs: number[]; wallMs: number[]; reached: string }> {
  const cdp = await page.context().newCDPSession(page);
  const stop = await startTrace(cdp, TASK_CATEGORIES);
  const { wallMs, reached } = await page.evaluate(async () => {
    const page = globalThis as unknown as PageGlobals;
    const long: number[] = [];
    const observer = new page.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.duration > 50) long.push(entry.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    const scroller = page.document.querySelector('.chat-conversations-scroller');
    if (!scroller) throw new Error('No conversation list');
    const started = performance.now();
    // To the oldest conversation: the list loads its pages on the way, as the person scrolls.
    let moved = performance.now();
    for (;;) {
      const before = scroller.scrollTop;
      scroller.scrollTop += 900;
      await new Promise<void>((r) => page.requestAnimationFrame(r));
      const titles = page.document.querySelectorAll('.chat-conversation-title');
      if (titles[titles.length - 1]?.textContent === 'Older conversation 0') break;
      if (scroller.scrollTop !== before) moved = performance.now();
      if (performance.now() - moved > 10_000 || performance.now() - started > 300_000) break;
    }
    await new Promise((r) => setTimeout(r, 300));
    observer.disconnect();
    const titles = page.document.querySelectorAll('.chat-conversation-title');
    return {
      wallMs: long,
      reached: `${titles[titles.length - 1]?.textContent ?? ''} at ${scroller.scrollTop}+${scroller.clientHeight} of ${scroller.scrollHeight}`,
    };
  });
  const events = await stop();
  await cdp.detach();
  return { taskCpuMs: mainThreadTasks(events).map((t) => t.cpuMs), wallMs, reached };
}

/** Clicks the conversation and waits until its last message is painted: ms and rows mounted. */
async function open(
  page: Page,
  title: string,
  lastId: string,
): Promise<{ ms: number; rows: number }> {
  return page.evaluate(
    async ([title, lastId]) => {
      const page = globalThis as unknown as PageGlobals;
      const doc = page.document;
      const button = Array.from(doc.querySelectorAll('.chat-conversation-open')).find(
        (b) => b.textContent?.trim() === title,
      );
      if (!button) throw new Error(`No conversation "${title}" in the sidebar`);
      const started = performance.now();
      button.click();
      for (;;) {
        await new Promise<void>((r) => page.requestAnimationFrame(r));
        if (doc.querySelector(`article.chat-message[data-message-id="${lastId}"]`)) break;
        if (performance.now() - started > 30_000) throw new Error(`"${title}" never painted`);
      }
      // The frame that shows it has been produced once the next one starts.
      await new Promise<void>((r) => page.requestAnimationFrame(r));
      const ms = performance.now() - started;
      return { ms, rows: doc.querySelectorAll('article.chat-message').length };
    },
    [title, lastId] as const,
  );
}

/**
 * Scrolls the open conversation up, 1,000 px a frame (older pages load as it goes), until message
 * `id` is in the page, and brings it to the middle of the view.
 */
async function reveal(page: Page, id: string): Promise<void> {
  await page.evaluate(async (id) => {
    const page = globalThis as unknown as PageGlobals;
    const doc = page.document;
    const started = performance.now();
    for (;;) {
      const row = doc.querySelector(`article.chat-message[data-message-id="${id}"]`);
      if (row) {
        row.scrollIntoView({ block: 'center' });
        for (let i = 0; i < 10; i++) await new Promise<void>((r) => page.requestAnimationFrame(r));
        return;
      }
      const scroller = doc.querySelector('.chat-messages');
      if (!scroller) throw new Error('No message list');
      // Up by less than the rows mounted around the view, so that the message is not passed by.
      scroller.scrollTop = Math.max(0, scroller.scrollTop - 1000);
      await new Promise<void>((r) => page.requestAnimationFrame(r));
      if (performance.now() - started > 120_000) {
        const rows = doc.querySelectorAll('article.chat-message');
        throw new Error(
          `Message ${id} never came: ${rows.length} rows from ${rows[0]?.getAttribute('data-message-id') ?? '-'}, list at ${scroller.scrollTop} of ${scroller.scrollHeight}`,
        );
      }
    }
  }, id);
  // Whatever the scroll set going (pages, measuring rows) settles before the clock starts.
  await page.waitForTimeout(300);
}

/** Clicks a switcher and waits until the new path is painted at the switch point: ms. */
async function switchVersion(page: Page, change: Switch): Promise<number> {
  return page.evaluate(async (change) => {
    const page = globalThis as unknown as PageGlobals;
    const doc = page.document;
    // (No helper functions in here: the bundler's name-keeping wrapper does not exist in the page.)
    const button = doc
      .querySelector(`article.chat-message[data-message-id="${change.from}"]`)
      ?.querySelector(`.chat-versions button[aria-label="${change.button}"]`);
    if (!button) throw new Error(`No "${change.button}" on message ${change.from}`);
    const started = performance.now();
    button.click();
    for (;;) {
      await new Promise<void>((r) => page.requestAnimationFrame(r));
      if (
        doc.querySelector(`article.chat-message[data-message-id="${change.to}"]`) &&
        doc.querySelector(`article.chat-message[data-message-id="${change.toNext}"]`)
      )
        break;
      if (performance.now() - started > 30_000) throw new Error('The new path never painted');
    }
    await new Promise<void>((r) => page.requestAnimationFrame(r));
    return performance.now() - started;
  }, change);
}

export const chatHistory: Benchmark = {
  name: 'chat-history',
  run(): Promise<BenchResult> {
    return withBenchSession(
      { name: 'chat-history', key: KEY, relay: { ratePerMinute: 100_000 } },
      measure,
    );
  },
};

async function measure(session: BenchSession): Promise<BenchResult> {
  const { browser, services, router, sender } = session;
  const store = new ChatStore(services.db);
  const seed = (title: string, count: number): string => {
    const conversation = store.create({ title, model: 'demo-chat' });
    return store.append(conversation.id, exchange(count)).at(-1)!.id;
  };
  // Years of other conversations first (older, so the measured ones are at the top).
  const otherStarted = performance.now();
  store.transaction(() => {
    for (let i = 0; i < (ONLY_BRANCH ? 0 : OTHER_CONVERSATIONS); i++) {
      const at = new Date(Date.parse('2024-01-01T00:00:00Z') + i * 60_000).toISOString();
      const other = store.create({
        title: `Older conversation ${i}`,
        createdAt: at,
        updatedAt: at,
      });
      if (i % 10 === 0) store.append(other.id, exchange(2));
    }
  });
  const otherMs = performance.now() - otherStarted;
  const lastOf = {
    [HUGE]: seed(HUGE, ONLY_BRANCH ? 10 : 10_000),
    [WARM]: seed(WARM, 10),
    [LONG]: seed(LONG, 1000),
    [SHORT]: seed(SHORT, 10),
  };
  const branched = seedBranched(store);

  const loadBefore = loadavg()[0]!;
  const long: number[] = [];
  const short: number[] = [];
  const ratios: number[] = [];
  const rows: number[] = [];
  const huge: number[] = [];
  const branchedPaint: number[] = [];
  const switches: number[] = [];
  const tracedSwitches: SwitchTrace[] = [];
  const scrolls: Array<{ taskCpuMs: number[]; wallMs: number[]; reached: string }> = [];
  for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
    const { page, close } = await session.openPage({ viewport: { width: 1180, height: 780 } });
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('button', { name: 'Chat', exact: true })
      .click();
    // The list may show a first page before the newest conversations: wait for the one opened.
    await page.locator('.chat-conversation-open', { hasText: WARM }).first().waitFor();
    await open(page, WARM, lastOf[WARM]);
    if (ONLY_BRANCH) {
      const withVersions = await open(page, BRANCHED, branched.last);
      await reveal(page, branched.there.from);
      const there = await switchVersion(page, branched.there);
      await page.waitForTimeout(300);
      const back = await switchVersion(page, branched.back);
      await page.waitForTimeout(300);
      const tracedThere = await traceSwitch(page, branched.there);
      await page.waitForTimeout(300);
      const tracedBack = await traceSwitch(page, branched.back);
      await close();
      if (i < WARMUP_RUNS) continue;
      branchedPaint.push(withVersions.ms);
      switches.push(there, back);
      tracedSwitches.push(tracedThere, tracedBack);
      continue;
    }
    let thousand: { ms: number; rows: number };
    let ten: { ms: number; rows: number };
    if (i % 2 === 0) {
      thousand = await open(page, LONG, lastOf[LONG]);
      ten = await open(page, SHORT, lastOf[SHORT]);
    } else {
      ten = await open(page, SHORT, lastOf[SHORT]);
      thousand = await open(page, LONG, lastOf[LONG]);
    }
    const tenThousand = await open(page, HUGE, lastOf[HUGE]);
    const withVersions = await open(page, BRANCHED, branched.last);
    await reveal(page, branched.there.from);
    const there = await switchVersion(page, branched.there);
    await page.waitForTimeout(300);
    const back = await switchVersion(page, branched.back);
    const scroll = await scrollSidebar(page);
    await close();
    if (i < WARMUP_RUNS) continue;
    branchedPaint.push(withVersions.ms);
    switches.push(there, back);
    huge.push(tenThousand.ms);
    scrolls.push(scroll);
    long.push(thousand.ms);
    short.push(ten.ms);
    ratios.push(thousand.ms / ten.ms);
    rows.push(thousand.rows);
  }
  // The share of main and the bridge: the router's answer for the page opened, and its size;
  // and the same for all 1,000 messages (what opening used to fetch).
  const mainMs: number[] = [];
  const mainAllMs: number[] = [];
  let payloadBytes = 0;
  let payloadAllBytes = 0;
  const longId = store.list().find((c) => c.title === LONG)!.id;
  for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
    let started = performance.now();
    const page = await router.dispatch('chat:get', { id: longId, limit: OPEN_PAGE }, sender);
    if (i >= WARMUP_RUNS) mainMs.push(performance.now() - started);
    payloadBytes = JSON.stringify(page).length;
    started = performance.now();
    const all = await router.dispatch('chat:get', { id: longId }, sender);
    if (i >= WARMUP_RUNS) mainAllMs.push(performance.now() - started);
    payloadAllBytes = JSON.stringify(all).length;
  }
  // Main's share of a switch: the router answering chat:show-version as the view asks it
  // (the first page of the path from the version switched to), both ways, and the answer's
  // size; and the same for the whole path from the version (what a switch used to fetch).
  const switchMainMs: number[] = [];
  const switchAllMainMs: number[] = [];
  let switchPayloadBytes = 0;
  let switchAllPayloadBytes = 0;
  for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
    for (const change of [branched.there, branched.back]) {
      let started = performance.now();
      const shown = await router.dispatch(
        'chat:show-version',
        { messageId: change.to, limit: OPEN_PAGE },
        sender,
      );
      if (i >= WARMUP_RUNS) switchMainMs.push(performance.now() - started);
      switchPayloadBytes = JSON.stringify(shown).length;
      started = performance.now();
      const all = await router.dispatch('chat:show-version', { messageId: change.to }, sender);
      if (i >= WARMUP_RUNS) switchAllMainMs.push(performance.now() - started);
      switchAllPayloadBytes = JSON.stringify(all).length;
    }
  }
  // The sidebar's list: main answering chat:list for every conversation, and its size.
  const listMs: number[] = [];
  let listBytes = 0;
  let conversationCount = 0;
  const pageMs: number[] = [];
  for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
    let started = performance.now();
    await router.dispatch('chat:list', { limit: 200 }, sender);
    if (i >= WARMUP_RUNS) pageMs.push(performance.now() - started);
    started = performance.now();
    const list = await router.dispatch('chat:list', undefined, sender);
    if (i >= WARMUP_RUNS) listMs.push(performance.now() - started);
    listBytes = JSON.stringify(list).length;
    conversationCount = list.ok ? (list.value as unknown[]).length : 0;
  }
  const result: BenchResult = {
    runs: MEASURED_RUNS,
    chromium: browser.version(),
    metrics: {
      paint_ratio_1000_vs_10: round(median(ratios)),
      paint_ms_1000: round(median(long)),
      rows_mounted: Math.max(...rows),
      paint_ms_10: round(median(short)),
      main_get_1000_ms: round(median(mainMs)),
      payload_kb_1000: Math.round(payloadBytes / 1024),
      main_get_all_1000_ms: round(median(mainAllMs)),
      payload_kb_all_1000: Math.round(payloadAllBytes / 1024),
      paint_ms_10000: round(median(huge)),
      paint_ms_1000_branched: round(median(branchedPaint)),
      branch_switch_ms: round(median(switches)),
      branch_switch_max_ms: round(Math.max(...switches)),
      ...(tracedSwitches.length > 0
        ? {
            branch_switch_cpu_ms: round(median(tracedSwitches.map((t) => t.cpuMs))),
            branch_switch_script_cpu_ms: round(median(tracedSwitches.map((t) => t.scriptMs))),
            branch_switch_style_layout_cpu_ms: round(
              median(tracedSwitches.map((t) => t.styleLayoutMs)),
            ),
            branch_switch_layouts: median(tracedSwitches.map((t) => t.layouts)),
            branch_switch_traced_wall_ms: round(median(tracedSwitches.map((t) => t.wallMs))),
          }
        : {}),
      main_show_version_ms: round(median(switchMainMs)),
      payload_kb_show_version: Math.round(switchPayloadBytes / 1024),
      main_show_version_all_ms: round(median(switchAllMainMs)),
      payload_kb_show_version_all: Math.round(switchAllPayloadBytes / 1024),
      sidebar_scroll_long_tasks_over_50ms: median(
        scrolls.map((r) => r.taskCpuMs.filter((ms) => ms > 50).length),
      ),
      sidebar_scroll_long_tasks_over_50ms_wall: median(scrolls.map((r) => r.wallMs.length)),
      sidebar_scroll_longest_task_cpu_ms: round(
        median(scrolls.map((r) => Math.max(0, ...r.taskCpuMs))),
      ),
      conversations_in_sidebar: conversationCount,
      main_list_page_ms: round(median(pageMs)),
      main_list_ms_20000: round(median(listMs)),
      payload_kb_list_20000: Math.round(listBytes / 1024),
    },
    targets: {
      paint_ratio_1000_vs_10: { max: 1.5 },
      paint_ms_1000: { max: 200 },
      rows_mounted: { max: 50 },
      paint_ms_10000: { max: 200 },
      paint_ms_1000_branched: { max: 200 },
      branch_switch_ms: { max: 100 },
      sidebar_scroll_long_tasks_over_50ms: { max: 0 },
    },
    notes: [
      'Conversations of 1,000 and 10 messages (replies in markdown: a list, a table, a code fence),',
      'opened by a click in the sidebar of the real chat screen over the real services and router.',
      'paint: the click until the last message is in the page and the next frame has begun.',
      'ratio: per run, 1,000 over 10; rows_mounted: the most message rows in the DOM in any run.',
      `main_get_1000_ms: the router answering chat:get for the page the view opens with (the newest`,
      `${OPEN_PAGE} messages) in Node; payload_kb_1000: its size, all of which crosses the bridge.`,
      '_all_: the same for all 1,000 messages (older pages load only as the person scrolls up).',
      `paint_ms_1000_branched: a 1,000-message path crossing ${1000 / BRANCH_EVERY} branch points, opened the same way; branch_switch_ms:`,
      `the ‹ › switcher at its middle branch point (the other version has 490 messages of its own), click to the new path painted, both ways;`,
      `switches ${switches.map((ms) => ms.toFixed(0)).join(', ')} ms; main_show_version_ms: the router answering chat:show-version in Node as the view`,
      `asks it (the first ${OPEN_PAGE} messages of the path from the version; the rest loads as the person scrolls down), all of which`,
      'crosses the bridge: payload_kb_show_version; _all: the same for the whole path from the version on.',
      `paint_ms_10000: a conversation of 10,000 messages opened the same way. The sidebar holds ${conversationCount} conversations`,
      `(${OTHER_CONVERSATIONS} older ones written in ${Math.round(otherMs)} ms); the sidebar loads them 200 at a time as it scrolls:`,
      'main_list_page_ms is main answering one such page, main_list_ms_20000 all of them at once (in Node).',
      `Sidebar scrolled 900 px a frame to its end; reached ${[...new Set(scrolls.map((r) => JSON.stringify(r.reached)))].join(', ')}.`,
      `Load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end, ${availableParallelism()} cores.`,
      ...(tracedSwitches.length > 0
        ? [
            "branch_switch_cpu_ms: the renderer main thread's CPU time (trace thread time) from the click to the new path painted, in a",
            'second pair of switches run under a Chromium trace; _script_ and _style_layout_ split it; branch_switch_layouts: layouts in it.',
          ]
        : []),
    ],
  };
  if (!ONLY_BRANCH) return result;
  // Only the branched conversation was measured: the other figures are left out.
  const metrics = Object.fromEntries(
    Object.entries(result.metrics).filter(([, value]) => Number.isFinite(value)),
  );
  const targets = Object.fromEntries(
    Object.entries(result.targets).filter(([name]) => name in metrics),
  );
  return { ...result, metrics, targets };
}

interface SwitchTrace {
  wallMs: number;
  cpuMs: number;
  scriptMs: number;
  styleLayoutMs: number;
  layouts: number;
}

/** A switch as `switchVersion` times it, under a Chromium trace: the main thread's CPU time in it. */
async function traceSwitch(page: Page, change: Switch): Promise<SwitchTrace> {
  const cdp = await page.context().newCDPSession(page);
  const stop = await startTrace(cdp, [
    'devtools.timeline',
    'disabled-by-default-devtools.timeline',
    '__metadata',
  ]);
  const wallMs = await switchVersion(page, change);
  const events = await stop();
  await cdp.detach();
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid);
  const cpu = (name: string) =>
    onMain.filter((e) => e.name === name && e.ph === 'X').reduce((t, e) => t + (e.tdur ?? 0), 0) /
    1000;
  const styleLayoutMs = cpu('UpdateLayoutTree') + cpu('Layout');
  const scriptMs =
    cpu('FunctionCall') +
    cpu('EventDispatch') +
    cpu('FireAnimationFrame') +
    cpu('TimerFire') +
    cpu('RunMicrotasks');
  return {
    wallMs,
    cpuMs: mainThreadTasks(events).reduce((t, task) => t + task.cpuMs, 0),
    scriptMs,
    styleLayoutMs,
    layouts: onMain.filter((e) => e.name === 'Layout').length,
  };
}
