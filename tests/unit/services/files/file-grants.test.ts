/**
 * Grants for dropped files: random, bound to a window and a use, taken once, and forgotten after
 * a minute; a path that is not absolute is never granted.
 */
import { describe, expect, it } from 'vitest';
import {
  FileGrants,
  GRANT_LIFETIME_MS,
} from '../../../../electron/main/services/files/file-grants';
import { grantIdSchema } from '../../../../electron/shared/ipc/file-grants';

const main = { webContentsId: 1, purpose: 'attach' as const };

describe('file grants', () => {
  it('gives one random grant per path, which answers that path once', () => {
    const grants = new FileGrants();
    const ids = grants.issue(['/home/ana/a.txt', '/home/ana/b.txt'], main);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(grantIdSchema.safeParse(id).success).toBe(true);
    expect(new Set(ids).size).toBe(2);
    expect(grants.take([ids[1]!, ids[0]!], main)).toEqual(['/home/ana/b.txt', '/home/ana/a.txt']);
    expect(() => grants.take([ids[0]!], main)).toThrow(/drop them again/);
  });

  it('refuses a grant of another window or use, and then still answers it where it belongs', () => {
    const grants = new FileGrants();
    const [id] = grants.issue(['/home/ana/a.txt'], main);
    expect(() => grants.take([id!], { ...main, webContentsId: 2 })).toThrow();
    expect(() => grants.take([id!], { ...main, purpose: 'knowledge' })).toThrow();
    // A call with one bad grant uses none of them.
    expect(() => grants.take([id!, 'x'.repeat(32)], main)).toThrow();
    expect(grants.take([id!], main)).toEqual(['/home/ana/a.txt']);
  });

  it('forgets a grant after its minute', () => {
    let now = 1_000;
    const grants = new FileGrants({ now: () => now });
    const [id] = grants.issue(['/home/ana/a.txt'], main);
    now += GRANT_LIFETIME_MS;
    expect(() => grants.take([id!], main)).toThrow();
  });

  it('never grants a path that is not absolute', () => {
    expect(() => new FileGrants().issue(['notes.txt'], main)).toThrow(/not on this computer/);
  });
});
