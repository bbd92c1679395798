/**
 * A computer that syncs, for the sync tests: its own user data folder with the real stores (a
 * SQLite file with the chat and prompt tables, settings.json, model-prices.json), the sync
 * engine over them, and a wall clock the test can set wrong.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AttachmentStore } from '../../electron/main/services/chat/attachments';
import { ChatStore } from '../../electron/main/services/chat/store';
import { databasePath, openDatabase, type Db } from '../../electron/main/services/database';
import { PriceBook } from '../../electron/main/services/models/price-book';
import { PromptsService } from '../../electron/main/services/prompts/prompts-service';
import { SettingsService } from '../../electron/main/services/settings/settings';
import { ChatSource } from '../../electron/main/services/sync/sources/chat-source';
import {
  PricesSource,
  SettingsSource,
} from '../../electron/main/services/sync/sources/file-sources';
import { PromptSource } from '../../electron/main/services/sync/sources/prompt-source';
import type { SyncKeys } from '../../electron/main/services/sync/sync-crypto';
import { SyncEngine, type SyncEngineOptions } from '../../electron/main/services/sync/sync-engine';
import type { SyncTarget } from '../../electron/main/services/sync/targets/target';

export interface SyncDevice {
  dir: string;
  db: Db;
  chat: ChatStore;
  attachments: AttachmentStore;
  prompts: PromptsService;
  settings: SettingsService;
  prices: PriceBook;
  engine: SyncEngine;
  /** Moves this computer's wall clock (ms), as a wrong clock would be. */
  skewMs: number;
  close(): Promise<void>;
  /** Closes and removes its folder. */
  destroy(): Promise<void>;
}

export interface SyncDeviceOptions {
  target: SyncTarget;
  keys: SyncKeys;
  /** An existing folder to open again (a restart). */
  dir?: string;
  label?: string;
  skewMs?: number;
  /** The real time the device's clock follows; defaults to Date.now. */
  now?: () => number;
  compaction?: SyncEngineOptions['compaction'];
}

export async function openSyncDevice(options: SyncDeviceOptions): Promise<SyncDevice> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'relay-sync-device-')));
  const device = { skewMs: options.skewMs ?? 0 } as SyncDevice;
  const wall = () => new Date((options.now ?? Date.now)() + device.skewMs);
  const db = await openDatabase({ path: databasePath(dir) });
  const chat = await ChatStore.open(db, wall, { trashDays: 30 });
  const attachments = new AttachmentStore(db);
  const prompts = await PromptsService.open({ db, now: wall });
  const settings = new SettingsService(dir);
  const prices = new PriceBook(dir);
  const engine = await SyncEngine.open({
    db,
    target: options.target,
    keys: options.keys,
    sources: [
      new ChatSource(chat, attachments),
      new PromptSource(db, prompts),
      new SettingsSource(settings),
      new PricesSource(prices),
    ],
    deviceLabel: options.label ?? 'test device',
    now: wall,
    sleep: async () => undefined,
    ...(options.compaction ? { compaction: options.compaction } : {}),
  });
  Object.assign(device, {
    dir,
    db,
    chat,
    attachments,
    prompts,
    settings,
    prices,
    engine,
    async close() {
      await engine.close();
      db.close();
    },
    async destroy() {
      await device.close();
      await rm(dir, { recursive: true, force: true });
    },
  });
  return device;
}

/** What a person sees of the chats: every conversation not in the trash, with its messages, ordered. */
export function visibleState(device: SyncDevice) {
  return device.chat
    .list()
    .map((c) => ({
      id: c.id,
      title: c.title,
      pinned: c.pinned,
      messages: device.chat
        .allMessages(c.id)
        .map((m) => ({ id: m.id, parent: m.parentId, role: m.role, content: m.content }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}
