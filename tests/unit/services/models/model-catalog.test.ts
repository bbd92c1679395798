/**
 * The model catalog's answers to the page: with no connection set up it says to connect first;
 * price list files go through the file dialogs it was given.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dialogs } from '../../../../electron/main/app-context';
import { ModelCatalog } from '../../../../electron/main/services/models/model-catalog';

let dir: string;
const titles: string[] = [];
const dialogs: Dialogs = {
  chooseSavePath: async ({ title }) => (titles.push(title), undefined),
  chooseOpenPaths: async ({ title }) => (titles.push(title), []),
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-models-'));
  titles.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the model catalog', () => {
  it('says to connect first when no connection is set up', async () => {
    const catalog = new ModelCatalog({ dataDir: dir, active: async () => undefined, dialogs });
    await expect(catalog.list()).resolves.toBeUndefined();
    await expect(catalog.listing({ refresh: true })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'Connect to a relay first: no connection is set up yet.',
    });
  });

  it('imports and exports prices through its file dialogs', async () => {
    const catalog = new ModelCatalog({ dataDir: dir, active: async () => undefined, dialogs });
    await expect(catalog.importPrices()).resolves.toMatchObject({ cancelled: true, imported: 0 });
    await expect(catalog.exportPrices()).resolves.toEqual({ saved: false });
    expect(titles).toEqual(['Import a price list', 'Export the price list']);
  });
});
