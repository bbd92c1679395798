/**
 * User data folders for the benchmarks that start the app: an empty one and a heavy one, written
 * by the app's own services and stores, as the app would have written them over time.
 *
 * - empty: what the first minutes leave: one connection (the active one) and one new, empty
 *   conversation, open on the chat screen.
 * - heavy: two years of daily use: 20 connections, 5,000 conversations of 100 messages (500,000
 *   messages, replies in markdown with a list, a table and a code fence), 20,000 images in the
 *   gallery folder (indexed, as after any start), and 200 embeddings runs of 50 inputs.
 *
 * Folders are cached (a heavy one takes minutes to write) in the system's temp folder, under the
 * generator's version; `RELAY_BENCH_FRESH=1` writes them again. `npx tsx
 * tests/bench/user-data/generate.ts heavy <folder>` writes one where you like, to try the app
 * with (point it at it with `--user-data-dir`), with keys in memory only.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { encodePng } from '../../../electron/demo-relay/png';
import { createAppServices } from '../../../electron/main/app-services';
import { ChatStore, type NewMessage } from '../../../electron/main/services/chat/store';
import { databasePath } from '../../../electron/main/services/database';
import { RunStore } from '../../../electron/main/services/embeddings/run-store';
import { MemorySecretStore } from '../../../electron/main/services/secret-store';

/** Bumped whenever what is written changes, so that cached folders are written again. */
export const GENERATOR_VERSION = 1;

export interface Shape {
  connections: number;
  conversations: number;
  messagesPerConversation: number;
  images: number;
  embeddingRuns: number;
  inputsPerRun: number;
  dimensions: number;
}

export const SHAPES = {
  empty: {
    connections: 1,
    conversations: 1,
    messagesPerConversation: 0,
    images: 0,
    embeddingRuns: 0,
    inputsPerRun: 0,
    dimensions: 0,
  },
  heavy: {
    connections: 20,
    conversations: 5_000,
    messagesPerConversation: 100,
    images: 20_000,
    embeddingRuns: 200,
    inputsPerRun: 50,
    dimensions: 256,
  },
} as const satisfies Record<string, Shape>;

export type ShapeName = keyof typeof SHAPES;

/** What a benchmark needs to start the app on a generated folder. */
export interface UserData {
  shape: ShapeName;
  /** The user data folder (`app.getPath('userData')`). */
  userDataDir: string;
  /** The person's Pictures folder; the gallery is `<picturesDir>/Relay Desktop`. */
  picturesDir: string;
  /** The active connection, its key (the keychain is not part of the folder) and its relay. */
  activeConnectionId: string;
  apiKey: string;
  /** The conversation that was open when the app closed (the chat opens it again). */
  openConversationId: string;
  /** Sizes, for the report. */
  messages: number;
  databaseBytes: number;
}

const MANIFEST = 'bench-user-data.json';
const DAY = 86_400_000;
/** "Now" for the data: the last activity is this day, the first two years before. */
const NOW = Date.parse('2026-11-01T12:00:00Z');

/** A reply as relays write them: headings, a list, a table and a fenced block of code. */
function reply(conversation: number, i: number): string {
  return [
    `### Answer ${i} of conversation ${conversation}`,
    '',
    `Here is what message ${i} asked about, in a few **plain** sentences with \`inline code\`.`,
    '',
    `- first point of ${i}`,
    `- second point, with a [link](https://example.com/${conversation}/${i})`,
    '',
    '| name | value |',
    '| --- | ---: |',
    `| items | ${i} |`,
    '',
    '```ts',
    `const answer${i} = [${i}, ${conversation}].map((n) => n * 2);`,
    '```',
  ].join('\n');
}

const TOPICS =
  'invoices travel recipes garden python rust taxes piano physics chess cycling poetry'.split(' ');

