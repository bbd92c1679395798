/**
 * Running a local server is the person's choice, made in main's own dialog: the page can describe
 * any command (a script injected into it too), so a command line runs only once the person has
 * seen it and chosen Run. The yes is kept as a fingerprint of the command line (the command found,
 * its arguments, its environment's names and values); any change of them asks again.
 */
import { createHmac } from 'node:crypto';
import type { ConfirmOptions } from '../../app-context';
import { nativeText } from '../words';

/** Characters that could hide or reorder what the dialog shows: controls and bidi marks. */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

/**
 * One word of a command line as the dialog shows it: as it is when plain, else in double quotes
 * with its quotes and backslashes escaped and any hidden character written as its code.
 */
export function shownWord(word: string): string {
  if (word !== '' && !/[\s"'\\]/u.test(word) && !new RegExp(HIDDEN.source, 'u').test(word))
    return word;
  const escaped = word
    .replace(/["\\]/gu, (ch) => `\\${ch}`)
    .replace(HIDDEN, (ch) => `\\u{${ch.codePointAt(0)!.toString(16).padStart(4, '0')}}`);
  return `"${escaped}"`;
}

/** The command line as the dialog shows it. */
export function shownCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shownWord).join(' ');
}

/** What the person agrees to when a local server's command runs: its name and command line. */
export function launchQuestion(launch: {
  name: string;
  command: string;
  args: readonly string[];
  /** The names of the environment variables it sets (never their values). */
  envNames: readonly string[];
}): ConfirmOptions {
  const name = launch.name.replace(HIDDEN, '');
  return {
    title: nativeText('dialog.mcpLaunch.title'),
    message: nativeText('dialog.mcpLaunch.message', { name }),
    detail: nativeText('dialog.mcpLaunch.detail', {
      command: shownCommandLine(launch.command, launch.args),
      environment:
        launch.envNames.length === 0
          ? nativeText('dialog.mcpLaunch.noEnvironment')
          : nativeText('dialog.mcpLaunch.environment', {
              names: launch.envNames.map(shownWord).join(', '),
            }),
    }),
    confirmLabel: nativeText('dialog.mcpLaunch.confirm'),
  };
}

/**
 * The fingerprint of a command line the person allowed: an HMAC under a key of this install
 * (kept in the key store), so the file holds no hash of a secret value anyone could test guesses
 * against, and a fingerprint written into the file elsewhere (a tampered backup) matches nothing.
 */
export function launchFingerprint(
  key: Buffer,
  launch: { command: string; args: readonly string[]; env: ReadonlyArray<[string, string]> },
): string {
  return createHmac('sha256', key)
    .update(JSON.stringify([launch.command, launch.args, launch.env]))
    .digest('base64url');
}
