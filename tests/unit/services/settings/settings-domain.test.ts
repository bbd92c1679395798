/**
 * The settings domain as the composition root opens it: the page's changes (keys in a file only
 * with the person's yes in main's dialog), and what follows every saved change.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emit } from '../../../../electron/shared/ipc/contract';
import type { ConfirmOptions, Dialogs } from '../../../../electron/main/app-context';
import { createNullLog } from '../../../../electron/main/services/log';
import { MemorySecretStore } from '../../../../electron/main/services/secret-store';
import { openSettings } from '../../../../electron/main/services/settings';
import { mainLocale, setMainLocale } from '../../../../electron/main/services/words';

let dir: string;
let questions: ConfirmOptions[];
let events: Array<[string, unknown]>;
let includePrompts: boolean[];

function open(confirm?: Dialogs['confirm']) {
  const dialogs: Dialogs = {
    chooseSavePath: async () => undefined,
    chooseOpenPaths: async () => [],
    ...(confirm ? { confirm } : {}),
  };
  return openSettings({
    userDataDir: dir,
    systemLocale: 'de',
    secretStore: new MemorySecretStore(),
    dialogs,
    emit: ((name: string, payload: unknown) => events.push([name, payload])) as Emit,
    log: { ...createNullLog(), setIncludePrompts: (include) => includePrompts.push(include) },
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-settings-'));
  questions = [];
  events = [];
  includePrompts = [];
});
afterEach(async () => {
  setMainLocale('en');
  await rm(dir, { recursive: true, force: true });
});

describe('a change from the page', () => {
  it('keeps keys in a file only once the person said yes, and saves the rest either way', async () => {
    const answers = [false, true];
    const settings = await open(async (question) => (questions.push(question), answers.shift()!));
    const declined = await settings.change({ allowPlaintextKeys: true, theme: 'dark' });
    expect(declined).toMatchObject({ allowPlaintextKeys: false, theme: 'dark' });
    expect(questions).toHaveLength(1);
    expect(questions[0]!.detail).toContain(dir);

    await expect(settings.change({ allowPlaintextKeys: true })).resolves.toMatchObject({
      allowPlaintextKeys: true,
    });
    await expect(settings.service.get()).resolves.toMatchObject({ allowPlaintextKeys: true });
    // Already on: nothing to ask.
    await settings.change({ allowPlaintextKeys: true, theme: 'light' });
    expect(questions).toHaveLength(2);
  });

  it('counts no one to ask as a no', async () => {
    const settings = await open();
    await expect(settings.change({ allowPlaintextKeys: true })).resolves.toMatchObject({
      allowPlaintextKeys: false,
    });
  });
});

describe('what follows the settings', () => {
  it('sets the log and main’s language at the start and after each change, and tells the page', async () => {
    const settings = await open();
    expect(includePrompts).toEqual([false]);
    expect(mainLocale()).toBe('de');
    await settings.service.update({ includePromptsInLogs: true, language: 'fr' });
    expect(includePrompts).toEqual([false, true]);
    expect(mainLocale()).toBe('fr');
    expect(events).toEqual([
      ['settingsChanged', expect.objectContaining({ includePromptsInLogs: true, language: 'fr' })],
    ]);
  });
});
