/**
 * chat-transport: a reply streamed at 2,000 tokens a second from the demo relay through the real
 * main-side chat service (relay client, delta coalescing, persistence), the real router and the
 * built preload behind the context bridge, into the real chat screen in Chromium.
 *
 * - bridge_messages_per_second: every message main sends the page (events, and answers to the
 *   page's calls) from the first `chat:delta` to `chat:reply-finished`, per second.
 * - p95_delta_to_dom_ms: for each SSE chunk, from the moment main reads it (its bytes reach the
 *   relay client's reader) to the first DOM commit in the page that shows its text; the 95th
 *   percentile over the chunks of the reply.
 *
 * How a chunk is matched to a commit: the reply is padded by the relay (`replyTokens`) with
 * numbered paragraphs of plain prose, so the end of the rendered text can be found again in the
 * raw text. A MutationObserver in the page notes, at each commit, the time and the last 80
 * characters of the reply's rendered text (whitespace dropped); in Node each one is found in the
 * raw text, which gives how much of the reply the page showed at that moment. Chunks of the demo
 * reply's own opening (markdown whose rendering differs from its source) are left out.
 *
 * Clocks: both sides stamp `performance.timeOrigin + performance.now()`. Their agreement is
 * checked, not assumed: before each run the page's clock is read between two of main's (the
 * round trip with the smallest time bounds it), and page times are corrected by the offset found.
 *
 * The p95 is broken down along the way: main's wait (read to the `chat:delta` that carries the
 * chunk), the bridge (that event's emit to its arrival in the page), and the page (arrival to the
 * commit). Each run opens a fresh page; medians of MEASURED_RUNS after a warm-up.
 *
 * Two stages pace text on purpose: the page's frame coalescer (at most one apply per animation
 * frame) and main's DeltaCoalescer, which the page paces: at the frame after each apply the page
 * sends `chat:frame-ready` one way, and main sends what gathered since at once (never sooner than
 * 1000/60 ms after its last send, and 58 a second at most on average). Main's wait, spread over a
 * frame, is the floor of the p95 (about 16 ms) before the bridge and rendering.
 * - page_messages_per_second: the page's one-way messages to main in the same window (they have
 *   no answer, so they add nothing to bridge_messages_per_second); both_ways adds the two.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import type { FetchLike } from '../../electron/main/services/relay/relay-client';
import { ChatPage } from '../e2e/pages/chat-page';
import { withBenchSession } from './bench-session';
import { median, round, type Benchmark, type BenchResult } from './bench';

const TOKENS_PER_SECOND = 2_000;
/** 12 seconds of tokens. */
const REPLY_TOKENS = 24_000;
const WARMUP_RUNS = 1;
const MEASURED_RUNS = 5;
const KEY = 'sk-bench-chat-transport';
const TAIL = 80;

/** Main's clock and the page's, on the same epoch. */
const now = () => performance.timeOrigin + performance.now();

/** A chunk of the reply as main read it: when, and where its text ends in the reply. */
export interface Chunk {
  readAt: number;
  start: number;
  end: number;
  content: string;
}

/**
 * What main sent the page: when, which channel, and for deltas where the reply then ended; and
 * the page's one-way messages to main (`page …`), counted apart.
 */
export interface Sent {
  at: number;
  channel: string;
  /** For `chat:delta`: the reply's length once this delta is added. */
  upTo?: number;
}

/**
 * The fetch main uses, with a tap on chat streams: the time each piece of the body reaches the
 * relay client's reader, and the content of the SSE chunks in it (with the request's body, to
 * tell streams apart).
 */
export function tappedFetch(onChunk: (chunk: Chunk, request: string) => void): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!url.endsWith('/v1/chat/completions') || !response.body) return response;
    const request = typeof init.body === 'string' ? init.body : '';
    const decoder = new TextDecoder();
    let buffer = '';
    let length = 0;
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(bytes, controller) {
        const readAt = now();
        buffer += decoder.decode(bytes, { stream: true });
        const events = buffer.split('\n\n');
        buffer = events.pop() ?? '';
        for (const event of events) {
          const data = event.startsWith('data: ') ? event.slice(6) : '';
          if (data === '' || data === '[DONE]') continue;
          const parsed = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }> };
          const content = parsed.choices?.[0]?.delta?.content ?? '';
          if (content === '') continue;
          onChunk({ readAt, start: length, end: length + content.length, content }, request);
          length += content.length;
        }
        controller.enqueue(bytes);
      },
    });
    return new Response(response.body.pipeThrough(tap), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The few browser globals the page-side code uses (the bench compiles without the DOM library). */
interface El {
  textContent: string | null;
  lastElementChild: El | null;
  previousElementSibling: El | null;
  querySelector(s: string): El | null;
}
interface PageGlobals {
  document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> };
  MutationObserver: new (callback: () => void) => {
    observe(target: El, options: Record<string, boolean>): void;
    disconnect(): void;
  };
  __benchArrivals: Array<[number, number]>;
  __benchCommits: Array<[number, string]>;
  __benchStop?: () => void;
  __benchOnEvent?: (channel: string, payload: unknown) => void;
}

