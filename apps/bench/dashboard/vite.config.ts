import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { workspaceAliases } from '@scan/gpu-testing/vitest-browser';
import { defineConfig } from 'vite';

function commit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

// @scan/* resolve to the workspace sources, so the page runs the code in the tree without a build.
// `pnpm --filter @scan/bench dashboard` serves the page; `pnpm --filter @scan/bench dashboard:build`
// writes a static site (relative paths, so it can be hosted under any path) to dist-dashboard/.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  resolve: { alias: workspaceAliases() },
  define: { __SCAN_COMMIT__: JSON.stringify(commit()) },
  build: { outDir: fileURLToPath(new URL('../dist-dashboard/', import.meta.url)), emptyOutDir: true, target: 'es2022' },
});
