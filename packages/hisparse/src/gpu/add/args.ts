import { ScanError } from '@scan/core';
import { invalidArgument } from '@scan/core/kit';
import { MAX_NODE_SIZE, MIN_NODE_SIZE } from '../../format/layout.js';
import type { GpuHiSparseParts } from '../parts.js';

// Argument checks of the GPU add, worded as the CPU `hisparseAdd` words them (same codes, same
// argument names), so that a caller sees one message whichever side computed the sum.

/**
 * Checks that `X` looks like a {@link GpuHiSparseParts} (a pool buffer and a plausible state) and
 * returns it typed.
 *
 * @example
 * ```ts
 * const a = checkGpuOperand(A, 'A');
 * checkGpuOperand({}, 'B'); // throws: B = Object: expected a GPU HiSparse matrix (from uploadHiSparse or addOnGpu)
 * ```
 */
export function checkGpuOperand(X: unknown, argument: string): GpuHiSparseParts {
  const x = X as Partial<GpuHiSparseParts> | null;
  const d = x?.nodeSize;
  const ok =
    x !== null &&
    typeof x === 'object' &&
    typeof x.pool === 'object' &&
    x.pool !== null &&
    typeof x.pool.size === 'number' &&
    typeof d === 'number' &&
    d >= MIN_NODE_SIZE &&
    d <= MAX_NODE_SIZE &&
    (d & (d - 1)) === 0 &&
    Number.isInteger(x.levels) &&
    Number.isInteger(x.root) &&
    Number.isInteger(x.poolWords) &&
    Number.isInteger(x.storedRows) &&
    Number.isInteger(x.storedCols) &&
    typeof x.scale === 'number';
  if (!ok) invalidArgument(argument, X, 'expected a GPU HiSparse matrix (from uploadHiSparse or addOnGpu)');
  return X as GpuHiSparseParts;
}

/** Rows and columns of the logical matrix (the state's transposition applied). */
export function logicalShape(x: GpuHiSparseParts): { rows: number; cols: number } {
  return x.transposed ? { rows: x.storedCols, cols: x.storedRows } : { rows: x.storedRows, cols: x.storedCols };
}

/**
 * C = A + B needs equal logical shapes and one node size (the joint traversal pairs nodes level
 * by level); both are refused with `INVALID_ARGUMENT`, as the CPU reference refuses them.
 *
 * @example
 * ```ts
 * checkAddOperands(A, B); // throws: B = 3×4 matrix: shape does not match A = 4×3 (C = A + B needs equal shapes)
 * ```
 */
export function checkAddOperands(a: GpuHiSparseParts, b: GpuHiSparseParts): void {
  const sa = logicalShape(a);
  const sb = logicalShape(b);
  if (sa.rows !== sb.rows || sa.cols !== sb.cols) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      `B = ${sb.rows}×${sb.cols} matrix: shape does not match A = ${sa.rows}×${sa.cols} (C = A + B needs equal shapes)`,
      { argument: 'B' },
    );
  }
  if (a.nodeSize !== b.nodeSize) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      `B.nodeSize = ${b.nodeSize}: does not match A.nodeSize = ${a.nodeSize} (the joint traversal needs one node size)`,
      { argument: 'B.nodeSize' },
    );
  }
}
