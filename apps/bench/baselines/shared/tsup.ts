import type { Options } from 'tsup';

/**
 * tsup options of a baseline runner as ONE self-contained ESM file: the runner's library and the
 * workspace packages are bundled in, only Dawn (`webgpu`, a native addon) stays external, so a GPU
 * machine needs nothing but node and node_modules/webgpu (scripts/remote-bench.sh --bundle sends those).
 * `extra` adds to them (gridwise's `define` and its resolver plugin).
 *
 * @example
 * ```ts
 * export default defineConfig(baselineBundle('luma', 'baselines/luma/cli.ts'));
 * ```
 */
export function baselineBundle(name: string, entry: string, extra: Options = {}): Options {
  return {
    entry: { [name]: entry },
    outDir: `dist-${name}`,
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
    ...extra,
  };
}
