import type { ScanContext } from '@scan/core';
import { defineKernel, read, readWrite } from '@scan/core/kit';
import type { CheckOutcome } from '../../child/device-ops.js';
import { runCheck } from '../../child/device-ops.js';
import { type BufferPool, encodeKernel, submitAndWait } from '../../child/gpu.js';
import { COMMON_WGSL, ENTRY_ARGS, ERROR_BINDING, ERROR_WGSL, WG } from '../../child/kernels/common.js';
import { HASH_WGSL } from '../../child/kernels/fill.js';
import { CHECKSUM_WORDS, checksumCompareKernel, rankWgsl } from '../../child/kernels/sort-checks.js';
import { sortKeysKernel } from '../../child/kernels/sort-keys.js';

// The sorts of keys other than 32 bits (u64, u16, f16) and of values wider than 4 bytes: their
// input generated on the GPU and their checks, written here (not taken from `@scan/sort`) so that a
// bug in the library's key order cannot hide in its own verification. The 32-bit key, 4-byte value
// cases keep the checks of `sort-checks.ts` (sort-data.ts).

/** Key types of the sort cases: the element types, and 64- and 16-bit keys. */
export type SortKeyName = 'u32' | 'i32' | 'f32' | 'u64' | 'u16' | 'f16';

/** Bytes of one key of `type`. */
export function keyBytesOfName(type: SortKeyName): 2 | 4 | 8 {
  return type === 'u64' ? 8 : type === 'u16' || type === 'f16' ? 2 : 4;
}

/**
 * Bytes a one-sweep radix sort of n keys moves in the bench's model: the histogram reads the keys,
 * then one pass per 8-bit digit of the key reads and writes the keys and the values. u32 keys with
 * 4-byte values: 4n + 4 · 2 · 8n = 68n (`sort-pairs`' 17·n·4); u16 keys alone 2n + 2 · 2 · 2n = 10n.
 *
 * @example
 * ```ts
 * sortBytes('u64', 0, 1 << 20); // 8n + 8 · 2 · 8n
 * ```
 */
export function sortBytes(type: SortKeyName, valueBytes: number, n: number): number {
  const key = keyBytesOfName(type);
  const passes = (8 * key) / 8;
  return n * key + passes * 2 * n * (key + valueBytes);
}

/** WGSL `fn BINDING_at(i) -> vec2<u32>`: key i's bits (low word, high word), 16-bit keys from their half word. */
function keyOrderWgsl(type: SortKeyName, binding: string): string {
  if (type === 'u64') {
    return `fn ${binding}_at(i: u32) -> vec2<u32> { return vec2<u32>(${binding}[2u * i], ${binding}[2u * i + 1u]); }`;
  }
  if (type === 'u16' || type === 'f16') {
    return `fn ${binding}_at(i: u32) -> vec2<u32> { return vec2<u32>((${binding}[i >> 1u] >> ((i & 1u) * 16u)) & 0xffffu, 0u); }`;
  }
  return `fn ${binding}_at(i: u32) -> vec2<u32> { return vec2<u32>(${binding}[i], 0u); }`;
}

/**
 * WGSL `fn order(k) -> vec2<u32>`: a key's order as (low, high), compared high word first — u64 by
 * its words, f16 in f32's total order on 16 bits (NaNs equal and last), 32-bit keys by `rankWgsl`.
 */
function orderWgsl(type: SortKeyName, descending: boolean): string {
  if (type === 'u64') {
    const f = descending ? ' ^ vec2<u32>(0xffffffffu)' : '';
    return `fn order(k: vec2<u32>) -> vec2<u32> { return k${f}; }`;
  }
  if (type === 'u16') return `fn order(k: vec2<u32>) -> vec2<u32> { return vec2<u32>(k.x${descending ? ' ^ 0xffffu' : ''}, 0u); }`;
  if (type === 'f16') {
    return `fn order(k: vec2<u32>) -> vec2<u32> {
  var r = k.x | 0x8000u;
  if ((k.x & 0x8000u) != 0u) { r = ~k.x & 0xffffu; }
  if ((k.x & 0x7fffu) > 0x7c00u) { r = 0xffffu; }
  return vec2<u32>(r${descending ? ' ^ 0xffffu' : ''}, 0u);
}`;
  }
  return `${rankWgsl(type, descending)}
fn order(k: vec2<u32>) -> vec2<u32> { return vec2<u32>(rank(k.x), 0u); }`;
}

