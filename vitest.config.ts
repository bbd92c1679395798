import { defineConfig } from 'vitest/config';

/** `npm run screenshots` sets it: the README's pictures are made by that command alone. */
const SCREENSHOTS = process.env['RELAY_UPDATE_SCREENSHOTS'] === '1';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two spec files at a time, whatever the machine: Vitest's default (one fewer than the
    // processors) runs one at a time on a 2-core machine, leaving a core idle while a spec waits
    // on the browser, the relay or a child process.
    maxWorkers: 2,
    // The JSON report is what .ci/run counts passed, failed and skipped tests from.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        // Unit specs: the files of a worker share its loaded modules (no fresh module graph per
        // file), so a spec that changes a module's state (a locale, a cache, an injected import)
        // puts it back itself; they pass in any order (`--sequence.shuffle`).
        extends: true,
        test: {
          name: 'node',
          include: ['tests/unit/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        // Integration specs: main's services with real files, child processes and servers, each
        // file in a fresh module graph.
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
        },
      },
      {
        // The built app (`npm run build`'s out/) loaded in Node with Electron replaced by a
        // recording double, and packed by electron-builder against a stand-in Electron.
        extends: true,
        test: {
          name: 'boot',
          include: ['tests/boot/**/*.boot.test.ts'],
          globalSetup: ['tests/boot/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Builds the app and starts one Chromium, only when e2e specs are part of the run. No
        // retry: a spec that fails once is a failure to fix.
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          globalSetup: ['tests/e2e/harness/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The spec files of a worker share its loaded modules (main's services, the harness):
          // each file still opens its own apps, relay and browser contexts.
          isolate: false,
        },
      },
      {
        // The reliability suite (issue 7): the whole app under faults, bad input and hostile
        // content. `npm test` runs it with reduced counts; `npm run test:reliability` sets
        // RELIABILITY_FULL=1 for the full counts and writes docs/reliability.md from the figures.
        // It runs after the other projects, one file at a time: its figures (a watchdog's
        // precision, memory under load) are measured with no other spec file beside it.
        extends: true,
        test: {
          name: 'reliability',
          include: ['tests/reliability/**/*.reliability.test.ts'],
          globalSetup: ['tests/e2e/harness/global-setup.ts'],
          testTimeout: process.env.RELIABILITY_FULL ? 900_000 : 120_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      // The README's pictures (docs/screenshots/), in `npm run screenshots` only: a documentation
      // generator, not a test of the app (tests/e2e/tour.e2e.test.ts walks the same screens).
      ...(SCREENSHOTS
        ? [
            {
              extends: true as const,
              test: {
                name: 'screenshots',
                include: ['tests/screenshots/**/*.screenshots.ts'],
                globalSetup: ['tests/e2e/harness/global-setup.ts'],
                testTimeout: 60_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
