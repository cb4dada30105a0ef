/** Options of {@link edgeSizes}. */
export interface EdgeSizeOptions {
  /** Add 2^22 + 1 (for runs on a real GPU; `SCAN_TEST_LARGE=1`). */
  large?: boolean;
}

/**
 * The sizes every GPU operation is tested at, sorted and unique: 0–5, 7, 8; one tile and its
 * neighbours (`tile − 1`, `tile`, `tile + 1`, `2·tile ± 1`, `5·tile + 3`: partial last tiles and
 * several tiles); powers of two and their neighbours up to 2^16 (vec4 tails, subgroup and workgroup
 * boundaries); and 2^20 + 3, past 2^20 and not a multiple of any tile. `large` adds 2^22 + 1.
 *
 * @example
 * ```ts
 * for (const n of edgeSizes(1024, { large: process.env.SCAN_TEST_LARGE === '1' })) { ... }
 * ```
 */
export function edgeSizes(tile: number, options: EdgeSizeOptions = {}): number[] {
  if (!Number.isSafeInteger(tile) || tile < 1) throw new Error(`edgeSizes: tile = ${tile} is not a positive integer`);
  const sizes = [0, 1, 2, 3, 4, 5, 7, 8, tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1, 5 * tile + 3, 2 ** 20 + 3];
  for (let k = 1; k <= 16; k++) sizes.push(2 ** k - 1, 2 ** k, 2 ** k + 1);
  if (options.large) sizes.push(2 ** 22 + 1);
  return [...new Set(sizes.filter((n) => n >= 0))].sort((a, b) => a - b);
}

/**
 * Whether large sizes were asked for (`SCAN_TEST_LARGE=1` in Node, or a `SCAN_TEST_LARGE` global
 * that a browser test setup defines).
 *
 * @example
 * ```ts
 * const sizes = edgeSizes(tile, { large: largeSizesRequested() });
 * ```
 */
export function largeSizesRequested(): boolean {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> }; SCAN_TEST_LARGE?: unknown };
  return g.process?.env?.['SCAN_TEST_LARGE'] === '1' || g.SCAN_TEST_LARGE === true || g.SCAN_TEST_LARGE === '1';
}
