import { defineConfig } from 'vitest/config';

// Real browsers: one suite at a time (the machine has two cores), generous timeouts.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