function messagesOf(conversation: number, count: number): NewMessage[] {
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? {
          role: 'user' as const,
          content: `Question ${i} about ${TOPICS[(conversation + i) % TOPICS.length]}: tell me about item ${i} of ${conversation}.`,
          status: 'complete' as const,
        }
      : {
          role: 'assistant' as const,
          content: reply(conversation, i),
          status: 'complete' as const,
          model: 'demo-chat',
          usage: { promptTokens: 40 + i, completionTokens: 80, totalTokens: 120 + i },
        },
  );
}

/** A small image file of its own for each number, with its sidecar, as the gallery saves them. */
export async function writeImages(folder: string, count: number): Promise<void> {
  await mkdir(folder, { recursive: true });
  const side = 16;
  const rgb = new Uint8Array(side * side * 3);
  for (let i = 0; i < count; i++) {
    for (let p = 0; p < side * side; p++) {
      rgb[p * 3] = (p + i * 7) & 255;
      rgb[p * 3 + 1] = (p * 3 + i * 13) & 255;
      rgb[p * 3 + 2] = (i >> 8) & 255;
    }
    rgb[0] = i & 255;
    rgb[1] = (i >> 8) & 255;
    rgb[2] = (i >> 16) & 255;
    const png = encodePng(side, side, rgb);
    const id = createHash('sha256').update(png).digest('hex');
    const createdAt = new Date(NOW - 730 * DAY + Math.floor((i * 730 * DAY) / count));
    await writeFile(join(folder, `${id}.png`), png);
    await writeFile(
      join(folder, `${id}.json`),
      JSON.stringify({
        prompt: `a picture of ${TOPICS[i % TOPICS.length]} number ${i}`,
        model: 'demo-image',
        size: `${side}x${side}`,
        createdAt: createdAt.toISOString(),
      }),
    );
  }
}

/** Writes the folder for `shape` under `root` (emptied first), with `relayUrl` as the active relay. */
export async function generateUserData(
  root: string,
  shape: ShapeName,
  relay: { url: string; key: string },
  log: (line: string) => void = () => undefined,
): Promise<UserData> {
  const spec: Shape = SHAPES[shape];
  await rm(root, { recursive: true, force: true });
  const userDataDir = join(root, 'user-data');
  const picturesDir = join(root, 'Pictures');
  await mkdir(userDataDir, { recursive: true });
  await writeImages(join(picturesDir, 'Relay Desktop'), spec.images);
  log(`${shape}: ${spec.images} images written`);

  const services = await createAppServices({
    userDataDir,
    picturesDir,
    secretStore: new MemorySecretStore(),
  });
  try {
    let activeConnectionId = '';
    for (let i = 0; i < spec.connections; i++) {
      const last = i === spec.connections - 1;
      const created = await services.connections.create({
        name: last ? 'Daily relay' : `Relay ${i + 1}`,
        baseUrl: last ? relay.url : `https://relay-${i + 1}.example.com`,
        apiKey: last ? relay.key : `sk-bench-${i + 1}-${'x'.repeat(24)}`,
      });
      if (last) activeConnectionId = created.id;
    }
    await services.connections.select(activeConnectionId);
    // The model list as the app keeps it once it has been shown.
    await services.models.list({ refresh: true });

    // The store's clock is each conversation's own day, so that "last activity" spreads too.
    let clock = NOW;
    const store = new ChatStore(services.db, () => new Date(clock));
    let openConversationId = '';
    const perTransaction = 50;
    for (let made = 0; made < spec.conversations; made += perTransaction) {
      store.transaction(() => {
        for (let c = made; c < Math.min(spec.conversations, made + perTransaction); c++) {
          const at = new Date(NOW - 730 * DAY + Math.floor((c * 730 * DAY) / spec.conversations));
          clock = at.getTime() + 3_600_000;
          const conversation = store.create({
            title:
              spec.messagesPerConversation === 0
                ? 'New conversation'
                : `About ${TOPICS[c % TOPICS.length]}, part ${c}`,
            model: 'demo-chat',
            createdAt: at.toISOString(),
            updatedAt: at.toISOString(),
          });
          if (spec.messagesPerConversation > 0)
            store.append(conversation.id, messagesOf(c, spec.messagesPerConversation));
          openConversationId = conversation.id;
        }
      });
      if (made % 500 === 0 && made > 0) log(`${shape}: ${made} conversations`);
    }

    const runs = new RunStore(services.db);
    for (let r = 0; r < spec.embeddingRuns; r++) {
      const id = `00000000-0000-4000-8000-${String(r).padStart(12, '0')}`;
      const inputs = Array.from(
        { length: spec.inputsPerRun },
        (_, i) => `${TOPICS[(r + i) % TOPICS.length]} and ${TOPICS[(i * 7) % TOPICS.length]} ${i}`,
      );
      runs.create({
        id,
        model: 'demo-embedding',
        createdAt: new Date(NOW - r * DAY).toISOString(),
        inputs,
      });
      const vectors = inputs.map((_, i) =>
        Array.from({ length: spec.dimensions }, (_, d) => Math.sin(r + i * 0.37 + d * 0.11)),
      );
      runs.saveBatch(
        id,
        inputs.map((_, i) => i),
        vectors,
        undefined,
      );
      runs.setStatus(id, 'done');
    }
    // The gallery index, as any start after the images were saved leaves it.
    await services.gallery.whenIndexed();
    log(`${shape}: written`);
    const messages = spec.conversations * spec.messagesPerConversation;
    await services.close();
    const { size: databaseBytes } = await stat(databasePath(userDataDir));
    const data: UserData = {
      shape,
      userDataDir,
      picturesDir,
      activeConnectionId,
      apiKey: relay.key,
      openConversationId,
      messages,
      databaseBytes,
    };
    await writeFile(join(root, MANIFEST), JSON.stringify({ version: GENERATOR_VERSION, data }));
    return data;
  } catch (error) {
    await services.close();
    throw error;
  }
}

