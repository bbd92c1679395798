/**
 * The connections file on its own, in a temp folder: what it keeps, a damaged file set aside,
 * an unreadable one never replaced, and changes one at a time.
 */
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../../electron/main/services/app-error';
import {
  CONNECTIONS_FILE,
  ConnectionsStore,
  findConnection,
  type ConnectionsFile,
} from '../../../../electron/main/services/connections/store';

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'relay-connection-store-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const ONE: ConnectionsFile = {
  version: 1,
  activeId: 'a',
  connections: [{ id: 'a', name: 'A', baseUrl: 'https://a.example.com' }],
};

describe('the connections file', () => {
  it('reads as an empty list when there is no file, with no problem to tell', async () => {
    const store = new ConnectionsStore(dir);
    expect(await store.read()).toEqual({ version: 1, connections: [] });
    expect(await store.problem()).toBeUndefined();
  });

  it('keeps what was written for the next store on the same folder', async () => {
    await new ConnectionsStore(dir).write(ONE);
    expect(await new ConnectionsStore(dir).read()).toEqual(ONE);
    expect(JSON.parse(await fs.readFile(join(dir, CONNECTIONS_FILE), 'utf8'))).toEqual(ONE);
  });

  it('sets a damaged file aside, starts empty, and saves over it', async () => {
    await fs.writeFile(join(dir, CONNECTIONS_FILE), '{"version": 1, "connections": [{"id": ');
    const at = new Date('2026-05-04T03:02:01.000Z');
    const store = new ConnectionsStore(dir, () => at);
    expect(await store.read()).toEqual({ version: 1, connections: [] });
    expect((await store.problem())?.kind).toBe('corrupt');
    const aside = `${CONNECTIONS_FILE}.corrupt-2026-05-04T03-02-01-000Z`;
    expect(await fs.readFile(join(dir, aside), 'utf8')).toContain('"connections"');
    await store.write(ONE);
    expect(await new ConnectionsStore(dir).read()).toEqual(ONE);
  });

  it('treats a file of the wrong shape as damaged', async () => {
    await fs.writeFile(
      join(dir, CONNECTIONS_FILE),
      JSON.stringify({ version: 2, connections: [{ id: '', name: 1 }] }),
    );
    const store = new ConnectionsStore(dir);
    expect((await store.read()).connections).toEqual([]);
    expect((await store.problem())?.kind).toBe('corrupt');
  });

  it('never replaces a file it could not read', async () => {
    await fs.mkdir(join(dir, CONNECTIONS_FILE));
    const store = new ConnectionsStore(dir);
    expect(await store.problem()).toMatchObject({ kind: 'unreadable', code: 'EISDIR' });
    await expect(store.write(ONE)).rejects.toMatchObject({ kind: 'internal' });
    expect((await fs.stat(join(dir, CONNECTIONS_FILE))).isDirectory()).toBe(true);
  });

  it('runs changes one at a time, each on the list the one before saved', async () => {
    const store = new ConnectionsStore(dir);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.mutate(async (file) => {
          await store.write({
            ...file,
            connections: [...file.connections, { id: `c${i}`, name: `C${i}`, baseUrl: 'x' }],
          });
        }),
      ),
    );
    expect((await store.read()).connections.map((c) => c.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c${i}`),
    );
  });

  it('lets a failed change leave the next one to run', async () => {
    const store = new ConnectionsStore(dir);
    await expect(store.mutate(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await store.mutate((file) => store.write({ ...file, activeId: 'after' }));
    expect((await store.read()).activeId).toBe('after');
  });

  it('finds a saved connection by id, and says when it is gone', () => {
    expect(findConnection(ONE, 'a').name).toBe('A');
    expect(() => findConnection(ONE, 'b')).toThrow(AppError);
    try {
      findConnection(ONE, 'b');
    } catch (error) {
      expect((error as AppError).kind).toBe('not_found');
    }
  });
});
