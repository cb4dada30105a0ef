import { chromiumWebGpu, workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'browser', include: ['test/**/*.test.ts'], browser: chromiumWebGpu(), testTimeout: 600_000, hookTimeout: 120_000 },
      },
    ],
  },
});
