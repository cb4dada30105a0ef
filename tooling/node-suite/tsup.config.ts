import { defineConfig } from 'tsup';

// One self-contained file, like the bench's: the workspace packages are bundled in and only Dawn
// (`webgpu`, a native addon) stays external, so the lent GPU machine needs nothing but
// node_modules/webgpu to run scripts/node-stress.
export default defineConfig({
  entry: { stress: 'src/stress.ts' },
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
