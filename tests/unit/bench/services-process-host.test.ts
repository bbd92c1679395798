/**
 * The benchmarks' services process host (`tests/bench/services-process/host.ts`) closes cleanly:
 * a page that keeps asking while the app quits, or a process that dies while messages are being
 * sent to it, ends each waiting call with "the process ended" instead of a channel error
 * (ERR_IPC_CHANNEL_CLOSED, EPIPE) that ends the benchmark.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServicesProcess } from '../../bench/services-process/host';

const SENDER = { url: 'http://127.0.0.1/', isMainFrame: true, webContentsId: 1 };
const OPTIONS = {
  userDataDir: '',
  picturesDir: '',
  activeConnectionId: '',
  apiKey: '',
  origin: '',
};

/** A stand-in for `child.ts` speaking the same protocol: answers every call with `null`. */
const ANSWERING = `
process.send({ type: 'ready', at: performance.now() });
process.on('message', (m) => {
  if (m.type === 'invoke')
    process.send({ type: 'answer', id: m.id, result: { ok: true, value: null }, at: performance.now() });
});
process.on('disconnect', () => setTimeout(() => process.exit(0), 20));
`;

/** One that is killed by the system at the third message it receives. */
const DYING = `
process.send({ type: 'ready', at: performance.now() });
let received = 0;
process.on('message', () => {
  if (++received === 3) process.kill(process.pid, 'SIGKILL');
});
`;

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'relay-services-host-'));
  await writeFile(join(folder, 'answering.mjs'), ANSWERING);
  await writeFile(join(folder, 'dying.mjs'), DYING);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function asked(services: ReturnType<typeof startServicesProcess>, channel: string) {
  return new Promise<unknown>((resolve) => services.ask(channel, null, SENDER, resolve));
}

describe('the services process host', () => {
  it('answers calls made while and after it stops as ended, sending nothing', async () => {
    const services = startServicesProcess(join(folder, 'answering.mjs'), OPTIONS);
    await services.ready;
    expect((await services.invoke('first', null, SENDER)).result).toEqual({
      ok: true,
      value: null,
    });

    const stopping = services.stop();
    const during = asked(services, 'during');
    services.send('oneWay', null, SENDER);
    await stopping;
    const after = asked(services, 'after');
    await expect(services.invoke('late', null, SENDER)).rejects.toThrow(/process ended/);

    expect(await during).toBeUndefined();
    expect(await after).toBeUndefined();
  });

  it('ends every waiting call when the process dies while messages are sent', async () => {
    const services = startServicesProcess(join(folder, 'dying.mjs'), OPTIONS);
    await services.ready;
    // Large payloads, so that sends are still queued on the channel when it dies.
    const payload = 'x'.repeat(200_000);
    const answers: Array<Promise<unknown>> = [];
    for (let i = 0; i < 100; i++) {
      answers.push(new Promise((resolve) => services.ask('call', payload, SENDER, resolve)));
      services.send('oneWay', payload, SENDER);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await services.stop();
    expect(await Promise.all(answers)).toEqual(answers.map(() => undefined));
  });
});
