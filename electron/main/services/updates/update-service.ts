/**
 * The app's own updates: when to check, what the page is told, and what a failure means.
 *
 * The work is electron-updater's (`platform/updater.ts` adapts its `autoUpdater` to `Updater`):
 * it reads the feed electron-builder published (`latest.yml`, `latest-mac.yml`,
 * `latest-linux.yml`, or `beta…` on the beta channel), downloads the new version in the
 * background, and verifies it before it says "downloaded" (the SHA-512 the feed gives on every
 * system, and on Windows the installer's Authenticode publisher; see the README). This service
 * checks on start and every few hours, keeps one status for the page, and turns electron-updater's
 * errors into sentences. Tests drive it with a scripted `Updater`.
 */
import type { UpdateSettings, UpdateStatus } from '../../../shared/ipc/routes/updates';
import { AppError } from '../app-error';
import { setFields, type Changes } from '../changes';
import type { LogFields } from '../log-policy';
import type { MessageFields } from '../../../shared/messages/keys';
import { messageFields, messageFieldsAs, said, type Said } from '../words';

/** A release as the feed describes it. */
export interface UpdateRelease {
  version: string;
  /** Release notes: text, HTML (GitHub) or a list of notes per version. */
  releaseNotes?: string | readonly { version: string; note: string | null }[] | null;
  releaseDate?: string;
}

export interface UpdateProgress {
  percent: number;
  transferred: number;
  total: number;
  bytesPerSecond: number;
}

/** What the updater reports, in electron-updater's terms. */
export type UpdaterEvent =
  | { type: 'checking' }
  | { type: 'available'; release: UpdateRelease }
  | { type: 'not-available'; release?: UpdateRelease }
  | { type: 'progress'; progress: UpdateProgress }
  | { type: 'downloaded'; release: UpdateRelease }
  | { type: 'error'; error: unknown };

/** electron-updater's `autoUpdater`, as this service uses it. */
export interface Updater {
  /** Checks the feed; with auto-download on, a newer version starts downloading. */
  checkForUpdates(): Promise<unknown>;
  /** `latest` (stable) or `beta`; a beta channel also takes newer stable releases. */
  setChannel(channel: 'latest' | 'beta'): void;
  quitAndInstall(): void;
  /** Every event; returns a function that stops listening. */
  subscribe(listener: (event: UpdaterEvent) => void): () => void;
}

export interface UpdateServiceOptions {
  currentVersion: string;
  /** Absent where this build cannot update itself; `unsupportedReason` says why. */
  updater?: Updater | undefined;
  unsupportedReason?: Said;
  settings: () => Promise<UpdateSettings>;
  /** Saves the update settings (the settings service); needed by `change` only. */
  saveSettings?: (settings: UpdateSettings) => Promise<UpdateSettings>;
  /** Tells the page (the `updateStatus` event). */
  emit: (status: UpdateStatus) => void;
  /** Default: 10 s after start, then every 4 hours. */
  firstCheckDelayMs?: number;
  checkIntervalMs?: number;
  now?: () => Date;
  /** Progress events are passed on at most this often. Default 500 ms. */
  progressIntervalMs?: number;
  log?: (event: string, fields: LogFields) => void;
}

export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

const NETWORK_CODES =
  /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|ERR_NETWORK_CHANGED|ERR_CONNECTION_(REFUSED|RESET|CLOSED|TIMED_OUT|FAILED)|ERR_ADDRESS_UNREACHABLE|ERR_PROXY_CONNECTION_FAILED|ERR_TUNNEL_CONNECTION_FAILED|ERR_TIMED_OUT|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH/;