/**
 * The folder for `shape`, written once and kept in the temp folder: the relay it points at is
 * given again at each use (`relayUrl` is rewritten in connections.json), the rest is reused.
 */
export async function cachedUserData(
  shape: ShapeName,
  relay: { url: string; key: string },
  log: (line: string) => void = () => undefined,
): Promise<UserData> {
  const root = join(tmpdir(), `relay-bench-user-data-${shape}-v${GENERATOR_VERSION}`);
  const manifest = join(root, MANIFEST);
  if (process.env.RELAY_BENCH_FRESH !== '1' && existsSync(manifest)) {
    const { version, data } = JSON.parse(await readFile(manifest, 'utf8')) as {
      version: number;
      data: UserData;
    };
    if (version === GENERATOR_VERSION) {
      await pointAt(data, relay);
      return data;
    }
  }
  log(`writing the ${shape} user data folder in ${root} (once; kept for later runs)`);
  return generateUserData(root, shape, relay, log);
}

/** Makes the active connection point at `relay` (its port changes from run to run). */
async function pointAt(data: UserData, relay: { url: string; key: string }): Promise<void> {
  const file = join(data.userDataDir, 'connections.json');
  const stored = JSON.parse(await readFile(file, 'utf8')) as {
    connections: Array<{ id: string; baseUrl: string }>;
  };
  for (const connection of stored.connections)
    if (connection.id === data.activeConnectionId) connection.baseUrl = relay.url;
  await writeFile(file, JSON.stringify(stored, null, 2));
  data.apiKey = relay.key;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [shape, folder] = process.argv.slice(2);
  if (!(shape === 'empty' || shape === 'heavy') || !folder) {
    console.error('usage: npx tsx tests/bench/user-data/generate.ts empty|heavy <folder>');
    process.exitCode = 2;
  } else {
    const data = await generateUserData(
      resolve(folder),
      shape,
      { url: 'http://127.0.0.1:8787', key: 'sk-demo-local' },
      console.log,
    );
    console.log(JSON.stringify(data, null, 2));
  }
}
