/**
 * sync: a computer with 10,000 conversations (200,000 messages) turns sync on and sends them;
 * then a new computer takes them all in (`first_sync_10k_conversations_s`, from its first sync's
 * start to its end: heads, every log downloaded, opened, checked and applied through the chat
 * store, search index and counts included). Then one new message synced (`one_message_upload_kb`:
 * the bytes of every object uploaded for it, head included) and a quiet sync with nothing new
 * (`idle_sync_requests`). Through a real WebDAV server on this machine (`rclone serve webdav`)
 * when rclone is installed, else a folder; the page's long tasks come with the app's wiring.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { newRecoveryPhrase } from '../../electron/main/services/sync/sync-crypto';
import { openStorage } from '../../electron/main/services/sync/sync-setup';
import { FolderTarget } from '../../electron/main/services/sync/targets/folder-target';
import type { SyncTarget } from '../../electron/main/services/sync/targets/target';
import { WebdavTarget } from '../../electron/main/services/sync/targets/webdav-target';
import { openSyncDevice, type SyncDevice } from '../fakes/sync-device';
import { startWebdav, type RunningWebdav } from '../fakes/sync-servers';
import { median, round, type Benchmark } from './bench';
import { seededRandom, syntheticWord } from './seeded';

/** Fewer only to check the benchmark itself runs (`RELAY_BENCH_SYNC_CONVERSATIONS=100`). */
const CONVERSATIONS = Number(process.env.RELAY_BENCH_SYNC_CONVERSATIONS ?? 10_000);
const PER_CONVERSATION = 20;
const FIRST_SYNC_RUNS = 3;
const RUNS = 5;

function seed(device: SyncDevice): void {
  const next = seededRandom(7);
  const sentence = (words: number) =>
    Array.from({ length: words }, () => syntheticWord(Math.floor(next() * 5_000), 6, 'a')).join(
      ' ',
    );
  for (let c = 0; c < CONVERSATIONS; c += 1) {
    device.chat.transaction(() => {
      const conversation = device.chat.create({ title: sentence(4) });
      let parent: string | null = null;
      for (let m = 0; m < PER_CONVERSATION; m += 1)
        parent = device.chat.insertMessage(conversation.id, parent, {
          role: m % 2 === 0 ? 'user' : 'assistant',
          content: sentence(m % 2 === 0 ? 12 : 60),
          status: 'complete',
        });
      if (parent !== null) device.chat.setLeaf(conversation.id, parent);
    });
  }
}

export const syncBench: Benchmark = {
  name: 'sync',
  async run() {
    const loadAtStart = loadavg()[0]!;
    const root = await mkdtemp(join(tmpdir(), 'relay-desktop-bench-sync-'));
    let server: RunningWebdav | undefined;
    let storageName = 'a folder';
    const devices: SyncDevice[] = [];
    try {
      let target: () => SyncTarget;
      try {
        server = await startWebdav();
        const url = await server.folder();
        const webdav = server;
        target = () =>
          new WebdavTarget({ url, username: webdav.username, password: webdav.password });
        storageName = 'WebDAV (rclone serve webdav on 127.0.0.1)';
      } catch {
        const folder = await mkdtemp(join(root, 'storage-'));
        target = () => new FolderTarget(folder);
      }
      const phrase = newRecoveryPhrase();
      const { keys } = await openStorage(target(), phrase);
      const a = await openSyncDevice({
        target: target(),
        keys,
        dir: await mkdtemp(join(root, 'a-')),
      });
      devices.push(a);
      const seedStart = performance.now();
      seed(a);
      console.log(
        `  seeded ${CONVERSATIONS * PER_CONVERSATION} messages in ${Math.round(performance.now() - seedStart)} ms`,
      );
      await a.close();
      const sender = await openSyncDevice({ target: target(), keys, dir: a.dir });
      devices[0] = sender;
      const sendStart = performance.now();
      const sent = await sender.engine.sync();
      if (sent.problem) throw new Error(sent.problem.message);
      const sendSeconds = (performance.now() - sendStart) / 1000;
      console.log(
        `  first upload: ${sent.uploaded.objects} objects, ${round(sent.uploaded.bytes / 1024 / 1024, 1)} MB in ${round(sendSeconds, 1)} s`,
      );

      const firstSync: number[] = [];
      for (let run = 0; run < FIRST_SYNC_RUNS; run += 1) {
        const b = await openSyncDevice({
          target: target(),
          keys,
          dir: await mkdtemp(join(root, `b${run}-`)),
        });
        const start = performance.now();
        const report = await b.engine.sync();
        const seconds = (performance.now() - start) / 1000;
        if (report.problem) throw new Error(report.problem.message);
        const count = b.db.one<{ n: number }>('SELECT count(*) AS n FROM chat_messages')!.n;
        if (count !== CONVERSATIONS * PER_CONVERSATION)
          throw new Error(`the new computer has ${count} messages`);
        firstSync.push(seconds);
        console.log(
          `  first sync ${run + 1}: ${round(seconds, 1)} s, ${report.downloaded.objects} objects, ${round(report.downloaded.bytes / 1024 / 1024, 1)} MB`,
        );
        if (run < FIRST_SYNC_RUNS - 1) await b.destroy();
        else devices.push(b);
      }
      const b = devices[1]!;

      const uploadKb: number[] = [];
      const idle: number[] = [];
      const conversation = sender.chat.list({ limit: 1 })[0]!;
      for (let run = 0; run < RUNS + 1; run += 1) {
        sender.chat.append(conversation.id, [
          {
            role: 'user',
            content: `One more question, number ${run}: when does the last ferry leave the island on Sundays?`,
            status: 'complete',
          },
        ]);
        const report = await sender.engine.sync();
        await b.engine.sync();
        const quiet = await b.engine.sync();
        if (run === 0) continue; // warm-up
        uploadKb.push(report.uploaded.bytes / 1024);
        idle.push(quiet.requests);
      }
      return {
        runs: RUNS,
        metrics: {
          first_sync_10k_conversations_s: round(median(firstSync), 1),
          one_message_upload_kb: round(median(uploadKb), 2),
          idle_sync_requests: median(idle),
          first_upload_10k_conversations_s: round(sendSeconds, 1),
          first_sync_mb: round(sent.uploaded.bytes / 1024 / 1024, 1),
        },
        targets: {
          first_sync_10k_conversations_s: { max: 60 },
          one_message_upload_kb: { max: 4 },
          idle_sync_requests: { max: 3 },
        },
        notes: [
          `Storage: ${storageName}; ${CONVERSATIONS.toLocaleString('en')} conversations of ${PER_CONVERSATION} messages (${FIRST_SYNC_RUNS} first syncs to a new computer, median; ${RUNS} single messages after a warm-up).`,
          `one_message_upload_kb counts the bytes of the objects uploaded (the log and the new head), not HTTP headers; first_upload is the first computer turning sync on (every message sent once).`,
          `Load average at start: ${loadAtStart.toFixed(2)}.`,
        ],
      };
    } finally {
      for (const device of devices) await device.destroy().catch(() => undefined);
      await server?.stop();
      await rm(root, { recursive: true, force: true });
    }
  },
};
