/** Scripted dialogs: each call takes the next answer queued by the test. */
import type { ConfirmOptions, Dialogs } from '../../electron/main/app-context';

export class ScriptedDialogs implements Dialogs {
  readonly savePaths: Array<string | undefined> = [];
  readonly openPaths: string[][] = [];
  readonly saveRequests: Array<{ title: string; defaultName: string }> = [];
  /** What each open dialog said: its title and its filters' names. */
  readonly openRequests: Array<{ title: string; filters: string[] }> = [];
  /** Answers to questions; a question with no answer queued counts as cancelled. */
  readonly confirmAnswers: boolean[] = [];
  readonly confirmRequests: ConfirmOptions[] = [];
  /** Folders to answer "choose a folder" with; none queued counts as cancelled. */
  readonly folders: Array<string | undefined> = [];

  async confirm(options: ConfirmOptions) {
    this.confirmRequests.push(options);
    return this.confirmAnswers.shift() ?? false;
  }

  async chooseSavePath(options: { title: string; defaultName: string }) {
    this.saveRequests.push({ title: options.title, defaultName: options.defaultName });
    return this.savePaths.shift();
  }

  async chooseOpenPaths(options: { title: string; filters?: Array<{ name: string }> }) {
    this.openRequests.push({
      title: options.title,
      filters: (options.filters ?? []).map((f) => f.name),
    });
    return this.openPaths.shift() ?? [];
  }

  async chooseFolder() {
    return this.folders.shift();
  }
}
