import type { ElementType } from '../element-types.js';
import { orderBitsOf, orderBitsWgsl } from '../key-order.js';
import { defineOperator } from './define-operator.js';
import type { Operator } from './operator-type.js';

/** A record of the arg-min/max reduction: an element and its index in the array. */
export interface ArgRecord {
  value: number;
  index: number;
}

/** Which extremum: the least element or the greatest. */
export type ArgExtremum = 'min' | 'max';

/** The identity's index: no element has it (an array has fewer than 2^32 − 1 elements). */
export const NO_INDEX = 0xffffffff;

const cache = new Map<string, Operator<ArgRecord>>();

/**
 * The (value, index) operator of `argMin` / `argMax` on `type`: of two records, the one whose value
 * comes first (min) or last (max) in core's element order (`orderBitsOf`: f32 −∞ < … < −0 < +0 <
 * … < +∞ < NaN, every NaN equal), the lower index among equal values. A record with index
 * `NO_INDEX` is the identity and loses to any other. It is a minimum under a total order of the
 * records (no two share an index), so it is associative and commutes, as the indexed reduction
 * needs. One object per (type, which), so pipelines are cached.
 *
 * @example
 * ```ts
 * const op = argExtremumOperator('f32', 'max');
 * op.cpu({ value: 1, index: 3 }, { value: 1, index: 2 }); // { value: 1, index: 2 }
 * ```
 */
export function argExtremumOperator(type: ElementType, which: ArgExtremum): Operator<ArgRecord> {
  const key = `${which}/${type}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const bitsWgsl = (v: string) => (type === 'u32' ? v : `bitcast<u32>(${v})`);
  const better = which === 'min' ? '<' : '>';
  const order = orderBitsOf(type);
  const word = new DataView(new ArrayBuffer(4));
  const bits = (v: number) => {
    if (type === 'f32') word.setFloat32(0, v, true);
    else if (type === 'i32') word.setInt32(0, v, true);
    else word.setUint32(0, v, true);
    return word.getUint32(0, true);
  };
  const op = defineOperator<ArgRecord>({
    type: { value: type, index: 'u32' },
    identity: { value: 0, index: NO_INDEX },
    // One return (see operatorSubgroups): b wins when it holds an element and a does not, or b
    // is better, or as good at a lower index.
    wgsl: `let ba = ${bitsWgsl('a.value')};
let bb = ${bitsWgsl('b.value')};
let ka = ${orderBitsWgsl(type, 'ba')};
let kb = ${orderBitsWgsl(type, 'bb')};
let b_wins = b.index != 0xffffffffu && (a.index == 0xffffffffu || kb ${better} ka || (kb == ka && b.index < a.index));
var r = a;
if (b_wins) { r = b; }
return r;`,
    cpu: (a, b) => {
      if (a.index === NO_INDEX) return b;
      if (b.index === NO_INDEX) return a;
      const ka = order(bits(a.value));
      const kb = order(bits(b.value));
      return (which === 'min' ? kb < ka : kb > ka) || (kb === ka && b.index < a.index) ? b : a;
    },
    name: `arg${which} ${type}`,
  });
  cache.set(key, op);
  return op;
}
