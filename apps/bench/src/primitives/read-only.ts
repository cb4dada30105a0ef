import { benchModule } from '../bench-module.js';
import type { Case } from '../case-types.js';
import { encodeCheckScalar, encodeFill, encodeReduceTree, runCheck } from '../child/device-ops.js';
import { BufferPool, encodeKernel, submitAndWait } from '../child/gpu.js';
import { READ_ONLY_ITEMS, readOnlyVec4Kernel } from '../child/kernels/baselines.js';
import { WG } from '../child/kernels/common.js';
import { bytesMoved } from '../metrics.js';

/** The read-only baseline's case (u32): the bound of the reductions' `×read`. */
export type ReadOnlyCase = Case<'read-only'>;

/**
 * The read-only baseline as a case of its own (it also runs beside the read-bound cases, reduce
 * and segmented-reduce, for the `×read` column): reads n u32 once as vec4s and adds them into one
 * sum per workgroup. Verified by summing its partials and the input with the bench's tree
 * reduction (u32 add) and comparing. Kept whatever `--types` says; last in the report.
 *
 * @example
 * ```ts
 * READ_ONLY.shapes(selection); // [{ primitive: 'read-only', type: 'u32' }]
 * ```
 */
export const READ_ONLY = benchModule<ReadOnlyCase>({
  package: '@scan/bench',
  primitives: ['read-only'],
  anyType: true,
  shapes: () => [{ primitive: 'read-only', type: 'u32' }],
  async workload(ctx, c) {
    const pool = new BufferPool(ctx);
    const n = c.n;
    const vecs = Math.ceil(n / 4);
    const groups = Math.ceil(vecs / (WG * READ_ONLY_ITEMS));
    const input = pool.storage(4 * n, 'read-only input');
    const partials = pool.storage(4 * groups, 'read-only partials');
    const setup = ctx.device.createCommandEncoder();
    encodeFill(ctx, pool, setup, input, n, 'random', c.seed);
    await submitAndWait(ctx, setup);
    const kernel = readOnlyVec4Kernel({ subgroups: ctx.caps.features.subgroups });
    const params = pool.params(kernel, { n: vecs, groups });
    return {
      bytes: bytesMoved('read-only', n),
      output: partials,
      encode(encoder) {
        encoder.clearBuffer(partials);
        encodeKernel(ctx, encoder, kernel, { src: input, partials, params }, { groups });
      },
      verify: () =>
        runCheck(ctx, pool, (encoder, errors) => {
          const fromPartials = encodeReduceTree(ctx, pool, encoder, partials, groups, 'u32', 'add');
          const fromInput = encodeReduceTree(ctx, pool, encoder, input, n, 'u32', 'add');
          encodeCheckScalar(ctx, encoder, 'u32', fromPartials, fromInput, errors);
        }),
      destroy: () => pool.destroy(),
    };
  },
});