/** What went wrong, in a sentence, from one of electron-updater's errors. */
export function describeUpdateError(error: unknown): {
  failure: Extract<UpdateStatus, { state: 'failed' }>['failure'];
} & MessageFields {
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_CHECKSUM_MISMATCH' || /checksum mismatch/i.test(text)) {
    return { failure: 'checksum', ...messageFields(said('updates.failed.checksum')) };
  }
  if (
    code === 'ERR_UPDATER_INVALID_SIGNATURE' ||
    /not signed by the application owner/i.test(text)
  ) {
    return { failure: 'signature', ...messageFields(said('updates.failed.signature')) };
  }
  if (NETWORK_CODES.test(text) || (typeof code === 'string' && NETWORK_CODES.test(code))) {
    return { failure: 'offline', ...messageFields(said('updates.failed.offline')) };
  }
  if (
    code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND' ||
    code === 'ERR_UPDATER_INVALID_UPDATE_INFO' ||
    code === 'ERR_UPDATER_LATEST_VERSION_NOT_FOUND' ||
    code === 'ERR_UPDATER_NO_FILES_PROVIDED' ||
    code === 'ERR_UPDATER_INVALID_RELEASE_FEED' ||
    /HttpError: 404/.test(text)
  ) {
    return { failure: 'feed', ...messageFields(said('updates.failed.feed')) };
  }
  const line = firstLine(text);
  return {
    failure: 'other',
    ...messageFields(
      line === ''
        ? said('updates.failed.noReason')
        : said('updates.failed.other', { reason: line }),
    ),
  };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Release notes as plain text: GitHub's are HTML, a multi-version list is joined. */
export function releaseNotesText(notes: UpdateRelease['releaseNotes']): string | undefined {
  if (notes === null || notes === undefined) return undefined;
  const text =
    typeof notes === 'string'
      ? notes
      : notes.map((entry) => `${entry.version}\n${entry.note ?? ''}`.trim()).join('\n\n');
  const plain = text
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\s*\/(p|li|h[1-6]|div)\s*>/gi, '\n')
    .replace(/<\s*li[^>]*>/gi, '• ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (plain === '') return undefined;
  return plain.length > 20_000 ? `${plain.slice(0, 20_000)}…` : plain;
}

function releaseOf(release: UpdateRelease) {
  const notes = releaseNotesText(release.releaseNotes);
  return {
    version: release.version,
    ...(notes === undefined ? {} : { notes }),
    ...(release.releaseDate ? { releaseDate: release.releaseDate } : {}),
  };
}

export class UpdateService {
  readonly #options: UpdateServiceOptions;
  readonly #now: () => Date;
  #status: UpdateStatus;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;
  #checking: Promise<UpdateStatus> | undefined;
  #lastProgressAt = 0;
  /** The release being downloaded, for a failure to name. */
  #release: UpdateRelease | undefined;

  constructor(options: UpdateServiceOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    const currentVersion = options.currentVersion;
    this.#status = options.updater
      ? { state: 'idle', currentVersion }
      : {
          state: 'unsupported',
          currentVersion,
          ...messageFieldsAs(
            'reason',
            options.unsupportedReason ?? said('updates.unsupported.any'),
          ),
        };
    this.#unsubscribe = options.updater?.subscribe((event) => this.#onEvent(event));
  }

  get status(): UpdateStatus {
    return this.#status;
  }

  /** Applies the channel, and schedules the first check and the ones after it. */
  async start(): Promise<void> {
    const updater = this.#options.updater;
    if (!updater) return;
    const settings = await this.#options.settings();
    updater.setChannel(settings.channel === 'beta' ? 'beta' : 'latest');
    this.#schedule(this.#options.firstCheckDelayMs ?? 10_000);
  }

  /**
   * The person's change to the update settings: the fields given replace those saved, the rest
   * stay; the channel and the checking follow. Answers with the settings as saved.
   */
  async change(changes: Changes<UpdateSettings>): Promise<UpdateSettings> {
    const save = this.#options.saveSettings;
    if (save === undefined) throw new Error('The update service has no settings to save to.');
    const before = await this.#options.settings();
    const after = await save({ ...before, ...setFields(changes) });
    await this.configure(after, before);
    return after;
  }

