/**
 * The demo relay in a process of its own, for the benchmarks that measure the app's side of many
 * requests: a relay is another machine, so its CPU time (making vectors, writing JSON) must not
 * be taken from the process under measurement.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

export interface RelayProcess {
  url: string;
  /** The relay process's CPU time so far (user + system), in milliseconds. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

export async function startRelayProcess(options: {
  key: string;
  /** Delay before each answer (the relay's `--latency`). */
  latencyMs?: number;
}): Promise<RelayProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'electron/demo-relay/cli.ts'),
      '--port',
      '0',
      '--key',
      options.key,
      '--rate',
      '1000000',
      '--balance',
      '100000000',
      '--latency',
      String(options.latencyMs ?? 0),
      '--quiet',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`The demo relay exited (${code}): ${out}`)));
    child.stdout!.on('data', (data: Buffer) => {
      out += data.toString();
      const found = /listening on (\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
  });
  return {
    url,
    // utime + stime, in clock ticks of 10 ms (Linux).
    async cpuMs() {
      const stat = await readFile(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    },
  };
}
