/**
 * Kills a process that streams a reply into the database with SIGKILL at random moments, many
 * times, and checks after each kill that the file is sound, that the reply left streaming is
 * marked interrupted on the next open, and that no text committed before the kill was lost.
 *
 * CHAT_CRASH_KILLS sets how many kills (default 25).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { ChatStore } from '../../electron/main/services/chat/store';
import { openDatabase } from '../../electron/main/services/database';

const KEY = 'sk-demo-crash-test-77aa01';
const KILLS = Number(process.env.CHAT_CRASH_KILLS ?? 25);
const WRITER = join(import.meta.dirname, '../fakes/chat-crash-writer.ts');

let relay: DemoRelay;
let dataDir: string;

beforeAll(async () => {
  // About 200 tokens at 300 a second: each reply streams for well over half a second.
  relay = await startDemoRelay({ keys: [KEY], ratePerMinute: 100_000, tokensPerSecond: 300 });
  dataDir = await mkdtemp(join(tmpdir(), 'relay-desktop-crash-'));
});
afterAll(async () => {
  await relay.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Reads one reply's committed text through a connection of our own, as another process would. */
async function committedText(path: string, replyId: string): Promise<string | undefined> {
  const db = await openDatabase({ path });
  try {
    return db.one<{ content: string }>('SELECT content FROM chat_messages WHERE id = ?', [replyId])
      ?.content;
  } finally {
    db.close();
  }
}

it(
  `keeps the file sound and every committed word across ${KILLS} kills mid-stream`,
  async () => {
    const path = join(dataDir, 'relay-desktop.db');
    const earlier = new Map<string, string>();
    let killedMidStream = 0;

    for (let round = 0; round < KILLS; round++) {
      // Node itself with tsx's loader, so the kill hits the writer and not a wrapper process.
      const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path, relay.url, KEY], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const replyId = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /started (\S+)\n/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`writer exited (${code}): ${stderr}`)));
      });

      // Somewhere in the stream: before the first save, between saves, or near the end.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 700));
      const before = (await committedText(path, replyId)) ?? '';
      child.kill('SIGKILL');
      await exited;

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
