import { nodeLayoutWgsl as layoutFunctionsWgsl } from '../../kernels/node-wgsl.js';

/**
 * WGSL constants `D`, `DD` (= d²) and the node layout functions (`node_type(n)` — the type add
 * gives a node of n entries, applied to the union count as the paper sizes an output node before
 * allocating it (§6) — `node_words(t, n)`, `coord_start(t)`, `value_start(t, n)`, …) for node size
 * `d`: the shared generator of `../../kernels/node-wgsl.ts`, the one WGSL copy of `src/format/layout.ts`.
 *
 * @example
 * ```ts
 * const wgsl = `${nodeLayoutWgsl(32)} ... let size = node_words(node_type(n), n);`;
 * ```
 */
export function nodeLayoutWgsl(d: number): string {
  return `
const D = ${d}u;
const DD = ${d * d}u;
${layoutFunctionsWgsl('DD')}`;
}