/** Whether order a comes after order b (high word first). */
const AFTER_WGSL = 'fn after(a: vec2<u32>, b: vec2<u32>) -> bool { return a.y > b.y || (a.y == b.y && a.x > b.x); }';

/**
 * The check of a sort of any key type and value width: keys in order; with values (records of
 * `valueWords` words, each word the record's original index), every word of the record the same
 * index v < n, the unsorted key v equal to the key, and equal keys in increasing v (stability).
 */
export const wideSortCheckKernel = defineKernel({
  name: 'bench/check-sort-wide',
  bindings: (spec: { type: SortKeyName; descending: boolean; valueWords: number }) => ({
    keys: read('array<u32>'),
    vals: spec.valueWords > 0 ? read('array<u32>') : undefined,
    original: spec.valueWords > 0 ? read('array<u32>') : undefined,
    ...ERROR_BINDING,
  }),
  params: { n: 'u32' },
  wgsl: (spec) => {
    const W = spec.valueWords;
    return `${COMMON_WGSL}${ERROR_WGSL}
${keyOrderWgsl(spec.type, 'keys')}
${W > 0 ? keyOrderWgsl(spec.type, 'original') : ''}
${orderWgsl(spec.type, spec.descending)}
${AFTER_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i >= params.n) { return; }
  let k = keys_at(i);${
    W > 0
      ? `
  let v = vals[i * ${W}u];
  for (var c = 1u; c < ${W}u; c++) { if (vals[i * ${W}u + c] != v) { mismatch(i); return; } }
  if (v >= params.n) { mismatch(i); return; }
  if (any(original_at(v) != k)) { mismatch(i); return; }`
      : ''
  }
  if (i == 0u) { return; }
  let a = order(keys_at(i - 1u));
  let b = order(k);
  if (after(a, b)) { mismatch(i); return; }${W > 0 ? `\n  if (all(a == b) && vals[(i - 1u) * ${W}u] >= v) { mismatch(i); }` : ''}
}
`;
  },
});

/** The multiset checksum of keys of any type (keys-only sorts: the order alone proves no permutation). */
export const wideChecksumKernel = defineKernel({
  name: 'bench/sort-checksum-wide',
  bindings: (_spec: { type: SortKeyName }) => ({
    keys: read('array<u32>'),
    sums: readWrite(`array<atomic<u32>, ${CHECKSUM_WORDS}>`),
  }),
  params: { n: 'u32', salt: 'u32' },
  wgsl: (spec) => `${COMMON_WGSL}${HASH_WGSL}
${keyOrderWgsl(spec.type, 'keys')}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) {
    let k = keys_at(i);
    let h = pcg(k.x ^ pcg(k.y ^ params.salt));
    atomicAdd(&sums[0], h);
    atomicXor(&sums[1], pcg(h + 0x632be5abu));
    atomicAdd(&sums[2], pcg(h ^ 0x7f4a7c15u));
  }
}
`,
});

/** Values of `words` words a record, each word its record's index. */
export const recordIotaKernel = defineKernel({
  name: 'bench/record-iota',
  bindings: { out: readWrite('array<u32>') },
  params: { n: 'u32', words: 'u32' },
  wgsl: () => `${COMMON_WGSL}
@compute @workgroup_size(${WG}) fn main(${ENTRY_ARGS}) {
  let i = global_index(wid, nwg, lid);
  if (i < params.n) { for (var c = 0u; c < params.words; c++) { out[i * params.words + c] = i; } }
}
`,
})({});

