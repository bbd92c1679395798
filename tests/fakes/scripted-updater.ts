/**
 * A stand-in for electron-updater's autoUpdater behind the `Updater` interface: each check
 * reports the events the test scripted, and the test can send more (progress, downloaded,
 * errors) as electron-updater would.
 */
import type { Updater, UpdaterEvent } from '../../electron/main/services/updates/update-service';

export class ScriptedUpdater implements Updater {
  channel: string | undefined;
  checks = 0;
  installs = 0;
  readonly listeners = new Set<(event: UpdaterEvent) => void>();
  /** The events of the following checks, one list per check; nothing newer when empty. */
  readonly next: UpdaterEvent[][] = [];
  /** The next check fails with this, as electron-updater's would (an 'error' event, a rejection). */
  rejectNext: unknown;

  async checkForUpdates(): Promise<null> {
    this.checks++;
    this.emit({ type: 'checking' });
    if (this.rejectNext !== undefined) {
      const error = this.rejectNext;
      this.rejectNext = undefined;
      this.emit({ type: 'error', error });
      throw error;
    }
    for (const event of this.next.shift() ?? [{ type: 'not-available' }]) this.emit(event);
    return null;
  }

  setChannel(channel: 'latest' | 'beta'): void {
    this.channel = channel;
  }

  quitAndInstall(): void {
    this.installs++;
  }

  subscribe(listener: (event: UpdaterEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: UpdaterEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
