import { type Kernel, type ParamFields, type ParamValues, paramWordsOf } from '../kernels/define-kernel.js';
import { dispatchKey } from './structure-key.js';

/**
 * A buffer a step binds, named symbolically so one recipe serves every call with the same structure:
 * the caller's buffers by role, or one of the plan's scratch buffers by name. Without `size` the
 * binding runs to the end of the buffer, capped at `limit` bytes and cut down to a multiple of
 * `multipleOf` (a vec4 array binds whole vec4s): that way a binding does not depend on the count, and
 * the executor's bind groups serve every count. A zero-sized range binds a small placeholder instead
 * (WebGPU cannot bind zero bytes).
 */
export type BufferRef =
  | { readonly role: string; readonly offset: number; readonly size?: number; readonly limit?: number; readonly multipleOf?: number }
  | { readonly scratch: string; readonly offset?: number; readonly size?: number; readonly limit?: number; readonly multipleOf?: number }
  | { readonly params: number };

/** Clears a range (zeroes), e.g. the look-back status words before a single-pass scan. */
export interface ClearStep {
  readonly kind: 'clear';
  readonly target: BufferRef;
}

/** Copies `size` bytes between two refs (both offsets and size multiples of 4). */
export interface CopyStep {
  readonly kind: 'copy';
  readonly from: BufferRef;
  readonly to: BufferRef;
  readonly size: number;
}

/**
 * One dispatch of `workgroups` workgroups (the executor makes it 2-D when it must), or, with
 * `indirect`, of as many as the three u32 at that ref say (`dispatchWorkgroupsIndirect`: sizes the
 * GPU computed, no read-back; the buffer needs `INDIRECT` usage, and the kernel must take its
 * workgroup index from a 2-D grid and skip what lies past its count).
 */
export interface DispatchStep {
  readonly kind: 'dispatch';
  readonly kernel: Kernel;
  /** Bindings of group 0, by the names the kernel declares (its parameter block apart). */
  readonly bindings: NamedBindings;
  /** The kernel's parameter block, when it has parameters. */
  readonly params?: BufferRef;
  readonly workgroups: number;
  /** Where the x, y, z workgroup counts are (12 bytes at a multiple of 4), for an indirect dispatch. */
  readonly indirect?: BufferRef;
}

/** Buffers bound by the names a kernel declares. */
export type NamedBindings = { readonly [name: string]: BufferRef | undefined };

/** The buffers a dispatch of a kernel with bindings `B` binds, by name (parameters apart). */
export type BindingsOf<B extends string> = { readonly [K in B]?: BufferRef };

export type Step = ClearStep | CopyStep | DispatchStep;

/** Everything one `encode` for one count records, and what it needs. */
export interface Recipe {
  readonly steps: readonly Step[];
  /** Bytes of each named scratch buffer the steps use. */
  readonly scratch: Readonly<Record<string, number>>;
  /** Usage flags some scratch buffers need beyond storage and copies (e.g. `UNIFORM` for GPU-written parameters). */
  readonly scratchUsage?: Readonly<Record<string, number>>;
  /** Uniform parameter blocks (8 u32 words each), referenced by index from `{ params: i }`. */
  readonly params: readonly (readonly number[])[];
  /**
   * The structure key of the steps (see {@link structureKeyOf}), derived by {@link RecipeBuilder} as
   * it adds dispatches. Never written by hand: a recipe made otherwise leaves it out, and the
   * executor derives it from the steps.
   */
  readonly structureKey?: string;
}

/** Builds recipes: collects parameter blocks and scratch needs while an algorithm lays out its steps. */
export class RecipeBuilder {
  readonly steps: Step[] = [];
  readonly params: (readonly number[])[] = [];
  readonly scratch: Record<string, number> = {};
  readonly scratchUsage: Record<string, number> = {};
  /** The structure key of the dispatches added so far, one `dispatchKey` each. */
  private structureKey = '';

  /** Registers a parameter block (at most 8 words; missing words are 0) and returns a ref to bind it. */
  private paramBlock(words: readonly number[]): BufferRef {
    if (words.length > 8) throw new Error(`internal error: a parameter block has ${words.length} words, at most 8 fit`);
    this.params.push(words);
    return { params: this.params.length - 1 };
  }

