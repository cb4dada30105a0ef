import { workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The workspace sources, as the stress bundle sees them.
  resolve: { alias: workspaceAliases() },
  test: {
    include: ['test/**/*.node.test.ts'],
    environment: 'node',
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // Dawn runs in a child process of its own, never in vitest's main one.
    pool: 'forks',
    // The tests collect garbage between calls, as a long-running program would.
    execArgv: ['--expose-gc'],
  },
});
