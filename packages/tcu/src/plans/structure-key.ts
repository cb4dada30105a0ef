import type { BufferRef, NamedBindings, Recipe } from '@scan/core/kit';

/**
 * The structure key of a tcu recipe (see core's `RecipeExecutor`): its dispatches' kernels and
 * what each binds, read off the recipe itself. The tcu recorders take many shape-dependent
 * branches — direct or staged kernels, a tail after the direct units, grid levels that recurse
 * over partials, kernels specialized by the segment size — and the kernels and bindings they end up
 * with are exactly what a structure is, so the key is read from the result rather than rebuilt from
 * every decision. No binding holds a count (whole buffers; counts and the first segment are
 * parameters), so equal structures give equal keys whatever the count, and the executor's bind
 * groups serve every count; a binding that did hold one would show as bind groups made in the
 * frame-loop tests, never as a wrong binding.
 *
 * @example
 * ```ts
 * const recipe = b.build(); // the steps recorded for this count and segment size
 * exec.encode(encoder, structureKeyOf(recipe), () => recipe, { input, output });
 * ```
 */
export function structureKeyOf(recipe: Recipe): string {
  let key = '';
  for (const step of recipe.steps) {
    if (step.kind !== 'dispatch') continue;
    key += `${step.kernel.key}(`;
    // Every tcu kernel binds by name: the names join the key, so that two dispatches binding the
    // same buffers under other names differ.
    const named = step.bindings as NamedBindings;
    for (const name in named) key += `${name}=${refKey(named[name])},`;
    key += `${refKey(step.params)})`;
  }
  return key;
}

function refKey(ref: BufferRef | undefined): string {
  if (!ref) return '-';
  if ('params' in ref) return `p${ref.params}`;
  const name = 'role' in ref ? `r:${ref.role}` : `s:${ref.scratch}`;
  return `${name}@${ref.offset ?? 0}:${ref.size ?? ''}:${ref.limit ?? ''}:${ref.multipleOf ?? ''}`;
}
