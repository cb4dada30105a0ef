import { chromiumLaunchOptions, workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

// The settings of `chromiumWebGpu()` from @scan/gpu-testing (headless Debian Chromium with
// WebGPU; SwiftShader without a GPU), built here with this app's own @vitest/browser-playwright:
// the shared helper's return type comes from a Vitest instance bound to another Vite major, which
// this app's `tsc` rejects.
const chromium = {
  enabled: true,
  headless: true,
  screenshotFailures: false,
  instances: [{ browser: 'chromium' as const }],
  provider: playwright({ launchOptions: chromiumLaunchOptions() }),
};

// Two projects: the frame's GPU tests in headless Chromium, and a Node project for the .ply
// parser and the end-to-end page test (which starts its own Vite server and its own Chromium
// through Playwright).
export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], browser: chromium, testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: { name: 'node', include: ['test/node/**/*.test.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 120_000 },
      },
    ],
  },
});
