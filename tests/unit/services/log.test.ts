import { EventEmitter } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import electronLog from 'electron-log/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAppLog,
  logProcessErrors,
  type ProcessEvents,
} from '../../../electron/main/services/log';

let dir: string;
let loggers = 0;
/** A fresh electron-log logger (the Node entry: the same core and file transport as the app's). */
const newLogger = () => electronLog.create({ logId: `log-test-${process.pid}-${++loggers}` });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'relay-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the support log file', () => {
  it('is logs/main.log, one line per event with an ISO time and the level', async () => {
    const log = createAppLog(newLogger(), { folder: join(dir, 'logs') });
    log.info('app.start', { version: '1.2.3', platform: 'linux' });
    const text = await readFile(join(dir, 'logs', 'main.log'), 'utf8');
    expect(text).toMatch(
      /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] \[info\] app\.start version=1\.2\.3 platform=linux\n$/,
    );
    // Readable by this user only: with prompts allowed, it holds what they wrote.
    if (process.platform !== 'win32') {
      expect((await stat(join(dir, 'logs', 'main.log'))).mode & 0o777).toBe(0o600);
    }
  });

  it('rotates past the size cap and keeps 3 files, none much larger than the cap', async () => {
    const maxBytes = 16 * 1024;
    const log = createAppLog(newLogger(), { folder: dir, maxBytes, files: 3 });
    const line = 'x'.repeat(200);
    // About 10 files' worth: the oldest must go.
    for (let i = 0; i < 800; i++) log.info('filler', { i, line });
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['main.1.log', 'main.2.log', 'main.log']);
    for (const name of files) {
      const { size } = await stat(join(dir, name));
      // A file is rotated once it passes the cap: at most one line over it.
      expect(size, name).toBeLessThanOrEqual(maxBytes + 400);
    }
    // Rotated files are full: within a line of the cap (electron-log counts the first line
    // written after a rotation twice, so it may rotate one line early).
    for (const name of ['main.1.log', 'main.2.log']) {
      expect((await stat(join(dir, name))).size, name).toBeGreaterThan(maxBytes - 400);
    }
    // The newest lines are in main.log, the ones before in main.1.log.
    const current = await readFile(join(dir, 'main.log'), 'utf8');
    const previous = await readFile(join(dir, 'main.1.log'), 'utf8');
    expect(current).toContain('filler i=799 ');
    const firstCurrent = Number(/i=(\d+)/.exec(current)?.[1]);
    const lastPrevious = Number([...previous.matchAll(/i=(\d+)/g)].at(-1)?.[1]);
    expect(lastPrevious).toBe(firstCurrent - 1);
  });

  it('never writes a key it was told about, whoever logs it, and content only when allowed', async () => {
    const logger = newLogger();
    const log = createAppLog(logger, { folder: dir });
    log.addKey('canary-key-55aa77bb');
    log.info('with.content', { model: 'm' }, { prompt: 'PROMPT-CANARY' });
    log.error('boom', new Error('failed for canary-key-55aa77bb'));
    // Straight through electron-log too: the hook still applies.
    logger.warn('raw', { auth: 'Bearer canary-key-55aa77bb' });
    log.setIncludePrompts(true);
    log.info('with.content', { model: 'm' }, { prompt: 'ALLOWED-CANARY' });
    const text = await readFile(join(dir, 'main.log'), 'utf8');
    expect(text).not.toContain('canary-key-55aa77bb');
    expect(text).not.toContain('PROMPT-CANARY');
    expect(text).toContain('prompt=ALLOWED-CANARY');
    expect(text).toContain('boom: Error: failed for [redacted]');
  });

  it('logs uncaught exceptions and unhandled rejections of the main process, until stopped', async () => {
    const log = createAppLog(newLogger(), { folder: dir });
    const events = new EventEmitter();
    const stop = logProcessErrors(log, events as unknown as ProcessEvents);
    events.emit('uncaughtExceptionMonitor', new TypeError('bad thing'), 'uncaughtException');
    events.emit('unhandledRejection', new Error('lost promise'));
    stop();
    events.emit('unhandledRejection', new Error('after stop'));
    const text = await readFile(join(dir, 'main.log'), 'utf8');
    expect(text).toContain(
      '[error] main.uncaught-exception origin=uncaughtException: TypeError: bad thing',
    );
    expect(text).toContain('[error] main.unhandled-rejection: Error: lost promise');
    expect(text).not.toContain('after stop');
    expect(events.listenerCount('unhandledRejection')).toBe(0);
  });
});
