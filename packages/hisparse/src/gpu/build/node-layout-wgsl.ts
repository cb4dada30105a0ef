import { nodeLayoutWgsl } from '../kernels/node-wgsl.js';

/**
 * The node layout functions (`node_type(n)`, `node_words(t, n)`, `coord_start(t)`,
 * `value_start(t, n)`, …) for the build's kernels, whose node size d comes from the uniform block
 * (`params.log2d`): the shared generator of `../kernels/node-wgsl.ts`, the one WGSL copy of
 * `src/format/layout.ts`.
 *
 * @example
 * ```ts
 * const wgsl = buildKernelFrame(`${NODE_LAYOUT_WGSL}`, 'let t = node_type(5u);');
 * ```
 */
export const NODE_LAYOUT_WGSL = nodeLayoutWgsl('1u << (2u * params.log2d)');
