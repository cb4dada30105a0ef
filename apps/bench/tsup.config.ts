import { defineConfig } from 'tsup';

// One self-contained file: the workspace packages are bundled in, only Dawn (`webgpu`, a native
// addon) stays external, so a GPU machine needs nothing but node and node_modules/webgpu
// (scripts/remote-bench.sh --bundle sends those; see the README, "Running on a remote GPU machine").
export default defineConfig({
  entry: { cli: 'src/cli.ts', summary: 'src/summary/cli.ts', 'matrix-export': 'src/matrix-export.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  noExternal: [/^@scan\//],
  external: ['webgpu'],
  splitting: false,
  sourcemap: true,
  clean: true,
  dts: false,
});
