import { defineConfig } from 'tsup';

// The luma.gl baseline as ONE self-contained ESM file: luma.gl and the workspace packages are
// bundled in, only Dawn (`webgpu`, a native addon) stays external, so a GPU machine needs
// nothing but node and node_modules/webgpu (scripts/remote-bench.sh --bundle sends those). Build: `pnpm --filter @scan/bench build:luma`.
export default defineConfig({
  entry: { luma: 'baselines/luma/cli.ts' },
  outDir: 'dist-luma',
  tsconfig: 'tsconfig.json',
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  // Everything but `webgpu` (a plain /.*/ would pull it in too: noExternal wins over external).
  noExternal: [/^(?!webgpu(\/|$))/],
  external: ['webgpu'],
  splitting: false,
  sourcemap: false,
  clean: true,
  dts: false,
});
