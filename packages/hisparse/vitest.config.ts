import { workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { defineConfig } from 'vitest/config';

// Only a Node project for now: the format and its CPU reference need no GPU. The browser project
// (headless Chromium, as in @scan/spmv) comes with the GPU build and traversal kernels.
export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['test/**/*.node.test.ts'], environment: 'node', testTimeout: 120_000, pool: 'forks' },
      },
    ],
  },
});
