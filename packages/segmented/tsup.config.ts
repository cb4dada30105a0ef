import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'cpu/index': 'src/cpu/index.ts' },
  format: ['esm'],
  // Every declaration file names the WebGPU types it uses, so a TypeScript project that installs the
  // package compiles without adding @webgpu/types to its own tsconfig.
  dts: { banner: '/// <reference types="@webgpu/types" />' },
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: [/^@scan\//],
});
