// Runs test/region-memory.measure.ts alone (see there); not part of `pnpm test`.
import { workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: { include: ['test/region-memory.measure.ts'], environment: 'node', pool: 'forks', testTimeout: 3_600_000 },
});
