// Runs tests/gpu/digest.tool.ts alone (not part of `npm test`: it measures, it does not assert).
// scripts/particle-digest.mjs drives it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/gpu/digest.tool.ts', 'tests/gpu/digest-engine.tool.ts'],
    fileParallelism: false,
    environment: 'node',
    globalSetup: ['tests/setup/browser.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
