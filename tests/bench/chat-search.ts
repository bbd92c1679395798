/**
 * chat-search: full-text search over 200,000 stored messages, through the chat store's own
 * search (FTS5, ranked, with snippets), against the naive alternative in the same run: a LIKE scan
 * of every message for each word, newest first. Then the same database grows to 1,000,000
 * messages (a heavy user after years) and the same queries are timed again, FTS only: a LIKE scan
 * there only repeats the point at five times the wait.
 *
 * Messages are drawn from a Zipf-like vocabulary, so queries range from rare to fairly common
 * words. Each run times every query both ways, alternating; the figures are medians over runs.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChatStore, type NewMessage } from '../../electron/main/services/chat/store';
import { openDatabase } from '../../electron/main/services/database';
import type { Benchmark } from './bench';
import { seededRandom, syntheticWord } from './seeded';

const MESSAGES = 200_000;
const MESSAGES_LARGE = 1_000_000;
const PER_CONVERSATION = 100;
const VOCABULARY = 20_000;
const RUNS = 5;
const QUERIES = 24;

const random = seededRandom;
const wordAt = (index: number): string => syntheticWord(index, 7, 'o');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export const chatSearch: Benchmark = {
  name: 'chat-search',
  async run() {
    const dir = await mkdtemp(join(tmpdir(), 'relay-desktop-bench-search-'));
    const loadAtStart = loadavg()[0]!;
    try {
      const db = await openDatabase({ path: join(dir, 'bench.db') });
      const store = await ChatStore.open(db);
      const next = random(42);
      // Zipf-like: word i is drawn with weight ~ 1/(i+1).
      const zipf = () =>
        Math.min(VOCABULARY - 1, Math.floor(Math.exp(next() * Math.log(VOCABULARY)) - 1));
      const sentence = (words: number) =>
        Array.from({ length: words }, () => wordAt(zipf())).join(' ');

      let fillStarted = performance.now();
      const addConversation = () => {
        const conversation = store.create({ title: sentence(4) });
        const messages: NewMessage[] = Array.from({ length: PER_CONVERSATION }, (_, i) => ({
          role: i % 2 === 0 ? 'user' : 'assistant',
          content: sentence(
            i % 2 === 0 ? 12 + Math.floor(next() * 20) : 30 + Math.floor(next() * 60),
          ),
          status: 'complete',
        }));
        store.append(conversation.id, messages);
      };
      // 50 conversations per transaction: the fill is setup, not what is measured.
      let made = 0;
      const fillTo = (messages: number) => {
        for (; made < messages; made += PER_CONVERSATION * 50) {
          store.transaction(() => {
            for (let i = 0; i < 50; i++) addConversation();
          });
        }
      };
      fillTo(MESSAGES);
      const fillMs = performance.now() - fillStarted;

      // Queries from rare to common words, single and two-word, and a prefix being typed.
      const queries: string[] = [];
      const pick = random(7);
      for (let i = 0; i < QUERIES; i++) {
        const rank = Math.floor(Math.exp(pick() * Math.log(VOCABULARY / 4))) + 20;
        const word = wordAt(rank);
        if (i % 4 === 1) queries.push(`${word} ${wordAt(rank + 3)}`);
        else if (i % 4 === 3) queries.push(word.slice(0, Math.max(3, word.length - 1)));
        else queries.push(word);
      }

      const like = (query: string) => {
        const words = query.split(' ');
        return db.all(
          `SELECT m.id, m.conversation_id, c.title, m.seq, m.role, m.created_at,
              substr(m.content, 1, 120) AS snippet
            FROM chat_messages m JOIN chat_conversations c ON c.id = m.conversation_id
            WHERE ${words.map(() => 'm.content LIKE ?').join(' AND ')} AND c.deleted_at IS NULL
            ORDER BY m.created_at DESC LIMIT 50`,
          words.map((w) => `%${w}%`),
        );
      };
      const fts = (query: string) => store.search(query, 50);

      const p95s: number[] = [];
      const ratios: number[] = [];
      const hits: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        const ftsTimes: number[] = [];
        const likeTimes: number[] = [];
        for (const query of queries) {
          let started = performance.now();
          const found = fts(query);
          ftsTimes.push(performance.now() - started);
          started = performance.now();
          like(query);
          likeTimes.push(performance.now() - started);
          if (run === 0) hits.push(found.length);
        }
        if (run === 0) continue; // warm-up
        p95s.push(percentile(ftsTimes, 95));
        const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
        ratios.push(sum(likeTimes) / sum(ftsTimes));
      }

      fillStarted = performance.now();
      fillTo(MESSAGES_LARGE);
      const fillLargeMs = performance.now() - fillStarted;
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const databaseBytes = (await stat(join(dir, 'bench.db'))).size;
      const p95sLarge: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        const ftsTimes: number[] = [];
        for (const query of queries) {
          const started = performance.now();
          fts(query);
          ftsTimes.push(performance.now() - started);
        }
        if (run > 0) p95sLarge.push(percentile(ftsTimes, 95));
      }
      db.close();

      const metrics = {
        fts_p95_ms: Number(median(p95s).toFixed(3)),
        like_over_fts: Number(median(ratios).toFixed(1)),
        fts_p95_ms_1m: Number(median(p95sLarge).toFixed(3)),
        db_mb_per_million_messages: Number(
          ((databaseBytes / 1024 / 1024) * (1_000_000 / MESSAGES_LARGE)).toFixed(1),
        ),
        messages: MESSAGES,
        fill_seconds: Number((fillMs / 1000).toFixed(1)),
        fill_seconds_to_1m: Number((fillLargeMs / 1000).toFixed(1)),
        median_hits_per_query: median(hits),
      };
      return {
        runs: RUNS,
        metrics,
        targets: {
          fts_p95_ms: { max: 10 },
          like_over_fts: { min: 20 },
          fts_p95_ms_1m: { max: 10 },
        },
        notes: [
          `${MESSAGES} messages in ${MESSAGES / PER_CONVERSATION} conversations, ${QUERIES} queries (single words, pairs, prefixes), top 50 with snippets.`,
          'FTS: ChatStore.search (FTS5 MATCH, newest first, snippet). LIKE: a scan per word, newest first.',
          `Then grown to ${MESSAGES_LARGE} messages in the same file: fts_p95_ms_1m times the same queries (FTS only); db_mb_per_million_messages is the file's size after a WAL checkpoint, scaled to 10^6 messages.`,
          `Load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end.`,
        ],
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