/** The GPU data of a wide sort case (see `SortData` in sort-data.ts). */
export interface WideSortData {
  readonly keys: GPUBuffer;
  readonly original: GPUBuffer;
  readonly values?: GPUBuffer;
  /** Words of the keys' buffer. */
  readonly keyWords: number;
  restore(encoder: GPUCommandEncoder): void;
  verify(): Promise<CheckOutcome>;
}

/**
 * Generates the input of a sort of `type` keys (random bits: every u16 and f16 pattern, NaNs
 * included) and, with `valueWords` > 0, records of that many words (each its index), restored
 * before every run; builds the checks ({@link wideSortCheckKernel}, and for keys only the checksum).
 *
 * @example
 * ```ts
 * const d = await prepareWideSortData(ctx, pool, { n, seed, type: 'u16', descending: false }, 4);
 * ```
 */
export async function prepareWideSortData(
  ctx: ScanContext,
  pool: BufferPool,
  c: { readonly n: number; readonly seed: number; readonly type: SortKeyName; readonly descending: boolean },
  valueWords: number,
): Promise<WideSortData> {
  const n = c.n;
  const keyWords = Math.ceil((keyBytesOfName(c.type) * n) / 4);
  const original = pool.storage(4 * keyWords, 'sort original keys');
  const keys = pool.storage(4 * keyWords, 'sort keys');
  const values = valueWords > 0 ? pool.storage(4 * valueWords * n, 'sort values') : undefined;
  const iotaParams = pool.params(recordIotaKernel, { n, words: valueWords });
  const restore = (encoder: GPUCommandEncoder) => {
    encoder.copyBufferToBuffer(original, 0, keys, 0, 4 * keyWords);
    if (values) encodeKernel(ctx, encoder, recordIotaKernel, { out: values, params: iotaParams }, { invocations: n });
  };
  const setup = ctx.device.createCommandEncoder();
  const generate = sortKeysKernel({ type: 'u32' });
  encodeKernel(
    ctx,
    setup,
    generate,
    { out: original, params: pool.params(generate, { n: keyWords, seed: c.seed + 0x50a7 }) },
    { invocations: keyWords },
  );
  restore(setup);
  await submitAndWait(ctx, setup);
  const check = wideSortCheckKernel({ type: c.type, descending: c.descending, valueWords });
  const checkParams = pool.params(check, { n });
  const checksum = wideChecksumKernel({ type: c.type });
  const checksumParams = pool.params(checksum, { n, salt: 0x2545f491 });
  let want: GPUBuffer | undefined;
  let got: GPUBuffer | undefined;
  const encodeChecksum = (encoder: GPUCommandEncoder, of: GPUBuffer, sums: GPUBuffer) => {
    encoder.clearBuffer(sums);
    encodeKernel(ctx, encoder, checksum, { keys: of, sums, params: checksumParams }, { invocations: n });
  };
  if (!values) {
    want = pool.storage(4 * CHECKSUM_WORDS, 'sort checksum of the input');
    got = pool.storage(4 * CHECKSUM_WORDS, 'sort checksum of the output');
    const sums = ctx.device.createCommandEncoder();
    encodeChecksum(sums, original, want);
    await submitAndWait(ctx, sums);
  }
  return {
    keys,
    original,
    keyWords,
    ...(values ? { values } : {}),
    restore,
    verify: () =>
      runCheck(ctx, pool, (encoder, errors) => {
        const pairs = values ? { vals: values, original } : {};
        encodeKernel(ctx, encoder, check, { keys, ...pairs, err: errors, params: checkParams }, { invocations: n });
        if (want && got) {
          encodeChecksum(encoder, keys, got);
          encodeKernel(ctx, encoder, checksumCompareKernel, { got, want, err: errors }, { groups: 1 });
        }
      }),
  };
}
