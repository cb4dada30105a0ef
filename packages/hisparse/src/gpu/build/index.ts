import { BufferUsage, encodeReadback, type ScanContext, ScanError } from '@scan/core';
import { RecipeExecutor, runGuarded } from '@scan/core/kit';
import type { GpuCsrMatrix } from '@scan/spmv';
import { checkNodeSize } from '../../format/args.js';
import { chooseNodeType, FORMAT_VERSION, levelsFor, NULL_POINTER, POOL_HEADER_WORDS, POOL_MAGIC } from '../../format/layout.js';
import type { GpuHiSparseParts } from '../parts.js';
import { encodeDuplicateSums } from './duplicate-sums.js';
import { type BuildShape, encodeHierarchicalOrder, keyBits } from './hierarchical-order.js';
import { createLevelBinning } from './level-binning.js';
import { encodeLevelFilling } from './level-filling.js';
import { createBuildScratch } from './scratch.js';

// The GPU build of HiSparse (Derler et al., ICS 2017, §3.2), by sorting and scanning as the paper
// suggests. Binning: every nonzero gets its hierarchical key (its slot at every level, most
// significant first); one radix sort by the key puts the entries in the hierarchical order the
// CPU's top-down binning reaches, and per level the nodes and their entries are where the key
// prefix changes (head flags, scanned into indices and counts). Filling, bottom-up: each node's
// size comes from its count by the CPU's type rule, an exclusive scan of the sizes places the
// level's nodes, and kernels write counts, coordinates and words (child pointers of the level
// filled just before, or leaf values). The pool is sized exactly, so the build makes two passes
// over the levels: the first reads back only the per-level totals (three words a level), the
// second repeats the binning of each level just before filling it, which keeps the scratch O(nnz)
// whatever the depth. Duplicate positions (a non-canonical CSR) sort into runs that the binning
// already counts as one entry each; the leaf level's entry count, among the totals read back, tells
// whether there are any, and only then does the second pass sum each run's values into its first
// entry (a segmented reduction) before filling the leaves.

/** A fresh pool of exactly `words` words: the header, then zeros for the filling to write into. */
function createPool(ctx: ScanContext, words: number): GPUBuffer {
  const bytes = 4 * words;
  // The filling kernels bind the whole pool, so it must fit one storage binding.
  const limit = Math.min(ctx.caps.limits.maxBufferSize, ctx.caps.limits.maxStorageBufferBindingSize);
  if (bytes > limit) {
    throw new ScanError('TOO_LARGE', `HiSparse build: A's pool needs ${bytes} bytes, past what one storage binding allows (${limit})`, {
      argument: 'A',
    });
  }
  // mappedAtCreation writes the header without a command; WebGPU zero-initializes the rest, which
  // is FORMAT.md's padding (0) and the "no entry" of dense nodes, so filling writes only entries.
  const pool = ctx.device.createBuffer({
    label: 'hisparse pool',
    size: bytes,
    usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    mappedAtCreation: true,
  });
  new Uint32Array(pool.getMappedRange(0, 16)).set([POOL_MAGIC, FORMAT_VERSION, 0, 0]);
  pool.unmap();
  return pool;
}

/**
 * Refuses, before any upload or GPU work, a matrix the GPU build cannot take: entries past one
 * storage binding (`TOO_LARGE`) or hierarchical keys past 64 bits (`UNSUPPORTED`), both naming `A`.
 *
 * @example
 * ```ts
 * checkBuildable(ctx, { rows: 1 << 20, cols: 1 << 20, nnz: 5e6 }, 32); // before uploading A
 * ```
 */
export function checkBuildable(ctx: ScanContext, A: { rows: number; cols: number; nnz: number }, nodeSize: number): void {
  const bindable = ctx.caps.limits.maxStorageBufferBindingSize;
  // The entries in hierarchical order are one vec4 each, bound whole (no chunking yet).
  if (16 * A.nnz > bindable) {
    throw new ScanError(
      'TOO_LARGE',
      `HiSparse build: A has ${A.nnz} nonzeros, which need ${16 * A.nnz} bytes of sorted entries, past maxStorageBufferBindingSize (${bindable})`,
      { argument: 'A' },
    );
  }
  const shape: BuildShape = { n: A.nnz, rows: A.rows, levels: levelsFor(A.rows, A.cols, nodeSize), log2d: Math.log2(nodeSize) };
  if (keyBits(shape) > 64) {
    throw new ScanError(
      'UNSUPPORTED',
      `HiSparse build: a ${A.rows}×${A.cols} matrix with nodeSize ${nodeSize} needs ${keyBits(shape)}-bit hierarchical keys; the GPU build sorts at most 64`,
      { argument: 'A' },
    );
  }
}

