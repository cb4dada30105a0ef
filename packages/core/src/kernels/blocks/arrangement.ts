import type { BlockOp } from '../group-scan.js';
// What the blocks share: where each item an invocation holds sits in the tile (the arrangement),
// how its elements are named, and the checks every block makes of its shape.

/**
 * Where item `k` of an invocation sits in a tile of `workgroupSize × itemsPerThread` items, for the
 * invocation of rank `group · gsize + lane` (its group, lane and group size from
 * `groupIdentityWgsl`; without subgroups the workgroup is one group and the rank is the local index):
 * - `'blocked'`: the invocation's items are consecutive, `rank · K + k` (CUB's blocked arrangement;
 *   each invocation scans its own run first);
 * - `'striped'`: item k of every invocation forms a consecutive run, `k · workgroupSize + rank`
 *   (coalesced loads and stores);
 * - `'group-striped'`: striped within each group's run of `gsize × K` items,
 *   `group · gsize · K + k · gsize + lane` (CUB's warp-striped: coalesced, and scanned with
 *   subgroup operations alone until the groups combine; the arrangement of core's tile kernels).
 *
 * The rank, not `local_invocation_index`, orders the invocations because WebGPU does not promise
 * that a subgroup is made of consecutive invocations.
 *
 * @example
 * ```ts
 * const arrangement: TileArrangement = 'group-striped';
 * ```
 */
export type TileArrangement = 'blocked' | 'striped' | 'group-striped';

/**
 * The tile position (a WGSL u32) of item `k` (a WGSL u32), in the scope of a block function that
 * has `group`, `lane` and `gsize`.
 *
 * @example
 * ```ts
 * positionWgsl('striped', 256, 4, '2u'); // '2u * 256u + group * gsize + lane'
 * ```
 */
export function positionWgsl(arrangement: TileArrangement, workgroupSize: number, K: number, k: string): string {
  switch (arrangement) {
    case 'blocked':
      return `(group * gsize + lane) * ${K}u + ${k}`;
    case 'striped':
      return `${k} * ${workgroupSize}u + group * gsize + lane`;
    case 'group-striped':
      return `group * gsize * ${K}u + ${k} * gsize + lane`;
  }
}

/**
 * The WGSL name of element `c` of item `k` of the array `a` (an item is a scalar, or a vec4 of 4).
 *
 * @example
 * ```ts
 * elementOf('items', 1, 2, true); // 'items[1].z'
 * ```
 */
export function elementOf(a: string, k: number, c: number, vec4: boolean): string {
  return vec4 ? `${a}[${k}].${'xyzw'[c]}` : `${a}[${k}]`;
}

/**
 * Indices `0 … count−1`, or from the last, `backward`: the order in which a block visits items.
 *
 * @example
 * ```ts
 * order(3, true); // [2, 1, 0]
 * ```
 */
export function order(count: number, backward: boolean): number[] {
  const ks = Array.from({ length: count }, (_, k) => k);
  return backward ? ks.reverse() : ks;
}

/**
 * Bytes one value of a WGSL scalar or vector type takes in workgroup memory (for `workgroupBytes`).
 *
 * @example
 * ```ts
 * wgslTypeBytes('vec2<f32>'); // 8
 * ```
 */
export function wgslTypeBytes(type: string): number {
  const scalar: Record<string, number> = { u32: 4, i32: 4, f32: 4, f16: 2 };
  const s = scalar[type];
  if (s !== undefined) return s;
  const m = /^vec([234])<(u32|i32|f32|f16)>$/.exec(type);
  if (m) {
    const n = Number(m[1]);
    const size = scalar[m[2] as string] as number;
    // vec3 is aligned (and strided in arrays) like vec4.
    return (n === 3 ? 4 : n) * size;
  }
  throw new Error(`internal error: the blocks do not know the size of WGSL type "${type}"`);
}

/**
 * Bytes one value of a block's operator takes in workgroup memory: its scalar or vector type's, or
 * a record's struct laid out by WGSL's rules (each member at a multiple of its alignment, the size
 * a multiple of the largest alignment).
 *
 * @example
 * ```ts
 * valueBytes({ type: 'ArgMax', identity: 'argmax_id()', combine: (a, b) => `argmax(${a}, ${b})`,
 *   fields: [{ name: 'value', type: 'f32' }, { name: 'index', type: 'u32' }] }); // 8
 * ```
 */
export function valueBytes(op: BlockOp): number {
  if (!op.fields) return wgslTypeBytes(op.type);
  let offset = 0;
  let align = 1;
  for (const field of op.fields) {
    const size = wgslTypeBytes(field.type);
    // vec3 aligns like vec4; every other allowed type aligns to its own size.
    const a = size;
    offset = Math.ceil(offset / a) * a + size;
    align = Math.max(align, a);
  }
  return Math.ceil(offset / align) * align;
}

/**
 * Throws (a generator bug) when a block's name or shape cannot make valid WGSL.
 *
 * @example
 * ```ts
 * checkShape('blockScan', 'tile_scan', 256, 4);
 * ```
 */
export function checkShape(block: string, name: string, workgroupSize: number, itemsPerThread: number): void {
  if (!/^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$/.test(name) || name.startsWith('__')) {
    throw new Error(`internal error: ${block} name "${name}" is not a WGSL identifier prefix`);
  }
  if (!Number.isInteger(workgroupSize) || workgroupSize < 1 || (workgroupSize & (workgroupSize - 1)) !== 0) {
    throw new Error(`internal error: ${block} "${name}": workgroup size ${workgroupSize} is not a power of two`);
  }
  if (!Number.isInteger(itemsPerThread) || itemsPerThread < 1) {
    throw new Error(`internal error: ${block} "${name}": ${itemsPerThread} items per invocation`);
  }
}

/** What a block that combines a tile's items (a block reduce or scan) is specialized on. */
export interface BlockCombineSpec {
  /** Prefix of its WGSL names. */
  readonly name: string;
  readonly op: BlockOp;
  /** Subgroup operations within each subgroup (its width read at run time); else workgroup memory. */
  readonly subgroups: boolean;
  /** A power of two. */
  readonly workgroupSize: number;
  /** Items per invocation of the `_items` functions (default 1). */
  readonly itemsPerThread?: number;
  /** How the items lie in the tile (default `'blocked'`); the order of combination follows it. */
  readonly arrangement?: TileArrangement;
  /** Items are `vec4<type>`, four consecutive elements each (the slot view's items). */
  readonly vec4?: boolean;
  /** Combine from the tile's last element to its first (only matters for an operator that does not commute). */
  readonly backward?: boolean;
}
