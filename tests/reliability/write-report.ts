/**
 * Writes docs/reliability.md from the figures the reliability suite recorded in
 * reliability-results/ (one file per section of issue 7). Refuses, exit 1 and saying which, when a
 * section's file is missing or was measured in reduced mode (`npm test`) instead of the full run
 * (`npm run test:reliability`). With `--partial` it writes the report all the same, saying at its
 * top which sections lack figures from a full run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { TEST_CHROMIUM_PATH } from '../e2e/harness/browser';
import { REDUCED_DIR, RESULTS_DIR, type Figure, type SectionResult } from './lib/record';

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'docs', 'reliability.md');

/** The sections of issue 7, in order, with how each one is measured. */
export const SECTIONS: Array<{ section: number; title: string; how: string }> = [
  {
    section: 1,
    title: 'Streams',
    how: 'Generated event streams (valid ones cut at random byte offsets, inside UTF-8 characters, between \\r and \\n and at event boundaries; junk bytes; partial final events; missing [DONE]; error events) served over loopback HTTP by a scripted server and read by the real relay client, 8 at a time. A hang is a call not settled 2 s after the server sent its last byte (or open 30 s).',
  },
  {
    section: 2,
    title: 'HTTP failures',
    how: 'Each failure scripted on a loopback server and met first by the relay client directly, then through the app (router, bridge, chat service, database) with the canary key stored for the connection; errors, bridge traffic, console output and every file under the user data folder searched for the key. The idle watchdog is timed with performance.now() from the headers to the error.',
  },
  {
    section: 3,
    title: 'IPC',
    how: 'fast-check payloads (arbitrary values, and objects built from the contract’s field names) sent through the real router to the real handlers of createAppServices on a temp user data folder, with HOME and TMPDIR pointed at an empty sandbox, network fetches refused and file dialogs cancelling; the sandbox is listed before and after.',
  },
  {
    section: 4,
    title: 'Crashes',
    how: 'A writer process streams a reply from the demo relay into the database; it is killed with SIGKILL after a random delay; the database is then reopened and checked (PRAGMA integrity_check, committed text still a prefix, interrupted reply marked, earlier replies unchanged, FTS index in step).',
  },
  {
    section: 5,
    title: 'Migrations',
    how: 'A database built for every earlier combination of schema domains (chat, embeddings, images; each at every version before the current one) with rows in each table, then opened by createAppServices; every row compared before and after. A migration made to throw halfway through on a database with data.',
  },
  {
    section: 6,
    title: 'Keychain',
    how: 'The real Secret Service (gnome-keyring in dbus-run-session) through the app’s keychain store; a Node child process with no D-Bus session bus for the memory-only case; a second child process for the restart.',
  },
  {
    section: 7,
    title: 'Hostile model output',
    how: 'Payloads rendered by the real chat view in Chromium under the production CSP.',
  },
  {
    section: 8,
    title: 'Load',
    how: 'Concurrent streams from one relay client against the demo relay in this process, each prompt distinct and each reply compared with the demo relay’s deterministic reply for it; then a load generator on loopback (a fixed number of requests, a concurrency cap, a time bound) in a child Node process started with --expose-gc, heap and RSS measured after forced GC before and after.',
  },
  {
    section: 9,
    title: 'Canary sweep',
    how: 'After the whole suite: every file under every user data folder the suite made (logs included) and every captured console output searched for the canary key (UTF-8, UTF-16 and base64, with and without its sk- prefix) and the canary prompt.',
  },
  {
    section: 10,
    title: 'Key binding',
    how: 'A hostile page: calls the contract allows, sent through the real router to the real services (createAppServices on a temp folder) with the canary key saved for a connection to the demo relay; a second HTTP server on another port of 127.0.0.1 answers every request as a relay would and records whether the key was in its headers or body. Attacks: "Test connection" with another address and the saved id; the address changed, then models, chat, embeddings and images used; a relay redirecting (301, 302, 303, 307, 308) to the other server; fast-check sequences of test, update, create, select and use.',
  },
  {
    section: 11,
    title: 'Backups',
    how: 'A data folder of a heavy user (the 0.1 fixture plus 400 conversations of 20 messages; 150 for the restore rounds, which reset it each round). A Node process opens the app’s services on it and takes one backup, or restores one, and is killed with SIGKILL after a uniform random delay over 1.1× an uninterrupted run (the median of three); every other restore round is killed instead over 1.1× the stage that puts the restored data in place, counted from when the process reports that stage. Then the live data is compared row by row with before (and, for a restore, with the restored data) after the next start, and every backup whose checksum file claims verification is checked in full (checksum, integrity_check, every table’s rows against its manifest). Bad backups made from a good one; a later release simulated with one more chat migration; the schedule on a fake clock moved a minute at a time (hourly) and asleep a day at a time (daily); a full drive as a 96 KB tmpfs and as ENOSPC injected into the checksum write; a copy step that loses a row.',
  },
  {
    section: 12,
    title: 'Hostile page, files and backups',
    how: 'A hostile page, a hostile zip and a tampered backup (issue 29): every call the contract allows, sent as the page would send it through the real router to the real services (createAppServices on a temp user data folder), with the arguments a script would choose: paths of files on disk for every route that once took one, a made-up or reused grant, a pasted launcher asked to be opened, a link planted where an opened copy is written. A chat export built to attack (an attachment named as a document with a launcher type, a citation naming a path outside any knowledge base); a backup whose connections.json and settings.json were edited and its checksums fixed; a proxy and a plain-http key send asked for by the page; a secret-bearing address logged; the system’s own chords as the shortcut; a FIFO and /dev/zero chosen to import; the modes of backup copies; a plain-http update feed; the quick ask window calling routes it does not use; names carrying bidi controls. An attacker’s relay on 127.0.0.1 records every request it is sent.',
  },
  {
    section: 13,
    title: 'Sync',
    how: 'Two computers with user data folders of their own syncing through a storage folder slowed to 25 ms a request. One is killed with SIGKILL at a uniform random moment of each sync while it sends a dozen new conversations (a process of its own, started again after each kill), then a new computer is killed likewise while it takes everything in; both then sync to the end and are compared conversation by conversation, message by message, with the storage checked for heads left behind. Then one computer compacting at every sync (snapshot parts of 10 entities), its clock moved two hours on each round so that the snapshot parts and logs it superseded are past their grace period, killed likewise while its next sync deletes them; after each kill the other computer syncs and must find every object a head names (nothing refused), and at the end the storage must hold only the last snapshot’s parts and a new computer must start from it with everything. Then fast-check: random interleavings of creating, answering (under any message), renaming, pinning, deleting and restoring conversations and changing the theme on three computers, each syncing whenever the sequence says, then all syncing in a random order: every computer must end with the same conversations, trash, messages and theme.',
  },
  {
    section: 14,
    title: 'Tools',
    how: 'MCP servers that fail, met by the app’s own MCP service (and, for results, by the chat service with the demo relay’s demo-tools model): a server on the official SDK started over stdio, asked to crash in the middle of a call (exit code 3), to hang (a 0.5 s time limit), to flood its error output (20,000 lines of 190 characters), and to answer 10 MB of text (the largest result set to 20,000 characters; and the default, 100,000); a fresh service for each crash. Quits: the app’s services on a temp user data folder with a server running that started a process of its own, closed as the app quits, then both processes looked up by their ids (kill 0 and /proc).',
  },
];

