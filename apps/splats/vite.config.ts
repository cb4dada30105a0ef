import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Resolve @scan/* to the workspace sources (as the tests and the other apps do), so the demo runs
// and builds against the code in the tree without building the packages first.
const packages = fileURLToPath(new URL('../../packages/', import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@scan\/([a-z-]+)$/, replacement: `${packages}$1/src/index.ts` },
      { find: /^@scan\/([a-z-]+)\/(cpu|kit)$/, replacement: `${packages}$1/src/$2/index.ts` },
    ],
  },
  build: { target: 'es2022' },
});
