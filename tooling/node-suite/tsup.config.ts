import { defineConfig } from 'tsup';

export default defineConfig([
  // One self-contained file, like the bench's: the workspace packages are bundled in and only Dawn
  // (`webgpu`, a native addon) stays external, so a GPU machine needs nothing but node
  // and node_modules/webgpu to run scripts/node-stress (scripts/remote-bench.sh --bundle sends those).
  {
    entry: { stress: 'src/stress.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    noExternal: [/^@scan\//],
    external: ['webgpu'],
    splitting: false,
    sourcemap: true,
    clean: false,
    dts: false,
  },
  // The wgpu suite for Deno (scripts/test-wgpu.sh): everything bundled, nothing from Node.
  {
    entry: { wgpu: 'src/wgpu.ts' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    noExternal: [/.*/],
    splitting: false,
    sourcemap: true,
    clean: false,
    dts: false,
  },
]);