  /**
   * Declares that scratch buffer `name` needs at least `bytes` (and `usage` flags beyond storage and
   * copies), and returns a ref to all of it.
   */
  needScratch(name: string, bytes: number, usage = 0): BufferRef {
    this.scratch[name] = Math.max(this.scratch[name] ?? 0, Math.max(16, Math.ceil(bytes / 16) * 16));
    if (usage) this.scratchUsage[name] = usage;
    return { scratch: name };
  }

  clear(target: BufferRef): void {
    this.steps.push({ kind: 'clear', target });
  }

  copy(from: BufferRef, to: BufferRef, size: number): void {
    if (size > 0) this.steps.push({ kind: 'copy', from, to, size });
  }

  /**
   * The parameter block of `kernel` with `values`, registered once, for several dispatches to share
   * (pass the returned ref as their `params`).
   */
  paramsFor<P extends ParamFields>(kernel: Kernel<string, P>, values: ParamValues<P>): BufferRef {
    return this.paramBlock(kernel.paramWords(values));
  }

  /**
   * A uniform block of scalar `fields` holding `values`, for a binding a kernel declares with
   * `uniform(struct, fields)` besides its parameters.
   */
  uniformBlock<P extends ParamFields>(fields: P, values: ParamValues<P>): BufferRef {
    return this.paramBlock(paramWordsOf(fields, values));
  }

  /**
   * One dispatch of `workgroups` workgroups (none when 0) of `kernel`, binding `bindings` by the
   * names the kernel declares and its parameters given as values (a new block) or as a ref (a
   * shared block from {@link paramsFor}, or parameters the GPU wrote into a uniform scratch).
   */
  dispatch<B extends string, P extends ParamFields>(
    kernel: Kernel<B, P>,
    bindings: BindingsOf<B>,
    workgroups: number,
    params?: ParamValues<P> | BufferRef,
  ): void {
    if (workgroups <= 0) return;
    const ref = this.paramsRef(kernel, params);
    this.steps.push({ kind: 'dispatch', kernel, bindings, workgroups, params: ref });
    this.structureKey += dispatchKey(kernel, bindings, ref, undefined);
  }

  /** A dispatch whose workgroup counts the GPU wrote at `args` (see {@link DispatchStep.indirect}). */
  dispatchIndirect<B extends string, P extends ParamFields>(
    kernel: Kernel<B, P>,
    bindings: BindingsOf<B>,
    args: BufferRef,
    params?: ParamValues<P> | BufferRef,
  ): void {
    const ref = this.paramsRef(kernel, params);
    this.steps.push({ kind: 'dispatch', kernel, bindings, workgroups: 0, indirect: args, params: ref });
    this.structureKey += dispatchKey(kernel, bindings, ref, args);
  }

  private paramsRef<P extends ParamFields>(
    kernel: Kernel<string, P>,
    params: ParamValues<P> | BufferRef | undefined,
  ): BufferRef | undefined {
    if (params === undefined) return undefined;
    if ('params' in params || 'role' in params || 'scratch' in params) return params as BufferRef;
    return this.paramBlock(kernel.paramWords(params as ParamValues<P>));
  }

  build(): Recipe {
    return {
      steps: this.steps,
      scratch: this.scratch,
      scratchUsage: this.scratchUsage,
      params: this.params,
      structureKey: this.structureKey,
    };
  }
}

/**
 * The *structure key* of a recipe: what its dispatches run and bind, which is all its pipelines and
 * bind groups depend on — per dispatch the kernel, every binding's ref (role or scratch name,
 * offset, size, limit, multipleOf; a parameter block's index), the parameter block's ref, and
 * whether the workgroup counts come from the host or from an `indirect` ref (and which). Clears,
 * copies, workgroup counts and parameter values are not part of it: the executor reads them from
 * the recipe at every encode. Two recipes get the same key exactly when their dispatches bind the
 * same things, so recipes of any count that share a structure share their bind groups. A recipe
 * from {@link RecipeBuilder} carries its key (made as its dispatches were added); any other is
 * walked here. The key is opaque: a few UTF-16 units of small ids per dispatch (structure-key.ts).
 *
 * @example
 * ```ts
 * declare function build(count: number): Recipe; // a plan's recipe of a count
 * structureKeyOf(build(5000)) === structureKeyOf(build(6000)); // true: only workgroups and parameters differ
 * ```
 */
export function structureKeyOf(recipe: Recipe): string {
  if (recipe.structureKey !== undefined) return recipe.structureKey;
  let key = '';
  for (const step of recipe.steps) {
    if (step.kind === 'dispatch') key += dispatchKey(step.kernel, step.bindings, step.params, step.indirect);
  }
  return key;
}
