/**
 * Real storage servers for the sync tests, started by the tests on this machine's loopback:
 * WebDAV by `rclone serve webdav` (Debian's rclone; `npm run test:setup` installs it) and S3 by
 * `s3rver` (an S3-compatible server in Node, from npm).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface RunningWebdav {
  /** The server's address (its root is `dir`). */
  url: string;
  dir: string;
  username: string;
  password: string;
  /** A new empty folder on the server, as a URL. */
  folder(): Promise<string>;
  stop(): Promise<void>;
}

export async function startWebdav(): Promise<RunningWebdav> {
  const dir = await mkdtemp(join(tmpdir(), 'relay-webdav-'));
  const username = 'relay';
  const password = 'webdav-test-password';
  const child: ChildProcess = spawn(
    'rclone',
    ['serve', 'webdav', dir, '--addr', '127.0.0.1:0', '--user', username, '--pass', password],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const look = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /started on \[?(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error('rclone is not installed: `npm run test:setup` installs it (Debian: rclone).')
          : error,
      ),
    );
    child.on('exit', (code) => reject(new Error(`rclone exited (${code}): ${out}`)));
  }).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  let count = 0;
  return {
    url,
    dir,
    username,
    password,
    async folder() {
      count += 1;
      const name = `sync-${count}`;
      // Through the server (MKCOL): rclone caches the folder's listing, so a folder made on
      // disk behind its back would not be seen for minutes.
      const response = await fetch(`${url}${name}`, {
        method: 'MKCOL',
        headers: {
          authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
        },
      });
      if (response.status !== 201) throw new Error(`MKCOL answered ${response.status}`);
      return `${url}${name}`;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RunningS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A new empty prefix in the bucket. */
  prefix(): string;
  stop(): Promise<void>;
}

export async function startS3(): Promise<RunningS3> {
  const dir = await mkdtemp(join(tmpdir(), 'relay-s3-'));
  const bucket = 'relay-sync';
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  let count = 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's built-in account.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix() {
      count += 1;
      return `sync-${count}`;
    },
    async stop() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
