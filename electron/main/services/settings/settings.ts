/**
 * The person's settings: theme, default chat parameters, request timeouts, quick ask, the
 * desktop (tray, login), updates and the proxy, kept in `settings.json` in the user data folder.
 * A file written by an earlier version lacks the later groups: each is read as its defaults.
 */
import { join } from 'node:path';
import { DEFAULT_DESKTOP_SETTINGS } from '../../../shared/ipc/routes/desktop';
import { DEFAULT_PROXY_SETTINGS } from '../../../shared/ipc/routes/network';
import { DEFAULT_QUICK_ASK_SETTINGS } from '../../../shared/ipc/routes/quick-ask';
import {
  DEFAULT_ATTACHMENT_SETTINGS,
  DEFAULT_TOOL_SETTINGS,
  settingsSchema,
  type Settings,
} from '../../../shared/ipc/routes/settings';
import { DEFAULT_UPDATE_SETTINGS } from '../../../shared/ipc/routes/updates';
import { readJsonFile, writeFileAtomic, type DataFileProblem } from '../data-files';
import { setFields, type Changes } from '../changes';
import { Listeners } from '../listeners';

export const SETTINGS_FILE = 'settings.json';

export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  chatDefaults: { temperature: 1, maxTokens: null },
  timeouts: { requestSeconds: 120, idleSeconds: 60 },
  allowPlaintextKeys: false,
  includePromptsInLogs: false,
  quickAsk: DEFAULT_QUICK_ASK_SETTINGS,
  desktop: DEFAULT_DESKTOP_SETTINGS,
  updates: DEFAULT_UPDATE_SETTINGS,
  proxy: DEFAULT_PROXY_SETTINGS,
  attachments: DEFAULT_ATTACHMENT_SETTINGS,
  tools: DEFAULT_TOOL_SETTINGS,
  language: 'system',
};

export class SettingsService {
  readonly #path: string;
  #current: Promise<Settings> | undefined;
  #problem: DataFileProblem | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #listeners = new Listeners<Settings>();

  constructor(dataDir: string) {
    this.#path = join(dataDir, SETTINGS_FILE);
  }

  /** Why the saved settings could not be used, if they could not (they were kept aside). */
  get problem(): DataFileProblem | undefined {
    return this.#problem;
  }

  get(): Promise<Settings> {
    this.#current ??= readJsonFile(this.#path, settingsSchema, 'settings').then((read) => {
      if (read.status === 'ok') return read.value;
      if (read.status === 'corrupt' || read.status === 'unreadable') this.#problem = read.problem;
      return DEFAULT_SETTINGS;
    });
    return this.#current;
  }

  /** Calls `listener` with the settings after each saved change; returns a function that stops it. */
  onChange(listener: (settings: Settings) => void): () => void {
    return this.#listeners.add(listener);
  }

  /** Applies a partial change (already checked against the contract) and saves it. */
  update(changes: Changes<Settings>): Promise<Settings> {
    const run = this.#queue.then(async () => {
      const next = settingsSchema.parse({ ...(await this.get()), ...setFields(changes) });
      // An unreadable file is left as it is: the person's settings may still be in it.
      if (this.#problem?.kind === 'unreadable') return next;
      await writeFileAtomic(this.#path, `${JSON.stringify(next, null, 2)}\n`);
      this.#current = Promise.resolve(next);
      this.#listeners.tell(next);
      return next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
