/** Scripted file dialogs: each call takes the next answer queued by the test. */
import type { Dialogs } from '../../electron/main/app-context';

export class ScriptedDialogs implements Dialogs {
  readonly savePaths: Array<string | undefined> = [];
  readonly openPaths: string[][] = [];
  readonly saveRequests: Array<{ title: string; defaultName: string }> = [];

  async chooseSavePath(options: { title: string; defaultName: string }) {
    this.saveRequests.push({ title: options.title, defaultName: options.defaultName });
    return this.savePaths.shift();
  }

  async chooseOpenPaths() {
    return this.openPaths.shift() ?? [];
  }
}