function load(dir: string): Map<number, SectionResult> {
  const results = new Map<number, SectionResult>();
  if (!existsSync(dir)) return results;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const result = JSON.parse(readFileSync(join(dir, name), 'utf8')) as SectionResult;
    if (typeof result.section !== 'number') continue;
    const earlier = results.get(result.section);
    if (earlier === undefined || earlier.measuredAt < result.measuredAt)
      results.set(result.section, result);
  }
  return results;
}

function chromiumVersion(): string {
  const path = TEST_CHROMIUM_PATH;
  try {
    return execFileSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return `unknown (${path} --version failed)`;
  }
}

function osName(): string {
  try {
    const text = readFileSync('/etc/os-release', 'utf8');
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1];
    if (pretty) return `${pretty}, ${platform()} ${release()} ${arch()}`;
  } catch {
    // Not Linux.
  }
  return `${platform()} ${release()} ${arch()}`;
}

function cell(text: string): string {
  return text.replace(/([|_*`])/g, '\\$1').replace(/\n/g, ' ');
}

function figureRow(figure: Figure): string {
  const value = `${typeof figure.value === 'number' ? figure.value.toLocaleString('en-US') : figure.value}${figure.unit ? ` ${figure.unit}` : ''}`;
  const ok = figure.ok === undefined ? '' : figure.ok ? 'yes' : '**NO**';
  return `| ${cell(figure.name)} | ${cell(value)} | ${cell(figure.target ?? '')} | ${ok} |`;
}

/** The figures that missed their target, listed before everything else. */
function summary(results: Map<number, SectionResult>): string[] {
  const missed = [...results.values()]
    .sort((a, b) => a.section - b.section)
    .flatMap((r) =>
      r.figures
        .filter((f) => f.ok === false)
        .map(
          (f) =>
            `- Section ${r.section}: ${f.name}: ${f.value}${f.unit ? ` ${f.unit}` : ''} (target ${f.target ?? 'met'})`,
        ),
    );
  const total = [...results.values()].reduce(
    (n, r) => n + r.figures.filter((f) => f.ok !== undefined).length,
    0,
  );
  return missed.length === 0
    ? [`All ${total} figures with a target met it.`, '']
    : [`${missed.length} of ${total} figures with a target missed it:`, '', ...missed, ''];
}

export function render(
  results: Map<number, SectionResult>,
  machine: string[],
  missing: string[] = [],
): string {
  const lines: string[] = [
    '# Reliability and security figures',
    '',
    ...(missing.length > 0
      ? [
          '**Incomplete report** (written with `--partial`): these sections have no figures from a',
          'full run, so their figures below are from a reduced run or absent:',
          '',
          ...missing.map((m) => `- ${m}`),
          '',
        ]
      : []),
    'Written by `npm run test:reliability` (tests/reliability/write-report.ts) from the figures the',
    'reliability suite recorded; do not edit by hand. Each section below is one section of the',
    'reliability issue, with the date its figures were measured, the mode (full counts), and how.',
    'Timings come from a shared 2-core machine on which other work ran at the same time, so they',
    'are indicative; counts and pass/fail are exact.',
    '',
    ...summary(results),
    '## Machine',
    '',
    ...machine.map((line) => `- ${line}`),
    '',
  ];
  for (const { section, title, how } of SECTIONS) {
    const result = results.get(section);
    if (result === undefined) {
      lines.push(`## ${section}. ${title}`, '', '**Not measured:** no result file.', '');
      continue;
    }
    lines.push(`## ${section}. ${result.title || title}`, '');
    lines.push(`Measured ${result.measuredAt} (mode: ${result.mode}).`, '');
    lines.push(`How: ${how}`, '');
    lines.push('| Figure | Value | Target | Met |', '| --- | --- | --- | --- |');
    for (const figure of result.figures) lines.push(figureRow(figure));
    lines.push('');
    for (const note of result.notes) lines.push(`- ${note}`);
    if (result.notes.length > 0) lines.push('');
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const results = load(RESULTS_DIR);
  const reduced = load(REDUCED_DIR);
  const problems: string[] = [];
  for (const { section, title } of SECTIONS) {
    const result = results.get(section);
    const onlyReduced = reduced.get(section);
    if (result === undefined && onlyReduced !== undefined)
      problems.push(
        `section ${section} (${title}): measured only in reduced mode (${onlyReduced.measuredAt}); run npm run test:reliability`,
      );
    else if (result === undefined)
      problems.push(`section ${section} (${title}): no result file in ${RESULTS_DIR}`);
    else if (result.mode !== 'full')
      problems.push(
        `section ${section} (${title}): measured in ${result.mode} mode (${result.measuredAt}); run npm run test:reliability`,
      );
  }
  // --partial writes the report anyway, saying at its top which sections lack full figures.
  const partial = process.argv.includes('--partial');
  if (problems.length > 0 && !partial) {
    process.stderr.write(
      `docs/reliability.md was not written:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`,
    );
    process.exit(1);
  }
  if (partial)
    for (const [section, result] of reduced)
      if (!results.has(section)) results.set(section, result);
  const cpu = cpus();
  const machine = [
    `CPU: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown model'})`,
    `Memory: ${Math.round(totalmem() / 2 ** 30)} GB`,
    `OS: ${osName()}`,
    `Node: ${process.version}`,
    `Chromium: ${chromiumVersion()}`,
    `Report written: ${new Date().toISOString()}`,
  ];
  // Formatted as the repository formats Markdown, so `prettier --check .` passes on it.
  const { format } = await import('prettier');
  writeFileSync(OUT, await format(render(results, machine, problems), { parser: 'markdown' }));
  if (problems.length > 0)
    process.stderr.write(`Incomplete report:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.stdout.write(`Wrote ${OUT}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? ''))
  await main();
