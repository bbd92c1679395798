#!/usr/bin/env node
/**
 * Prints one line, `N passed, N failed` (with `, N skipped` when any were skipped), from the JSON
 * reports that the test runs wrote.
 *
 * Usage: node tests/report-counts.mjs [--exit-code N] report.json...
 *
 * Reads Vitest's (and Jest's) JSON report and Playwright's JSON reporter output. A test file that
 * failed without a failing test in it (an import error, a throwing `beforeAll`) counts as one
 * failure, and so does a non-zero exit code of the run when no report shows a failure: the line
 * never claims success for a run that failed. Missing reports are named on stderr.
 */
import { existsSync, readFileSync } from 'node:fs';

function countVitest(report) {
  let failed = report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    const failedInside = (file.assertionResults ?? []).some((test) => test.status === 'failed');
    if (file.status === 'failed' && !failedInside) failed += 1;
  }
  return {
    passed: report.numPassedTests ?? 0,
    failed,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

function countPlaywright(report) {
  const stats = report.stats ?? {};
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors?.length ?? 0),
    skipped: stats.skipped ?? 0,
  };
}

function countReport(path) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  if ('numPassedTests' in report) return countVitest(report);
  if ('stats' in report && 'suites' in report) return countPlaywright(report);
  throw new Error(`${path} is not a Vitest, Jest or Playwright JSON report`);
}

const args = process.argv.slice(2);
let exitCode = 0;
const paths = [];
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--exit-code') exitCode = Number(args[(i += 1)]);
  else paths.push(args[i]);
}

const total = { passed: 0, failed: 0, skipped: 0 };
let problems = 0;
for (const path of paths) {
  if (!existsSync(path)) {
    console.error(`report-counts: no report at ${path}`);
    problems += 1;
    continue;
  }
  try {
    const counts = countReport(path);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
  } catch (error) {
    console.error(`report-counts: ${error instanceof Error ? error.message : String(error)}`);
    problems += 1;
  }
}
if ((exitCode !== 0 || problems > 0) && total.failed === 0) {
  console.error(
    'report-counts: the test run failed outside any counted test; counting it as one failure',
  );
  total.failed = 1;
}

const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : '';
console.log(`${total.passed} passed, ${total.failed} failed${skipped}`);
process.exitCode = total.failed > 0 ? 1 : 0;
