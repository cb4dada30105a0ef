/**
 * `count` copies of `body(k)`, one per line: loop unrolling done by the generator. Per-invocation
 * arrays indexed by a loop variable may land in local memory; constant indices keep them in
 * registers.
 *
 * @example
 * ```ts
 * unroll(2, (k) => `vals[${k}] = load_slot(base + ${k}u);`);
 * // "vals[0] = load_slot(base + 0u);\nvals[1] = load_slot(base + 1u);"
 * ```
 */
export function unroll(count: number, body: (k: number) => string): string {
  return Array.from({ length: count }, (_, k) => body(k)).join('\n');
}
