import { type BindingDecl, defineKernel, type ParamFields, type ParamType, read, readWrite, uniform } from './define-kernel.js';
import { AUX_TAIL_IN, AUX_TAIL_OUT } from './slots.js';

/**
 * How one parameter of a block a count fixup fills gets its value, in the fixup's specialization:
 * `'host'` copied from the block the host wrote, or derived from n = min(GPU count, capacity):
 * `'count'` n, `'vec4s'` ⌈n / 4⌉, `'wholeVec4s'` ⌊n / 4⌋, `'ceilDiv'` ⌈n / a[divisor]⌉ (capped at
 * a[max] unless it is -1), `a` being the fixup's argument words.
 *
 * @example
 * ```ts
 * const from: CountFieldSource = 'wholeVec4s'; // ⌊n / 4⌋
 * ```
 */
export type CountFieldSource = 'host' | 'count' | 'vec4s' | 'wholeVec4s' | 'ceilDiv';

/**
 * One field of a block a count fixup fills, in the target kernel's struct order.
 *
 * @example
 * ```ts
 * const tiles: CountFixupField = { name: 'tiles', type: 'u32', from: 'ceilDiv', divisor: 0, max: 1 }; // min(⌈n / a0⌉, a1)
 * ```
 */
export type CountFixupField = {
  readonly name: string;
  readonly type: ParamType;
  readonly from: CountFieldSource;
  /** With `'ceilDiv'`: the argument words of the divisor and of the cap (-1: none). */
  readonly divisor?: number;
  readonly max?: number;
};

/**
 * What a count-fixup kernel is specialized on.
 *
 * @example
 * ```ts
 * const spec: CountFixupSpec = { blocks: [[{ name: 'count', type: 'u32', from: 'count' }]], tail: false, zeroOut: true };
 * ```
 */
export type CountFixupSpec = {
  /**
   * The blocks it fills, each the target kernel's parameter fields in struct order (arrays, so the
   * order is part of the key). A block with a field from `'host'` binds the block the host wrote.
   */
  readonly blocks: readonly (readonly CountFixupField[])[];
  /** Copy the input's partial last vec4 into aux (a slot kernel's "tail in", which the host cannot stage for a count it does not know). */
  readonly tail: boolean;
  /** Write 0 to a count output when the count is 0 (no tile runs then, so the kernel that normally writes it does not). */
  readonly zeroOut: boolean;
};

/**
 * Words between the blocks a fixup writes: uniform bindings start at multiples of 256 bytes.
 *
 * @example
 * ```ts
 * const offset = 4 * COUNTED_BLOCK_WORDS * 2; // block 2's byte offset in the `counted` scratch
 * ```
 */
export const COUNTED_BLOCK_WORDS = 64;
/**
 * Blocks one fixup fills at most (a uniform binding each, within WebGPU's default 12 per stage).
 *
 * @example
 * ```ts
 * const fits = (blocks: number) => blocks <= MAX_COUNTED_BLOCKS;
 * ```
 */
export const MAX_COUNTED_BLOCKS = 8;
/**
 * Argument words of a fixup (divisors and caps of `'ceilDiv'` fields), after `count_word` and `capacity`.
 *
 * @example
 * ```ts
 * const fits = (distinctDivisorsAndCaps: number) => distinctDivisorsAndCaps <= COUNT_FIXUP_ARGS;
 * ```
 */
export const COUNT_FIXUP_ARGS = 6;

/** The binding name of the host block of block `i`. */
function hostBinding(i: number): string {
  return `host${i}`;
}

/**
 * Whether a block binds the block the host wrote (some field is copied from it).
 *
 * @example
 * ```ts
 * countedBlockReadsHost([{ name: 'count', type: 'u32', from: 'count' }]); // false: the fixup writes the whole block
 * ```
 */
export function countedBlockReadsHost(fields: readonly CountFixupField[]): boolean {
  return fields.some((f) => f.from === 'host');
}

/**
 * **Count fixup**: turns a count the GPU wrote (a culling pass, a previous pack) into the parameter
 * blocks of the kernels that follow, in a uniform scratch (`counted`, a block every 256 bytes) those
 * kernels bind as their `params`. Each block is specialized on its target kernel's fields by name
 * and in struct order: a field is copied from the block the host wrote for it (`host<i>`, declared
 * as a struct of the target's fields) or derived from n = min(`count_src[params.count_word]`,
 * `params.capacity`); each field's word follows from its place in the target's list, never from a
 * position written by hand. The plan records its kernels for `maxCount` — dispatched for the most
 * tiles, each kernel returning past the count its parameters hold — so nothing on the host depends on
 * the count, and no read-back or indirect dispatch is needed. It also stages the partial last vec4
 * (`tail`), as the host's copies do for a known count, and zeroes a count output when the count is 0
 * (`zeroOut`). See `recordCountFixup`, which makes the specialization from the kernels.
 *
 * Bindings: the caller's count buffer `count_src`, the blocks it writes `counted`, the input as
 * words `src_words` and `aux` (`tail`), the count output `count_out` (`zeroOut`), then `host0`,
 * `host1`, … (the blocks that copy fields from the host). Parameters: `count_word`, `capacity` and
 * the argument words `a0`–`a5`.
 *
 * @example
 * ```ts
 * const spec: CountFixupSpec = { blocks: [[{ name: 'count', type: 'u32', from: 'count' }]], tail: false, zeroOut: false };
 * b.dispatch(countFixupKernel(spec), { count_src: count, counted }, 1, { count_word: 0, capacity: 4096, a0: 0, a1: 0, a2: 0, a3: 0, a4: 0, a5: 0 });
 * ```
 */
