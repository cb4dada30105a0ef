import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'cpu/index': 'src/cpu/index.ts', 'kit/index': 'src/kit/index.ts' },
  format: ['esm'],
  // The WebGPU types come in through the entry points scripts/type-entries.mjs writes after the build
  // (@webgpu/types for TypeScript 5.x, lib.dom from 6 on), never both.
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: [/^@scan\//],
});