/**
 * Builds the HiSparse form of a CSR matrix on the GPU: the same root and levels as the CPU
 * reference `hisparseFromCsr(A, { nodeSize })` (FORMAT.md, "Build order"), in a new pool the caller
 * owns — for a canonical CSR (no two nonzeros at one position) the same pool, word for word. Columns
 * need not be sorted within rows. Duplicate positions (as `@scan/spmv`'s SpMV and cuSPARSE accept
 * them, e.g. the R-MAT generator's repeated edges) are summed into one entry, like the CPU
 * reference's `cooToCsr`, but in f32 (a segmented reduction, in an order of its own) where the CPU
 * sums in f64 and rounds once: a sum that is not exact in f32 may differ in its last bits, and a
 * run of −0 only may give +0. The layout is the same either way (a run summing to 0 stays an entry,
 * as an explicit zero does). Without duplicates the summing costs nothing: the leaf level's entry
 * count, read back anyway, tells whether to run it. The state is untransposed with scale 1. Reads
 * back three words per level between the two passes; everything of size nnz stays on the GPU.
 * Throws `INVALID_ARGUMENT` for a bad node size, `UNSUPPORTED` when the hierarchical key passes 64
 * bits (a side past 2^28 with some node sizes) and `TOO_LARGE` past the device's buffer limits.
 *
 * @example
 * ```ts
 * const parts = await buildOnGpu(ctx, gpuCsr, 32);
 * const H = await downloadHiSparse(ctx, parts); // equals hisparseFromCsr(A, { nodeSize: 32 })
 * parts.pool.destroy();
 * ```
 */
export async function buildOnGpu(ctx: ScanContext, A: GpuCsrMatrix, nodeSize: number): Promise<GpuHiSparseParts> {
  const d = checkNodeSize(nodeSize, 'nodeSize');
  const levels = levelsFor(A.rows, A.cols, d);
  const shape: BuildShape = { n: A.nnz, rows: A.rows, levels, log2d: Math.log2(d) };
  const state = { storedRows: A.rows, storedCols: A.cols, nodeSize: d, levels, transposed: false, scale: 1 };
  if (A.nnz === 0) {
    const pool = await runGuarded(ctx, 'hisparse build', async () => createPool(ctx, POOL_HEADER_WORDS));
    return { ...state, root: NULL_POINTER, pool, poolWords: POOL_HEADER_WORDS };
  }
  checkBuildable(ctx, A, d);
  return runGuarded(ctx, 'hisparse build', async () => {
    const scratch = createBuildScratch(ctx, A.nnz, levels);
    const exec = new RecipeExecutor(ctx, 'hisparse build', 'A');
    const binning = createLevelBinning(ctx, exec, shape);
    const owned: { destroy(): void }[] = [binning, exec, scratch];
    let returned = false;
    try {
      const roles: Record<string, GPUBuffer> = { ...scratch.roles, rowPtr: A.rowPtr, colIdx: A.colIdx, values: A.values };
      // Pass 1, binning: hierarchical order, then each level's node count, entry count and words.
      const first = ctx.device.createCommandEncoder({ label: 'hisparse build binning' });
      owned.push(...encodeHierarchicalOrder(ctx, exec, first, roles, shape));
      for (let level = 0; level < levels; level++) {
        binning.encode(first, roles, level);
        for (const [k, role] of ['nodeExcl', 'childExcl', 'offsets'].entries()) {
          first.copyBufferToBuffer(roles[role] as GPUBuffer, 4 * A.nnz, scratch.stats, 4 * (3 * level + k), 4);
        }
      }
      const read = encodeReadback(ctx, first, scratch.stats, 0, 12 * levels);
      ctx.device.queue.submit([first.finish()]);
      const stats = new Uint32Array(await read());
      // Bottom-up placement: leaves right after the header, the root last.
      const base = new Array<number>(levels);
      let words = POOL_HEADER_WORDS;
      for (let level = levels - 1; level >= 0; level--) {
        base[level] = words;
        words += stats[3 * level + 2] as number;
      }
      const pool = createPool(ctx, words);
      // Until it is returned the pool is the build's: a failure below frees it too.
      owned.push({ destroy: () => (returned ? undefined : pool.destroy()) });
      // Pass 2, filling: each level is binned again (the scratch holds one level) and filled.
      const second = ctx.device.createCommandEncoder({ label: 'hisparse build filling' });
      roles.pool = pool;
      // Entries of the leaf level: distinct positions, fewer than nnz when some are duplicates.
      const runs = stats[3 * (levels - 1) + 1] as number;
      for (let level = levels - 1; level >= 0; level--) {
        binning.encode(second, roles, level);
        if (level === levels - 1 && runs < A.nnz) owned.push(encodeDuplicateSums(ctx, exec, second, roles, shape, runs));
        encodeLevelFilling(ctx, exec, second, roles, shape, { level, base: base[level] as number, nodes: stats[3 * level] as number });
      }
      ctx.device.queue.submit([second.finish()]);
      // The root is the one node of level 0, at its level's base, typed by its entry count.
      const root = (base[0] as number) | chooseNodeType(stats[1] as number, d);
      returned = true;
      return { ...state, root, pool, poolWords: words };
    } finally {
      // Submitted work keeps what it uses alive; the scratch can go now.
      for (const thing of owned) thing.destroy();
    }
  });
}