export const countFixupKernel = defineKernel({
  name: 'core/gpu-count-fixup',
  bindings: (spec: CountFixupSpec) => {
    const bindings: Record<string, BindingDecl | undefined> = {
      count_src: read('array<u32>'),
      counted: readWrite('array<u32>'),
      src_words: spec.tail ? read('array<u32>') : undefined,
      aux: spec.tail ? readWrite('array<u32>') : undefined,
      count_out: spec.zeroOut ? readWrite('array<u32>') : undefined,
    };
    spec.blocks.forEach((fields, i) => {
      if (!countedBlockReadsHost(fields)) return;
      const struct: Record<string, ParamType> = {};
      for (const f of fields) struct[f.name] = f.type;
      bindings[hostBinding(i)] = uniform(`Host${i}`, struct as ParamFields);
    });
    return bindings;
  },
  // Where the count is in the caller's buffer (in u32 words); the plan's maxCount, to which it is
  // clamped; the divisors and caps of the fields derived by `ceilDiv`.
  params: { count_word: 'u32', capacity: 'u32', a0: 'u32', a1: 'u32', a2: 'u32', a3: 'u32', a4: 'u32', a5: 'u32' },
  wgsl: (spec) => {
    const arg = (i: number | undefined) => `params.a${i ?? 0}`;
    const derive = (f: CountFixupField, block: number): string => {
      switch (f.from) {
        case 'host':
          return `bitcast<u32>(${hostBinding(block)}.${f.name})`;
        case 'count':
          return 'n';
        case 'vec4s':
          return 'ceil_div(n, 4u)';
        case 'wholeVec4s':
          return 'n / 4u';
        case 'ceilDiv':
          return f.max === undefined || f.max < 0 ? `ceil_div(n, ${arg(f.divisor)})` : `min(ceil_div(n, ${arg(f.divisor)}), ${arg(f.max)})`;
      }
    };
    const blocks = spec.blocks
      .map((fields, block) =>
        fields
          .map((f, i) => `  counted[${block * COUNTED_BLOCK_WORDS + i}u] = ${derive(f, block)}; // block ${block}: ${f.name} (${f.from})`)
          .join('\n'),
      )
      .join('\n');
    return `
// ⌈a / b⌉ without overflow.
fn ceil_div(a: u32, b: u32) -> u32 { return select(0u, (a - 1u) / b + 1u, a > 0u); }

@compute @workgroup_size(1)
fn main() {
  let n = min(count_src[params.count_word], params.capacity);
${blocks}
  ${spec.tail ? `let full = n / 4u;\n  for (var i = 0u; i < n - 4u * full; i++) { aux[${AUX_TAIL_IN}u + i] = src_words[4u * full + i]; }` : ''}
  ${spec.zeroOut ? 'if (n == 0u) { count_out[0] = 0u; }' : ''}
}
`;
  },
});

/** What the tail out is specialized on: both optional, so `{}` is the slot kernels' form. */
export interface TailOutSpec {
  /** 32-bit words per element (default 1): the operator kernels' records of several words. */
  readonly words?: number;
  /** Where in `aux` the staged words start (default `AUX_TAIL_OUT`, the slot view's place). */
  readonly from?: number;
}

/**
 * **Tail out** for a count the GPU wrote: copies the words past the last whole vec4 that a kernel
 * left in aux (the slot view's partial last vec4, or an operator kernel's last 1–3 words of records
 * of `words` words) into the output's last `(count · words) mod 4` words (the host's copy, for a
 * count it does not know).
 *
 * Bindings: `aux`, the output as words `dst_words`; its one parameter, `count`, is a block a count
 * fixup fills (see `tailOutParams`).
 *
 * @example
 * ```ts
 * b.dispatch(tailOutKernel({}), { aux, dst_words: output }, 1, counted);
 * b.dispatch(tailOutKernel({ words: 3, from: 0 }), { aux: tail, dst_words: output }, 1, counted); // records of 3 words
 * ```
 */
export const tailOutKernel = defineKernel({
  name: 'core/gpu-count-tail-out',
  bindings: { aux: read('array<u32>'), dst_words: readWrite('array<u32>') },
  params: { count: 'u32' },
  wgsl: (spec: TailOutSpec) => `
@compute @workgroup_size(1)
fn main() {
  let words = params.count * ${spec.words ?? 1}u;
  let full = words / 4u;
  for (var i = 0u; i < words - 4u * full; i++) {
    dst_words[4u * full + i] = aux[${spec.from ?? AUX_TAIL_OUT}u + i];
  }
}
`,
});
