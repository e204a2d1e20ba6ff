import { defineConfig } from 'vitest/config';

// Two projects: `self` is the project's own tests (npm test); `conformance` is the kit's
// checks against a target (the CLI drives it; with no target it starts the fake in-process).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.check.ts'],
          globalSetup: ['kit/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'self',
          include: ['test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
