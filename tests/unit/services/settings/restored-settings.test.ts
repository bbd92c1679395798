/**
 * What a restored settings file may not change on its own: a proxy of its own needs the person's
 * yes, keys never go in a file because a backup says so, and the key file goes where the restored
 * settings keep keys off disk.
 */
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProxySettings } from '../../../../electron/shared/ipc/routes/network';
import type { Settings } from '../../../../electron/shared/ipc/routes/settings';
import type { ConfirmOptions, Dialogs } from '../../../../electron/main/app-context';
import {
  MemorySecretStore,
  PLAINTEXT_KEYS_FILE,
} from '../../../../electron/main/services/secret-store';
import { keepRestoredSettingsSafe } from '../../../../electron/main/services/settings/restored-settings';
import {
  DEFAULT_SETTINGS,
  SettingsService,
} from '../../../../electron/main/services/settings/settings';

let dir: string;
let questions: ConfirmOptions[];

const PROXY: ProxySettings = {
  mode: 'manual',
  scheme: 'http',
  host: 'proxy.example.com',
  port: 8080,
  bypass: [],
};

function dialogs(answer: boolean): Dialogs {
  return {
    chooseSavePath: async () => undefined,
    chooseOpenPaths: async () => [],
    confirm: async (question) => (questions.push(question), answer),
  };
}

/** Writes the restored settings, puts them right against `before`, and reads them back. */
async function restore(
  restored: Partial<Settings>,
  before: Partial<Settings>,
  given?: Dialogs,
): Promise<Settings> {
  await new SettingsService(dir).update(restored);
  await keepRestoredSettingsSafe(
    { userDataDir: dir, secretStore: new MemorySecretStore(), dialogs: given },
    { ...DEFAULT_SETTINGS, ...before },
  );
  return new SettingsService(dir).get();
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-restored-'));
  questions = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a restored proxy of its own', () => {
  it('is kept only once the person said yes, asked as a restore', async () => {
    expect((await restore({ proxy: PROXY }, {}, dialogs(true))).proxy).toEqual(PROXY);
    expect(questions[0]?.message).toMatch(/^The backup being restored/);
  });

  it('gives way to the proxy before when declined, or with no one to ask', async () => {
    expect(
      (await restore({ proxy: PROXY }, { proxy: { mode: 'none' } }, dialogs(false))).proxy,
    ).toEqual({ mode: 'none' });
    expect((await restore({ proxy: PROXY }, { proxy: { mode: 'system' } })).proxy).toEqual({
      mode: 'system',
    });
  });

  it('is not asked about when it is the one in use', async () => {
    expect((await restore({ proxy: PROXY }, { proxy: PROXY }, dialogs(false))).proxy).toEqual(
      PROXY,
    );
    expect(questions).toEqual([]);
  });
});

describe('keys in a file after a restore', () => {
  it('are never turned on by the backup', async () => {
    const restored = await restore({ allowPlaintextKeys: true }, { allowPlaintextKeys: false });
    expect(restored.allowPlaintextKeys).toBe(false);
  });

  it('stay on when both had them on; the key file goes when the restored settings keep keys off disk', async () => {
    const keyFile = join(dir, PLAINTEXT_KEYS_FILE);
    await writeFile(keyFile, '{}');
    await restore({ allowPlaintextKeys: true }, { allowPlaintextKeys: true });
    expect(await exists(keyFile)).toBe(true);
    await restore({ allowPlaintextKeys: false }, { allowPlaintextKeys: true });
    expect(await exists(keyFile)).toBe(false);
  });
});