  /** A changed channel or a change to checking by itself. */
  async configure(settings: UpdateSettings, previous: UpdateSettings): Promise<void> {
    const updater = this.#options.updater;
    if (!updater) return;
    if (settings.channel !== previous.channel) {
      updater.setChannel(settings.channel === 'beta' ? 'beta' : 'latest');
      if (this.#status.state !== 'ready' && this.#status.state !== 'downloading') {
        void this.check().catch(() => undefined);
      }
    }
    if (settings.autoCheck !== previous.autoCheck) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      if (settings.autoCheck) this.#schedule(this.#options.checkIntervalMs ?? CHECK_INTERVAL_MS);
    }
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      void (async () => {
        const { autoCheck } = await this.#options.settings();
        if (autoCheck && this.#status.state !== 'ready' && this.#status.state !== 'downloading') {
          await this.check().catch(() => undefined);
        }
        this.#schedule(this.#options.checkIntervalMs ?? CHECK_INTERVAL_MS);
      })();
    }, delayMs);
    this.#timer.unref?.();
  }

  /**
   * Checks now. Answers with the status once the check is done: up to date, downloading (the
   * download goes on in the background), or failed. While one check runs, another joins it.
   */
  check(): Promise<UpdateStatus> {
    const updater = this.#options.updater;
    if (!updater) return Promise.resolve(this.#status);
    if (this.#status.state === 'ready' || this.#status.state === 'downloading') {
      return Promise.resolve(this.#status);
    }
    this.#checking ??= (async () => {
      this.#set({ state: 'checking', currentVersion: this.#options.currentVersion });
      try {
        await updater.checkForUpdates();
      } catch (error) {
        // electron-updater also emits 'error'; the status is set once, from whichever came first.
        if (this.#status.state === 'checking') this.#fail(error);
      }
      if (this.#status.state === 'checking') {
        // No event said what became of the check (an updater that answered null): nothing new.
        this.#set({
          state: 'up-to-date',
          currentVersion: this.#options.currentVersion,
          checkedAt: this.#now().toISOString(),
        });
      }
      return this.#status;
    })().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  /** "Restart to update": only once an update has been downloaded and verified. */
  install(): void {
    if (this.#status.state !== 'ready') {
      throw new AppError('invalid_request', said('updates.notDownloaded'));
    }
    this.#options.log?.('updates.install', { version: this.#status.release.version });
    this.#options.updater?.quitAndInstall();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #onEvent(event: UpdaterEvent): void {
    const currentVersion = this.#options.currentVersion;
    switch (event.type) {
      case 'checking':
        if (this.#status.state !== 'downloading' && this.#status.state !== 'ready') {
          this.#set({ state: 'checking', currentVersion });
        }
        return;
      case 'available':
        this.#release = event.release;
        this.#options.log?.('updates.available', { version: event.release.version });
        this.#set({ state: 'downloading', currentVersion, release: releaseOf(event.release) });
        return;
      case 'not-available':
        this.#set({ state: 'up-to-date', currentVersion, checkedAt: this.#now().toISOString() });
        return;
      case 'progress': {
        if (this.#status.state !== 'downloading') return;
        const now = this.#now().getTime();
        const done = event.progress.percent >= 100;
        if (!done && now - this.#lastProgressAt < (this.#options.progressIntervalMs ?? 500)) return;
        this.#lastProgressAt = now;
        const { percent, transferred, total, bytesPerSecond } = event.progress;
        this.#set({
          ...this.#status,
          progress: {
            percent: Math.min(100, Math.max(0, percent)),
            transferred: Math.max(0, transferred),
            total: Math.max(0, total),
            bytesPerSecond: Math.max(0, bytesPerSecond),
          },
        });
        return;
      }
      case 'downloaded':
        this.#options.log?.('updates.downloaded', { version: event.release.version });
        this.#set({ state: 'ready', currentVersion, release: releaseOf(event.release) });
        return;
      case 'error':
        this.#fail(event.error);
        return;
    }
  }

  #fail(error: unknown): void {
    const { failure, message, messageId, values } = describeUpdateError(error);
    this.#options.log?.('updates.failed', { failure, detail: firstLine(String(error)) });
    const release = this.#status.state === 'downloading' ? this.#release : undefined;
    this.#set({
      state: 'failed',
      currentVersion: this.#options.currentVersion,
      failure,
      message,
      messageId,
      ...(values ? { values } : {}),
      ...(release ? { release: releaseOf(release) } : {}),
      at: this.#now().toISOString(),
    });
  }

  #set(status: UpdateStatus): void {
    this.#status = status;
    this.#options.emit(status);
  }
}
