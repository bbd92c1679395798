/**
 * Kills a process that streams a reply into the database with SIGKILL at random moments, many
 * times, and checks after each kill that the file is sound, that the reply left streaming is
 * marked interrupted on the next open, and that no text committed before the kill was lost.
 *
 * `npm test` kills 5 times; `npm run test:reliability` (RELIABILITY_FULL=1) 25 times, beside the
 * reliability suite's own 200 (tests/reliability/crashes). CHAT_CRASH_KILLS sets another count.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { ChatStore } from '../../electron/main/services/chat/store';
import { openDatabase } from '../../electron/main/services/database';
import { bundleCrashWriter, committedText, startCrashWriter } from '../fakes/chat-crash-run';

const KEY = 'sk-demo-crash-test-77aa01';
const KILLS = Number(process.env.CHAT_CRASH_KILLS ?? (process.env.RELIABILITY_FULL ? 25 : 5));

let relay: DemoRelay;
let dataDir: string;
/** The writer bundled once (inside the repository, so its packages resolve): Node starts it faster than tsx. */
let buildDir: string;
let bundle: string | undefined;

beforeAll(async () => {
  // About 200 tokens at 300 a second: each reply streams for well over half a second.
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 300 });
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-crash-'));
  const results = resolve(import.meta.dirname, '../../test-results');
  await mkdir(results, { recursive: true });
  buildDir = await mkdtemp(join(results, 'chat-crash-'));
  bundle = await bundleCrashWriter(buildDir);
});
afterAll(async () => {
  await relay.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(buildDir, { recursive: true, force: true });
});

it(
  `keeps the file sound and every committed word across ${KILLS} kills mid-stream`,
  async () => {
    const path = join(dataDir, 'relay-desktop.db');
    const earlier = new Map<string, string>();
    let killedMidStream = 0;

    for (let round = 0; round < KILLS; round++) {
      const writer = await startCrashWriter(path, relay.url, KEY, undefined, bundle);
      const { replyId } = writer;

      // Somewhere in the stream: before the first save, between saves, or near the end.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 700));
      const before = (await committedText(path, replyId)) ?? '';
      await writer.kill();

      const db = await openDatabase({ path });
      try {
        expect(db.integrityCheck()).toBe('ok');
        const store = await ChatStore.open(db);
        const reply = store.message(replyId);
        expect(reply, `round ${round}: the reply row survives`).toBeDefined();
        expect(reply!.content.startsWith(before), `round ${round}: no committed text lost`).toBe(
          true,
        );
        expect(['interrupted', 'complete']).toContain(reply!.status);
        if (reply!.status === 'interrupted') killedMidStream++;
        // Earlier rounds' replies are exactly as they were.
        for (const [id, content] of earlier) expect(store.message(id)?.content).toBe(content);
        earlier.set(replyId, reply!.content);
        // The search index agrees with the table.
        const indexed = db.one<{ n: number }>(
          "SELECT count(*) AS n FROM chat_messages_fts WHERE chat_messages_fts MATCH 'crash0'",
        )?.n;
        const scanned = db.one<{ n: number }>(
          "SELECT count(*) AS n FROM chat_messages WHERE content LIKE '%crash0%'",
        )?.n;
        expect(indexed).toBe(scanned);
        db.exec("INSERT INTO chat_messages_fts (chat_messages_fts) VALUES ('integrity-check')");
      } finally {
        db.close();
      }
    }
    // Most kills land mid-stream; a few may fall after the reply finished.
    expect(killedMidStream).toBeGreaterThan(KILLS / 2);
  },
  KILLS * 10_000 + 30_000,
);
