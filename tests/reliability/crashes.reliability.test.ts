/**
 * Section 4, crashes: a writer process streams a reply from the demo relay into the database and
 * is killed with SIGKILL at a random point of the stream, again and again. After every kill the
 * database passes integrity_check, no committed text is lost, and the reply left streaming is
 * marked interrupted when the app opens the file again.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startDemoRelay, type DemoRelay } from '../../electron/demo-relay/index';
import { composeDemoReply, tokenize } from '../../electron/demo-relay/models/chat';
import { ChatStore } from '../../electron/main/services/chat/store';
import { databasePath, openDatabase } from '../../electron/main/services/database';
import { bundleCrashWriter, committedText, startCrashWriter } from '../fakes/chat-crash-run';
import { CANARY_KEY, CANARY_PROMPT, cleanUp, suiteDir, sweep } from './lib/canary';
import { count, FULL, recordFigures, RESULTS_DIR } from './lib/record';

const KILLS = count(200, 5);
const TOKENS_PER_SECOND = 300;

let relay: DemoRelay;
let dataDir: string;
let bundle: string | undefined;

beforeAll(async () => {
  relay = await startDemoRelay({
    keys: [CANARY_KEY],
    ratePerMinute: 100_000,
    balance: 1_000_000,
    tokensPerSecond: TOKENS_PER_SECOND,
  });
  dataDir = await suiteDir('crashes');
  bundle = await bundleCrashWriter(join(RESULTS_DIR, '.build'));
});
afterAll(async () => {
  await relay.close();
  cleanUp([dataDir]);
});

it(
  `keeps the database sound and every committed word across ${KILLS} kills (-9)`,
  async () => {
    const path = databasePath(dataDir);
    const fullReply = composeDemoReply(CANARY_PROMPT);
    const streamMs = (tokenize(fullReply).length / TOKENS_PER_SECOND) * 1000;
    const earlier = new Map<string, string>();
    const problems: string[] = [];
    const recoveryMs: number[] = [];
    let integrityOk = 0;
    let killedMidStream = 0;
    let completeBeforeKill = 0;
    let committedKept = 0;
    let markedInterrupted = 0;

    for (let round = 0; round < KILLS; round++) {
      const writer = await startCrashWriter(path, relay.url, CANARY_KEY, CANARY_PROMPT, bundle);
      const { replyId } = writer;
      // A random point of the stream (and a little past its end, so a finished reply is seen too).
      await new Promise((resolve) => setTimeout(resolve, Math.random() * streamMs * 1.1));
      const before = (await committedText(path, replyId)) ?? '';
      await writer.kill();

      const started = performance.now();
      const db = await openDatabase({ path });
      try {
        const integrity = db.integrityCheck();
        if (integrity === 'ok') integrityOk++;
        else problems.push(`round ${round}: integrity_check said ${integrity}`);
        const store = await ChatStore.open(db);
        recoveryMs.push(performance.now() - started);
        const reply = store.message(replyId);
        if (reply === undefined) {
          problems.push(`round ${round}: the reply row is gone`);
          continue;
        }
        if (reply.content.startsWith(before)) committedKept++;
        else problems.push(`round ${round}: committed text lost (${before.length} chars before)`);
        if (!fullReply.startsWith(reply.content))
          problems.push(`round ${round}: the stored text is not a prefix of the reply`);
        if (reply.status === 'interrupted') {
          killedMidStream++;
          markedInterrupted++;
        } else if (reply.status === 'complete') {
          completeBeforeKill++;
          if (reply.content !== fullReply) problems.push(`round ${round}: complete but cut short`);
        } else problems.push(`round ${round}: the reply is left '${reply.status}'`);
        for (const [id, content] of earlier)
          if (store.message(id)?.content !== content)
            problems.push(`round ${round}: the reply of an earlier round changed`);
        earlier.set(replyId, reply.content);
        const indexed = db.one<{ n: number }>(
          "SELECT count(*) AS n FROM chat_messages_fts WHERE chat_messages_fts MATCH 'quokka'",
        )?.n;
        const scanned = db.one<{ n: number }>(
          "SELECT count(*) AS n FROM chat_messages WHERE content LIKE '%quokka%'",
        )?.n;
        if (indexed !== scanned) problems.push(`round ${round}: FTS ${indexed} ≠ table ${scanned}`);
      } finally {
        db.close();
      }
    }

    const swept = sweep([dataDir]);
    const sorted = [...recoveryMs].sort((a, b) => a - b);
    recordFigures(
      4,
      'Crashes',
      [
        {
          name: 'Kills (SIGKILL)',
          value: KILLS,
          target: '200',
          ok: FULL ? KILLS >= 200 : undefined,
        },
        { name: '… of which mid-stream (reply then marked interrupted)', value: killedMidStream },
        { name: '… of which after the reply was complete', value: completeBeforeKill },
        {
          name: 'integrity_check "ok"',
          value: integrityOk,
          target: `${KILLS}`,
          ok: integrityOk === KILLS,
        },
        {
          name: 'Kills with every committed character kept',
          value: committedKept,
          target: `${KILLS}`,
          ok: committedKept === KILLS,
        },
        {
          name: 'Interrupted replies marked interrupted on reopen',
          value: `${markedInterrupted} of ${killedMidStream}`,
          ok: markedInterrupted === killedMidStream,
        },
        {
          name: 'Replies kept across all rounds',
          value: earlier.size,
          target: `${KILLS}`,
          ok: earlier.size === KILLS,
        },
        {
          name: 'Reopen and recovery, p50',
          value: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
          unit: 'ms',
        },
        { name: 'Reopen and recovery, max', value: Math.round(sorted.at(-1) ?? 0), unit: 'ms' },
        {
          name: 'Canary key in the folder',
          value: swept.hits.length,
          target: '0',
          ok: swept.hits.length === 0,
        },
      ],
      [
        `Each round: a new Node process (the writer ${bundle === undefined ? 'run through tsx' : 'bundled by esbuild, run by plain Node'}) opens the same database, sends the canary prompt to the demo relay (${TOKENS_PER_SECOND} tokens/s, a reply of ${tokenize(fullReply).length} tokens, about ${Math.round(streamMs)} ms) and stores the reply as it streams; it is killed after a uniform random delay over 1.1× that time.`,
        'Committed text = what another connection read from the file just before the kill; it must be a prefix of what the reopened store holds, which must itself be a prefix of the demo relay’s deterministic reply.',
        ...problems.slice(0, 5).map((p) => `Problem: ${p}`),
      ],
    );
    expect(problems).toEqual([]);
    expect(integrityOk).toBe(KILLS);
    expect(committedKept).toBe(KILLS);
    expect(killedMidStream).toBeGreaterThan(KILLS / 2);
    expect(swept.hits).toEqual([]);
  },
  count(900_000, 120_000),
);
