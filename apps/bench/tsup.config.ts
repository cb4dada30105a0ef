import { defineConfig } from 'tsup';

// One self-contained file: the workspace packages are bundled in, only Dawn (`webgpu`, a native
// addon) stays external, so the lent GPU machine needs nothing but node_modules/webgpu
// (see ../../../shared/gpu/README.md).
export default defineConfig({
  entry: { cli: 'src/cli.ts', summary: 'src/summary/cli.ts' },
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
