/**
 * "Test connection" before sync storage is saved: it lists, writes a probe object, reads it back
 * byte for byte and deletes it, and says which step failed and why, with the fix. Reading back
 * catches a server that answers "created" but stores nothing (0-byte uploads reported as success
 * are a known failure of WebDAV backups in other apps).
 */
import { randomBytes } from 'node:crypto';
import { said, type Said } from '../../words';
import { TargetError, type SyncTarget, type TargetProblem } from './target';

export type ProbeStep = 'list' | 'write' | 'read' | 'delete';

export type ConnectionTest =
  { ok: true } | { ok: false; step: ProbeStep; problem: TargetProblem | 'damaged'; said: Said };

export async function testConnection(target: SyncTarget): Promise<ConnectionTest> {
  const name = `p/${randomBytes(16).toString('hex')}`;
  const probe = randomBytes(1024);
  let step: ProbeStep = 'list';
  const fail = (error: unknown): ConnectionTest => {
    const problem = error instanceof TargetError ? error.problem : 'unexpected';
    const reason =
      error instanceof TargetError
        ? error.said
        : said('sync.target.unexpected', {
            host: target.description,
            detail: error instanceof Error ? error.message : String(error),
          });
    return { ok: false, step, problem, said: said(`sync.test.${step}`, { reason }) };
  };
  try {
    await target.list('p/');
    step = 'write';
    await target.putIfAbsent(name, probe);
    step = 'read';
    const back = await target.get(name);
    if (back === undefined || !Buffer.from(back).equals(probe)) {
      await target.delete(name).catch(() => undefined);
      return {
        ok: false,
        step,
        problem: 'damaged',
        said: said('sync.test.read', {
          reason: said('sync.test.readBackDiffers', {
            stored: back?.byteLength ?? 0,
            sent: probe.byteLength,
          }),
        }),
      };
    }
    step = 'delete';
    await target.delete(name);
    return { ok: true };
  } catch (error) {
    if (step !== 'list' && step !== 'delete') await target.delete(name).catch(() => undefined);
    return fail(error);
  }
}
