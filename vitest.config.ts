import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['tests/node/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'gpu',
          include: ['tests/gpu/**/*.gpu.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/browser.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
