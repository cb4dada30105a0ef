import { chromiumWebGpu, workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.node.test.ts'],
          browser: chromiumWebGpu(),
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: { name: 'node', include: ['test/**/*.node.test.ts'], environment: 'node', testTimeout: 120_000, pool: 'forks' },
      },
    ],
  },
});
