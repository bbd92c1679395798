/**
 * Runs the crash writer (chat-crash-writer.ts) as a process of its own and kills it with SIGKILL:
 * shared by the crash test and the reliability suite's 200-kill section.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { openDatabase } from '../../electron/main/services/database';

const WRITER = join(import.meta.dirname, 'chat-crash-writer.ts');

export interface RunningWriter {
  /** The id of the reply the writer is streaming into the database. */
  replyId: string;
  /** SIGKILL, then waits for the process to be gone. */
  kill(): Promise<void>;
}

/**
 * Bundles the writer into one ES module in `outDir` (inside the repository, so its packages
 * resolve), which plain Node starts in about a third of the time tsx takes: for runs of hundreds
 * of kills. Gives undefined when esbuild is not there, and the writer then runs through tsx.
 */
export async function bundleCrashWriter(outDir: string): Promise<string | undefined> {
  try {
    const { build } = await import('esbuild');
    const outfile = join(outDir, 'chat-crash-writer.mjs');
    await build({
      entryPoints: [WRITER],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      outfile,
      logLevel: 'error',
    });
    return outfile;
  } catch {
    return undefined;
  }
}

/**
 * Starts a writer and resolves once its reply row exists. `prompt` defaults to crash0…crash39;
 * `bundle` is a file from `bundleCrashWriter`.
 */
export async function startCrashWriter(
  path: string,
  relayUrl: string,
  key: string,
  prompt?: string,
  bundle?: string,
): Promise<RunningWriter> {
  // Node itself (with tsx's loader for the source), so the kill hits the writer, not a wrapper.
  const script = bundle === undefined ? ['--import', 'tsx', WRITER] : [bundle];
  const args = [...script, path, relayUrl, key];
  if (prompt !== undefined) args.push(prompt);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const replyId = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /started (\S+)\n/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`writer exited (${code}): ${stderr}`)));
  });
  return {
    replyId,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Reads one reply's committed text through a connection of our own, as another process would. */
export async function committedText(path: string, replyId: string): Promise<string | undefined> {
  const db = await openDatabase({ path });
  try {
    return db.one<{ content: string }>('SELECT content FROM chat_messages WHERE id = ?', [replyId])
      ?.content;
  } finally {
    db.close();
  }
}