/** The page's clock offset from main's: page − main, and how far off that estimate may be. */
export async function clockOffset(page: Page): Promise<{ offset: number; bound: number }> {
  let best = { offset: 0, bound: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 30; i++) {
    const before = now();
    const inPage = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = now();
    const bound = (after - before) / 2;
    if (bound < best.bound) best = { offset: inPage - (before + after) / 2, bound };
  }
  return best;
}

export interface Run {
  messagesPerSecond: number;
  /** The page's one-way messages to main, per second, in the same window. */
  pageMessagesPerSecond: number;
  deltasPerSecond: number;
  streamSeconds: number;
  latencies: number[];
  mainWait: number[];
  bridge: number[];
  pageWait: number[];
  /** Commits whose text could not be found in the raw reply (markdown of the opening). */
  unmatched: number;
  matched: number;
  offset: { offset: number; bound: number };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const chatTransport: Benchmark = {
  name: 'chat-transport',
  async run(): Promise<BenchResult> {
    // What one run records in main.
    let chunks: Chunk[] = [];
    let sent: Sent[] = [];
    let replied = 0;
    let finished: (() => void) | undefined;
    // Main's events reach the page over the session's event stream (see bench-session.ts).
    return withBenchSession(
      {
        name: 'chat-transport',
        key: KEY,
        relay: {
          ratePerMinute: 100_000,
          tokensPerSecond: TOKENS_PER_SECOND,
          replyTokens: REPLY_TOKENS,
        },
        fetch: tappedFetch((chunk) => chunks.push(chunk)),
        onEmit: (channel, payload) => {
          const record: Sent = { at: now(), channel };
          if (channel === 'chat:delta') {
            for (const delta of (payload as { deltas: Array<{ text: string }> }).deltas)
              replied += delta.text.length;
            record.upTo = replied;
          }
          sent.push(record);
          if (channel === 'chat:reply-finished') finished?.();
        },
        eventStream: true,
      },
      async (session) => {
        const { browser } = session;
        const loadBefore = loadavg()[0]!;
        const runs: Run[] = [];
        for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
          const { page, close } = await session.openPage({
            viewport: { width: 1180, height: 780 },
            onAnswer: ({ channel }) => {
              sent.push({ at: now(), channel: `answer ${channel}` });
            },
            onSend: (channel) => {
              sent.push({ at: now(), channel: `page ${channel}` });
            },
            initScript: () => {
              const page = globalThis as unknown as PageGlobals;
              page.__benchArrivals = [];
              page.__benchCommits = [];
              // Each event as it arrives, before the app has it.
              page.__benchOnEvent = (channel, payload) => {
                if (channel === 'chat:delta')
                  page.__benchArrivals.push([
                    performance.timeOrigin + performance.now(),
                    (payload as { deltas: Array<{ text: string }> }).deltas.reduce(
                      (sum, delta) => sum + delta.text.length,
                      0,
                    ),
                  ]);
              };
            },
          });
          const chat = new ChatPage(page);
          await chat.open();
          await chat.newChat();
          for (let wait = 0; (await chat.model.inputValue()) === ''; wait++) {
            if (wait > 200) throw new Error('No chat model was offered');
            await page.waitForTimeout(25);
          }
          if ((await chat.model.inputValue()) !== 'demo-chat')
            await chat.model.selectOption('demo-chat');

          const offset = await clockOffset(page);
          // Every commit that changes the end of the reply's rendered text: when, and that end.
          // Watched from the conversation's pane: a new conversation shows its suggestions until
          // the first message, and the message list only from then on.
          await page.evaluate((tail) => {
            const page = globalThis as unknown as PageGlobals;
            const list = page.document.querySelector('.chat-main');
            if (!list) throw new Error('No conversation pane');
            let last = '';
            const observer = new page.MutationObserver(() => {
              const at = performance.timeOrigin + performance.now();
              const replies = page.document.querySelectorAll(
                'article.chat-message[data-role="assistant"]',
              );
              const markdown = replies[replies.length - 1]?.querySelector('.markdown');
              const block = markdown?.lastElementChild;
              if (!block) return;
              const text = `${block.previousElementSibling?.textContent ?? ''}${block.textContent ?? ''}`;
              const end = text.replace(/\s+/g, '').slice(-tail);
              if (end === last) return;
              last = end;
              page.__benchCommits.push([at, end]);
            });
            observer.observe(list, { childList: true, subtree: true, characterData: true });
            page.__benchStop = () => observer.disconnect();
          }, TAIL);

          chunks = [];
          sent = [];
          replied = 0;
          const done = new Promise<void>((resolve) => (finished = resolve));
          await chat.send('Stream a long reply for the transport benchmark');
          await done;
          await page.waitForTimeout(300);
          const { arrivals, commits } = await page.evaluate(() => {
            const page = globalThis as unknown as PageGlobals;
            page.__benchStop?.();
            return { arrivals: page.__benchArrivals, commits: page.__benchCommits };
          });
          await close();
          if (i < WARMUP_RUNS) continue;
          runs.push(analyse(chunks, sent, arrivals, commits, offset));
        }
        const loadAfter = loadavg()[0]!;

        const p95s = runs.map((r) => percentile(r.latencies, 95));
        const mid = (pick: (r: Run) => number) => round(median(runs.map(pick)));
        return {
          runs: MEASURED_RUNS,
          chromium: browser.version(),
          metrics: {
            bridge_messages_per_second: mid((r) => r.messagesPerSecond),
            p95_delta_to_dom_ms: round(median(p95s)),
            page_messages_per_second: mid((r) => r.pageMessagesPerSecond),
            bridge_messages_per_second_both_ways: mid(
              (r) => r.messagesPerSecond + r.pageMessagesPerSecond,
            ),
            p50_delta_to_dom_ms: mid((r) => percentile(r.latencies, 50)),
            p75_delta_to_dom_ms: mid((r) => percentile(r.latencies, 75)),
            p90_delta_to_dom_ms: mid((r) => percentile(r.latencies, 90)),
            p99_delta_to_dom_ms: mid((r) => percentile(r.latencies, 99)),
            chat_delta_events_per_second: mid((r) => r.deltasPerSecond),
            p95_main_wait_ms: mid((r) => percentile(r.mainWait, 95)),
            p95_bridge_ms: mid((r) => percentile(r.bridge, 95)),
            p95_page_wait_ms: mid((r) => percentile(r.pageWait, 95)),
            p50_main_wait_ms: mid((r) => percentile(r.mainWait, 50)),
            p50_bridge_ms: mid((r) => percentile(r.bridge, 50)),
            p50_page_wait_ms: mid((r) => percentile(r.pageWait, 50)),
            stream_seconds: mid((r) => r.streamSeconds),
            chunks_measured: Math.min(...runs.map((r) => r.latencies.length)),
            clock_offset_ms: mid((r) => r.offset.offset),
            clock_offset_bound_ms: mid((r) => r.offset.bound),
          },
          targets: {
            bridge_messages_per_second: { max: 60 },
            p95_delta_to_dom_ms: { max: 20 },
          },
          notes: [
            `A reply of ${REPLY_TOKENS} tokens at ${TOKENS_PER_SECOND} tokens/s (demo relay, demo-chat), per run; p95 per run: ${p95s.map((v) => v.toFixed(1)).join(', ')} ms.`,
            'delta_to_dom: main reads the SSE chunk -> the DOM commit showing its text. Broken down (p50/p95 of',
            'each part alone): main_wait (read -> chat:delta emitted), bridge (emit -> arrival in the page,',
            'a same-origin event stream here, IPC in the app), page_wait (arrival -> commit: frame + render).',
            `Clocks: page - main offset ${runs.map((r) => `${r.offset.offset.toFixed(2)}±${r.offset.bound.toFixed(2)}`).join(', ')} ms; page times corrected by it.`,
            `Commits matched to the raw reply: ${runs.map((r) => `${r.matched}/${r.matched + r.unmatched}`).join(', ')} (unmatched: the markdown opening).`,
            `delta_to_dom distribution, all runs: ${distribution(runs.flatMap((r) => r.latencies))}.`,
            `Relay, main and the browser share this machine: load average ${loadBefore.toFixed(1)} at start, ${loadAfter.toFixed(1)} at end, ${availableParallelism()} cores.`,
          ],
        };
      },
    );
  },
};

