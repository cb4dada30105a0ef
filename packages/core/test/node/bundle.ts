// Bundles src/node/index.ts into one ES module that plain `node` can import, for tests that must
// watch a separate process (its exit). Node 20 runs no TypeScript, and building dist/ first would
// test a stale build; esbuild (through tsup, whose dependency it is) takes ~50 ms.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The part of esbuild's API used here (esbuild is tsup's dependency, not ours, so no types). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/** The package root (packages/core). */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Writes the bundle under node_modules/.cache (so `import('webgpu')` resolves from the package)
 * and returns its path.
 *
 * @example
 * ```ts
 * const entry = await bundleNodeEntry(); // import(entry) in a child `node` process
 * ```
 */
export async function bundleNodeEntry(): Promise<string> {
  const require = createRequire(`${packageRoot}package.json`);
  const esbuild = createRequire(require.resolve('tsup'))('esbuild') as Esbuild;
  const dir = `${packageRoot}node_modules/.cache/scan-core-node-test`;
  mkdirSync(dir, { recursive: true });
  const outfile = `${dir}/node-entry.mjs`;
  await esbuild.build({
    entryPoints: [`${packageRoot}src/node/index.ts`],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['webgpu'],
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
