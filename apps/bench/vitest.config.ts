import { workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests run against the workspace sources, like the bundle (tsup follows the tsconfig paths).
  resolve: { alias: workspaceAliases() },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // The end-to-end test builds the bundle and starts processes that create a device.
    pool: 'forks',
  },
});
