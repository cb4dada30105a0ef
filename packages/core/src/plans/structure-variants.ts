import { type Recipe, structureKeyOf } from './recipe.js';

/**
 * Every structure one encode path of a plan may take, whatever the count: what the executor makes
 * bind groups for the first time that path meets a set of buffers, so that a later count which
 * switches structure (a small-count kernel, a partial last vec4 read in place, another recursion
 * level or chunk) finds its bind groups made. Without it, the first encode of each structure would
 * make them, and a frame loop would create bind groups whenever a count first crossed a threshold.
 *
 * The plan lists recipes (of counts that together take every structure); each is filed under its
 * derived structure key ({@link structureKeyOf}), so recipes of one structure count once. The list
 * is built on first use (a plan that is never encoded builds none) and kept: the recipes are small
 * JavaScript objects, and the plan's parameters never come from them.
 *
 * @example
 * ```ts
 * declare function build(count: number): Recipe; // the plan's recipe of a count
 * declare const exec: RecipeExecutor, roles: Record<string, GPUBuffer>, count: number; // the plan's executor, buffers and count
 * const variants = new StructureVariants(() => [1, 5000].map(build));
 * exec.encode(encoder, () => build(count), roles, variants);
 * ```
 */
export class StructureVariants {
  private built: readonly KeyedVariant[] | undefined;

  constructor(private readonly list: () => readonly Recipe[]) {}

  /** The variants, each under its structure key, without repeats. */
  get variants(): readonly KeyedVariant[] {
    if (!this.built) {
      const byKey = new Map<string, KeyedVariant>();
      for (const recipe of this.list()) {
        const key = structureKeyOf(recipe);
        if (!byKey.has(key)) byKey.set(key, { key, recipe, roles: rolesOf(recipe) });
      }
      this.built = [...byKey.values()];
    }
    return this.built;
  }
}

/** A variant under its structure key, with the caller's roles its recipe binds. */
export interface KeyedVariant {
  readonly key: string;
  /** A recipe of that structure, for any count that takes it (its parameters are not used). */
  readonly recipe: Recipe;
  readonly roles: readonly string[];
}

/** The caller's roles the dispatches of `recipe` bind. */
function rolesOf(recipe: Recipe): string[] {
  const roles = new Set<string>();
  for (const step of recipe.steps) {
    if (step.kind !== 'dispatch') continue;
    for (const ref of Object.values(step.bindings)) if (ref && 'role' in ref) roles.add(ref.role);
  }
  return [...roles];
}

/**
 * Chunks whose counts {@link representativeCounts} lists. Past them a count that first takes more
 * chunks makes that layout's bind groups then: a plan whose counts span more than this many
 * chunks (2^30 elements in the default chunks of one binding) would otherwise list millions of
 * counts (with a small `maxChunkElements`), and hold more structures than the executor keeps.
 */
const MAX_CHUNKS = 4;

/**
 * Counts that together take every structure a plan's host counts up to `largest` may take: both
 * sides of every power of two (where the tiers, the recursion levels and the workgroup shapes of the
 * plans change), in each of the first `MAX_CHUNKS` (4) chunks of `chunkElements`, and the counts
 * next to the chunk boundaries — odd and even, so that both tail paths appear.
 *
 * @example
 * ```ts
 * representativeCounts(4096, 1 << 28); // [1, 2, 3, 4, 5, 7, 8, 9, …, 4095, 4096]
 * ```
 */
export function representativeCounts(largest: number, chunkElements: number): number[] {
  const counts = new Set<number>();
  const chunks = Math.min(MAX_CHUNKS, Math.max(1, Math.ceil(largest / chunkElements)));
  for (let k = 0; k < chunks; k++) {
    const base = k * chunkElements;
    for (let p = 1; p <= chunkElements; p *= 2) for (const d of [-1, 0, 1]) counts.add(base + p + d);
    for (const d of [-2, -1, 0]) counts.add(base + chunkElements + d);
  }
  return [...counts].filter((n) => n >= 1 && n <= largest).sort((a, b) => a - b);
}
