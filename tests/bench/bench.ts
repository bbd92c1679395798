/**
 * What every benchmark shares: its contract, the report file and the printed table.
 *
 * The report format is fixed by `design/benchmarks.md`; results are compared across versions, so
 * `writeReport` writes exactly the documented keys and nothing else.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A bound a metric should stay within; a metric without one is only reported. */
export interface Target {
  max?: number;
  min?: number;
}

export interface BenchResult {
  /** How many measured runs each median is taken over (warm-up runs excluded). */
  runs: number;
  metrics: Record<string, number>;
  targets: Record<string, Target>;
  /** The Chromium version, for a benchmark that measures in a browser (Electron). */
  chromium?: string;
  /** Lines printed under the table: how the figures were taken, what to read into them. */
  notes?: string[];
}

export interface Benchmark {
  name: string;
  /** Measures and returns the figures; throws only when it could not measure. */
  run(): Promise<BenchResult>;
}

export interface BenchReport {
  name: string;
  date: string;
  machine: string;
  runs: number;
  metrics: Record<string, number>;
  targets: Record<string, Target>;
}

export const RESULTS_DIR = path.resolve(process.cwd(), 'bench-results');

/** "2 cores, Linux, Node v20.20.2" (+ ", Chromium 156"). */
export function describeMachine(chromium?: string): string {
  const systems: Record<string, string> = {
    Linux: 'Linux',
    Darwin: 'macOS',
    Windows_NT: 'Windows',
  };
  const parts = [
    `${os.availableParallelism()} cores`,
    systems[os.type()] ?? os.type(),
    `Node ${process.version}`,
  ];
  if (chromium) parts.push(`Chromium ${chromium.split('.')[0]}`);
  return parts.join(', ');
}

export function toReport(name: string, result: BenchResult, date = new Date()): BenchReport {
  return {
    name,
    date: date.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    machine: describeMachine(result.chromium),
    runs: result.runs,
    metrics: result.metrics,
    targets: result.targets,
  };
}

export async function writeReport(report: BenchReport): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${report.name}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/** The metrics whose value falls outside their target. */
export function missedTargets(report: BenchReport): string[] {
  return Object.entries(report.targets)
    .filter(([metric, target]) => !meetsTarget(report.metrics[metric], target))
    .map(([metric]) => metric);
}

function meetsTarget(value: number | undefined, target: Target): boolean {
  if (value === undefined || !Number.isFinite(value)) return false;
  if (target.max !== undefined && value > target.max) return false;
  if (target.min !== undefined && value < target.min) return false;
  return true;
}

/** The table a person reads: metric, value, target, ok/MISSED; targeted metrics first. */
export function formatTable(report: BenchReport): string {
  const names = Object.keys(report.metrics);
  const targeted = names.filter((n) => report.targets[n]);
  const rest = names.filter((n) => !report.targets[n]);
  const missingMetrics = Object.keys(report.targets).filter((n) => !(n in report.metrics));
  const rows = [...targeted, ...missingMetrics, ...rest].map((metric) => {
    const target = report.targets[metric];
    const value = report.metrics[metric];
    return [
      metric,
      value === undefined ? 'missing' : formatNumber(value),
      target ? formatTarget(target) : '',
      target ? (meetsTarget(value, target) ? 'ok' : 'MISSED') : '',
    ];
  });
  const header = ['metric', 'value', 'target', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function formatTarget(target: Target): string {
  const parts: string[] = [];
  if (target.max !== undefined) parts.push(`max ${target.max}`);
  if (target.min !== undefined) parts.push(`min ${target.min}`);
  return parts.join(', ');
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

/** Rounds for the report: ratios and milliseconds need no more than 4 significant digits. */
export function round(value: number, digits = 4): number {
  return Number.isFinite(value) ? Number(value.toPrecision(digits)) : value;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
