import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The JSON report is what .ci/run counts passed, failed and skipped tests from.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
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
        // Builds the app and starts one Chromium, only when e2e specs are part of the run.
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          globalSetup: ['tests/e2e/harness/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One more try for a spec that fails: a real browser on a shared 2-core machine has
          // timing races a retry rides out, while a real fault fails both times. Known flaky:
          // "embeddings … a 402 mid-run" timed out once in four runs under load (being looked into).
          retry: 1,
        },
      },
      {
        // The reliability suite (issue 7): the whole app under faults, bad input and hostile
        // content. `npm test` runs it with reduced counts; `npm run test:reliability` sets
        // RELIABILITY_FULL=1 for the full counts and writes docs/reliability.md from the figures.
        extends: true,
        test: {
          name: 'reliability',
          include: ['tests/reliability/**/*.reliability.test.ts'],
          globalSetup: ['tests/e2e/harness/global-setup.ts'],
          testTimeout: process.env.RELIABILITY_FULL ? 900_000 : 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