/** Shares of `values` (ms) in 5 ms bins, as "0-5: 31%, 5-10: 28%, … 30+: 1%". */
export function distribution(values: readonly number[]): string {
  const edges = [5, 10, 15, 20, 25, 30];
  const counts = new Array<number>(edges.length + 1).fill(0);
  for (const value of values) {
    const bin = edges.findIndex((edge) => value < edge);
    counts[bin < 0 ? edges.length : bin]!++;
  }
  const share = (n: number) => `${((100 * n) / Math.max(1, values.length)).toFixed(1)}%`;
  return counts
    .map(
      (n, i) =>
        `${i === edges.length ? `${edges.at(-1)}+` : `${i === 0 ? 0 : edges[i - 1]}-${edges[i]}`}: ${share(n)}`,
    )
    .join(', ');
}

/** Matches chunks, deltas, arrivals and commits of one run into the figures. */
export function analyse(
  chunks: readonly Chunk[],
  sent: readonly Sent[],
  arrivals: ReadonlyArray<[number, number]>,
  commits: ReadonlyArray<[number, string]>,
  offset: { offset: number; bound: number },
): Run {
  const deltas = sent.filter((s) => s.channel === 'chat:delta');
  const first = deltas[0]?.at;
  const end = sent.find((s) => s.channel === 'chat:reply-finished')?.at;
  if (first === undefined || end === undefined || chunks.length === 0)
    throw new Error('The reply did not stream');
  const inWindow = sent.filter((s) => s.at >= first && s.at <= end);
  const window = inWindow.filter((s) => !s.channel.startsWith('page '));
  const seconds = (end - first) / 1000;

  // The raw reply, whitespace dropped, and where each of its characters lies in the raw text.
  const raw = chunks.map((chunk) => chunk.content).join('');
  const stripped: string[] = [];
  const at: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (/\s/.test(raw[i]!)) continue;
    stripped.push(raw[i]!);
    at.push(i);
  }
  const flat = stripped.join('');
  const bodyStart = raw.indexOf('\n\nParagraph 1 ');
  if (bodyStart < 0) throw new Error('The reply was not padded (replyTokens)');

  // How much of the raw reply each commit showed, by page time corrected to main's clock.
  const shown: Array<{ at: number; upTo: number }> = [];
  let from = 0;
  let unmatched = 0;
  for (const [pageAt, tail] of commits) {
    const index = flat.indexOf(tail, Math.max(0, from - tail.length));
    if (tail.length < 20 || index < 0) {
      unmatched++;
      continue;
    }
    from = index + tail.length;
    shown.push({ at: pageAt - offset.offset, upTo: at[index + tail.length - 1]! + 1 });
  }
  // Arrival times of the deltas, in main's clock, with where the reply ended after each.
  let total = 0;
  const arrived = arrivals.map(([pageAt, length]) => {
    total += length;
    return { at: pageAt - offset.offset, upTo: total };
  });

  const latencies: number[] = [];
  const mainWait: number[] = [];
  const bridge: number[] = [];
  const pageWait: number[] = [];
  let c = 0;
  let d = 0;
  let a = 0;
  for (const chunk of chunks) {
    if (chunk.start < bodyStart) continue;
    while (c < shown.length && shown[c]!.upTo < chunk.end) c++;
    while (d < deltas.length && deltas[d]!.upTo! < chunk.end) d++;
    while (a < arrived.length && arrived[a]!.upTo < chunk.end) a++;
    const commit = shown[c];
    const delta = deltas[d];
    const arrival = arrived[a];
    if (!commit || !delta || !arrival) continue;
    latencies.push(commit.at - chunk.readAt);
    mainWait.push(delta.at - chunk.readAt);
    bridge.push(arrival.at - delta.at);
    pageWait.push(commit.at - arrival.at);
  }
  return {
    messagesPerSecond: window.length / seconds,
    pageMessagesPerSecond: (inWindow.length - window.length) / seconds,
    deltasPerSecond: deltas.length / seconds,
    streamSeconds: seconds,
    latencies,
    mainWait,
    bridge,
    pageWait,
    unmatched,
    matched: shown.length,
    offset,
  };
}
