import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = join(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: repoRoot });

/** Lints `code` as if it were the file at `path` (relative to the repo root); returns rule ids. */
async function violations(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: join(repoRoot, path) });
  const ruleIds = (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
  // Fixtures import but never use: only the import rules matter here.
  return ruleIds.filter((id) => id !== '@typescript-eslint/no-unused-vars');
}

const RESTRICTED_IMPORT = '@typescript-eslint/no-restricted-imports';
const RESTRICTED_PATH = 'import-x/no-restricted-paths';

describe('import rules of the architecture', () => {
  it('keeps Electron and Node out of the renderer', async () => {
    expect(
      await violations('renderer/src/fixture.ts', "import { ipcRenderer } from 'electron';"),
    ).toEqual([RESTRICTED_IMPORT]);
    expect(
      await violations('renderer/src/fixture.ts', "import { readFile } from 'node:fs/promises';"),
    ).toEqual([RESTRICTED_IMPORT]);
    expect(await violations('renderer/src/fixture.ts', "import path from 'path';")).toEqual([
      RESTRICTED_IMPORT,
    ]);
  });

  it('lets the renderer take only types from electron/shared', async () => {
    expect(
      await violations(
        'renderer/src/fixture.ts',
        "import type { RelayErrorKind } from '../../electron/shared/relay-errors';",
      ),
    ).toEqual([]);
    expect(
      await violations(
        'renderer/src/fixture.ts',
        "import { RELAY_ERROR_KINDS } from '../../electron/shared/relay-errors';",
      ),
    ).toEqual([RESTRICTED_IMPORT]);
    // The shortcut table is plain data shared with the application menu.
    expect(
      await violations(
        'renderer/src/fixture.ts',
        "import { SHORTCUTS } from '../../electron/shared/shortcuts';",
      ),
    ).toEqual([]);
    // The contract's limits, which the page's forms check too.
    expect(
      await violations(
        'renderer/src/fixture.ts',
        "import { SETTINGS_RANGES } from '../../electron/shared/limits';",
      ),
    ).toEqual([]);
    // Only that module: the route the limits are used in stays a type import.
    expect(
      await violations(
        'renderer/src/fixture.ts',
        "import { priceSchema } from '../../electron/shared/ipc/routes/models';",
      ),
    ).toEqual([RESTRICTED_IMPORT]);
  });

  it('keeps the limits the page imports free of zod and of any other import', async () => {
    expect(await violations('electron/shared/limits.ts', "import { z } from 'zod';")).toEqual([
      RESTRICTED_IMPORT,
    ]);
    expect(await violations('electron/shared/limits.ts', "import { bidi } from './bidi';")).toEqual(
      [RESTRICTED_IMPORT],
    );
    expect(await violations('electron/shared/other.ts', "import { z } from 'zod';")).toEqual([]);
  });

  it('keeps the renderer away from main-process code', async () => {
    expect(
      await violations('renderer/src/fixture.ts', "import '../../electron/main/index';"),
    ).toEqual([RESTRICTED_PATH]);
  });

  it('keeps the main process away from preload and renderer code', async () => {
    expect(
      await violations('electron/main/fixture.ts', "import '../../renderer/src/main';"),
    ).toEqual([RESTRICTED_PATH]);
    expect(await violations('electron/main/fixture.ts', "import '../preload/index';")).toEqual([
      RESTRICTED_PATH,
    ]);
  });

  it('lets only platform, windows and index.ts import Electron in main', async () => {
    const code = "import { app } from 'electron';";
    expect(await violations('electron/main/services/fixture.ts', code)).toEqual([
      RESTRICTED_IMPORT,
    ]);
    expect(await violations('electron/main/ipc/fixture.ts', code)).toEqual([RESTRICTED_IMPORT]);
    expect(await violations('electron/demo-relay/fixture.ts', code)).toEqual([RESTRICTED_IMPORT]);
    expect(await violations('electron/main/platform/fixture.ts', code)).toEqual([]);
    expect(await violations('electron/main/windows/fixture.ts', code)).toEqual([]);
    expect(await violations('electron/main/index.ts', code)).toEqual([]);
  });

  it('keeps electron/shared free of the app, Electron and Node', async () => {
    expect(
      await violations('electron/shared/fixture.ts', "import { app } from 'electron';"),
    ).toEqual([RESTRICTED_IMPORT]);
    expect(
      await violations('electron/shared/fixture.ts', "import { join } from 'node:path';"),
    ).toEqual([RESTRICTED_IMPORT]);
    expect(await violations('electron/shared/fixture.ts', "import '../main/index';")).toEqual([
      RESTRICTED_PATH,
    ]);
    expect(await violations('electron/shared/fixture.ts', "import { z } from 'zod';")).toEqual([]);
  });

  it('lets the preload import only Electron and electron/shared', async () => {
    expect(
      await violations('electron/preload/fixture.ts', "import { contextBridge } from 'electron';"),
    ).toEqual([]);
    expect(
      await violations('electron/preload/fixture.ts', "import '../shared/relay-errors';"),
    ).toEqual([]);
    expect(await violations('electron/preload/fixture.ts', "import '../main/index';")).toEqual([
      RESTRICTED_PATH,
    ]);
    expect(await violations('electron/preload/fixture.ts', "import { z } from 'zod';")).toEqual([
      RESTRICTED_IMPORT,
    ]);
    expect(await violations('electron/preload/fixture.ts', "import fs from 'node:fs';")).toEqual([
      RESTRICTED_IMPORT,
    ]);
  });

  it('keeps the bridge out of the page under test: it comes from the built preload only', async () => {
    const code = "import { createBridge } from '../../electron/shared/ipc/bridge';";
    expect(await violations('tests/e2e/fixture.e2e.test.ts', code)).toEqual([RESTRICTED_IMPORT]);
    expect(await violations('tests/e2e/harness/fixture.ts', code)).toEqual([RESTRICTED_IMPORT]);
    expect(await violations('tests/bench/fixture.ts', code)).toEqual([RESTRICTED_IMPORT]);
    // Its types name what the preload exposes; tests that drive main from Node may build it.
    expect(
      await violations(
        'tests/e2e/fixture.e2e.test.ts',
        "import type { Bridge } from '../../electron/shared/ipc/bridge';",
      ),
    ).toEqual([]);
    expect(await violations('tests/integration/fixture.test.ts', code)).toEqual([]);
  });

  it("keeps the bridge out of the page's components: they call their feature's actions", async () => {
    const component = 'renderer/src/features/chat/fixture.tsx';
    const bridge = "'../../lib/relay-bridge'";
    expect(await violations(component, `import { requireBridge } from ${bridge};`)).toEqual([
      RESTRICTED_IMPORT,
    ]);
    expect(
      await violations(component, `import { relayBridge, type Answer } from ${bridge};`),
    ).toEqual([RESTRICTED_IMPORT]);
    expect(await violations(component, `import * as relay from ${bridge};`)).toEqual([
      RESTRICTED_IMPORT,
    ]);
    expect(
      await violations(component, "import { unwrapBridge } from '../../lib/bridge-error';"),
    ).toEqual([RESTRICTED_IMPORT]);
    expect(await violations(component, 'export const exposed = window.relay;')).toEqual([
      'no-restricted-properties',
    ]);
    expect(await violations(component, 'export const { relay } = window;')).toEqual([
      'no-restricted-properties',
    ]);
    // The bridge's types may be named, and the renderer's other rules still hold in a component.
    expect(await violations(component, `import type { Answer } from ${bridge};`)).toEqual([]);
    expect(await violations(component, "import { ipcRenderer } from 'electron';")).toEqual([
      RESTRICTED_IMPORT,
    ]);
    // The actions modules (and lib) are where the bridge is called.
    expect(
      await violations(
        'renderer/src/features/chat/fixture-actions.ts',
        `import { requireBridge } from ${bridge};`,
      ),
    ).toEqual([]);
  });

  it('keeps tests out of the source', async () => {
    const code = "import '../../../tests/unit/windows/main-window.test';";
    expect(await violations('electron/main/services/fixture.ts', code)).toEqual([RESTRICTED_PATH]);
  });
});
