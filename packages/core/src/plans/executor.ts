import { STORAGE_USAGE } from '../buffers.js';
import { assertUsable, type ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { ScanError } from '../errors.js';
import { type Kernel, PARAMS_BINDING } from '../kernels/define-kernel.js';
import { bindGroupLayoutOf, getPipeline, loadPipelines } from '../pipeline-cache.js';
import { LruMap } from './lru-map.js';
import { type ParamRing, ParamRingSet } from './param-ring.js';
import { type BufferRef, type DispatchStep, type Recipe, structureKeyOf } from './recipe.js';
import type { StructureVariants } from './structure-variants.js';

/**
 * Structures (distinct step layouts) an executor keeps; the least recently used goes first. A plan
 * path's variants (every tier, tail and level a count may take) are made together, so this holds
 * all of them for the plans' usual few paths.
 */
const MAX_STRUCTURES = 64;
/** Sets of caller buffers a structure keeps bind groups for (each set has a bind group per dispatch and parameter slot). */
const MAX_GROUP_SETS = 32;

let nextBufferId = 1;
const bufferIds = new WeakMap<GPUBuffer, number>();
function bufferId(buffer: GPUBuffer): number {
  let id = bufferIds.get(buffer);
  if (id === undefined) {
    id = nextBufferId++;
    bufferIds.set(buffer, id);
  }
  return id;
}

/**
 * The layout of a recipe that does not change with the count: which kernels its dispatches run and
 * what they bind, which its structure key names ({@link structureKeyOf}). Bind groups depend only on
 * that (plus the parameter slot and the buffers), so they are made once per structure and reused
 * for every count that shares it.
 */
interface Structure {
  readonly dispatches: readonly DispatchStep[];
  /**
   * Its kernels' pipelines, looked up at the structure's first encode, not when it is made: the
   * variants of a path get their bind groups with the path's first encode, and looking their
   * pipelines up then would compile, synchronously, every kernel a plan whose `ready` was not
   * awaited had not compiled yet (a stall of the first frame for kernels it may never run).
   */
  pipelines: readonly GPUComputePipeline[] | undefined;
  /** The scratch buffers its bind groups point into (a new one of these makes them stale), and whether a parameter block. */
  readonly scratchNames: ReadonlySet<string>;
  readonly usesParams: boolean;
  /** Per set of caller buffers: the bind groups of every parameter slot, `[slot][dispatch]`. */
  readonly groupSets: LruMap<string, GPUBindGroup[][]>;
  /** The last set used, checked buffer by buffer before any key is built: a frame loop's usual case. */
  last: { readonly buffers: GPUBuffer[]; readonly perSlot: GPUBindGroup[][] } | undefined;
}

/** What `encode` resolved a ref to. */
interface Resolved {
  buffer: GPUBuffer;
  offset: number;
  size: number;
}

/**
 * Runs recipes for one plan, made to be encoded every frame with a changing count:
 *
 * - **Structures.** Each recipe is filed under its *structure key*, derived from its dispatches
 *   ({@link structureKeyOf}: per dispatch the kernel, every binding's ref, the parameter ref, host
 *   or indirect workgroup counts) as the `RecipeBuilder` adds them; plans write no key. The
 *   count changes only what is read from the recipe at every encode — the parameter blocks, the
 *   workgroup counts, the clear and copy sizes — so every count of one structure finds its
 *   pipelines and bind groups, cached per structure, made. A count whose recipe binds something
 *   else (another kernel, chunk, level or range) has another key, so it never binds wrongly.
 * - **Variants.** Where a count picks between structures (tiers, tails, levels, chunks), the plan
 *   passes the {@link StructureVariants} of that path to `encode`: the first encode with a set of
 *   buffers makes the bind groups of all of them, so no later count makes any.
 * - **Parameters** are written at every encode with `queue.writeBuffer` into one slot of a small
 *   ring (`ParamRingSet`), so no buffer is made per count or per scalar.
 * - **Scratch** grows geometrically (doubling), so a run of growing counts allocates O(log) times;
 *   buffers it outgrows are kept until `destroy` (a command buffer recorded earlier may still use
 *   them) and count in `memoryBytes`.
 *
 * Everything is bounded: at most `MAX_STRUCTURES` (64) structures with `MAX_GROUP_SETS` (32) bind
 * group sets each, one scratch buffer per name (plus the outgrown ones, less than it in total), and
 * the parameter rings.
 */
export class RecipeExecutor {
  private readonly structures = new LruMap<string, Structure>(MAX_STRUCTURES);
  private readonly scratch = new Map<string, GPUBuffer>();
  private readonly retired: GPUBuffer[] = [];
  private readonly params: ParamRingSet;
  private placeholders: Map<string, GPUBuffer> | undefined;
  /** Bumped whenever a scratch buffer is (re)allocated: what `variantBlocks` caches against. */
  private scratchGeneration = 0;
  private readonly blocksOf = new WeakMap<StructureVariants, { generation: number; blocks: number }>();
  private destroyed = false;
  private created = 0;
  private readonly resolved: Resolved = { buffer: undefined as unknown as GPUBuffer, offset: 0, size: 0 };

  /**
   * @param label names the plan in errors and GPU labels.
   * @param sizedBy the caller's argument the scratch follows, named when it passes `maxBufferSize`:
   *   by default the count (`args.count` at an encode, `options.maxCount` when reserved at creation);
   *   a plan whose scratch follows something else names that (`'A'`: a sparse matrix).
   */
  constructor(
    private readonly ctx: ScanContext,
    private readonly label: string,
    private readonly sizedBy?: string,
  ) {
    this.params = new ParamRingSet(ctx, label, () => {
      this.created++;
      this.dropBindGroups((structure) => structure.usesParams);
    });
  }

  /** GPU buffers this executor has created over its life (scratch, parameter rings, placeholders). */
  get allocations(): number {
    return this.created;
  }

  /** Bytes of scratch held now (the current buffer of each name). */
  get scratchBytes(): number {
    let total = 0;
    for (const b of this.scratch.values()) total += b.size;
    return total;
  }

  /** Bytes of every GPU buffer held now: scratch, outgrown scratch, parameter rings, placeholders. */
  get memoryBytes(): number {
    let total = this.scratchBytes + this.params.memoryBytes;
    for (const b of this.retired) total += b.size;
    for (const b of this.placeholders?.values() ?? []) total += b.size;
    return total;
  }

  /**
   * Records the recipe `build` returns into `encoder`, binding `roles` (the caller's buffers by
   * role). Its bind groups are those of its structure (see the class notes); `variants`, the
   * structures the same path takes at other counts, get theirs with the first encode that meets a
   * set of buffers.
   *
   * @example
   * ```ts
   * declare function build(count: number): Recipe; // the plan's recipe of a count
   * declare const exec: RecipeExecutor, input: GPUBuffer, output: GPUBuffer, count: number;
   * exec.encode(encoder, () => build(count), { input, output });
   * ```
   */
  encode(encoder: GPUCommandEncoder, build: () => Recipe, roles: Readonly<Record<string, GPUBuffer>>, variants?: StructureVariants): void {
    if (this.destroyed) throw new ScanError('INVALID_ARGUMENT', `${this.label}: the plan was destroyed`, { argument: 'plan' });
    assertUsable(this.ctx);
    const recipe = build();
    this.ensureScratch(recipe, this.sizedBy ?? 'args.count');
    const structure = this.structureFor(structureKeyOf(recipe), recipe);
    structure.pipelines ??= structure.dispatches.map((step) => getPipeline(this.ctx, step.kernel));
    const pipelines = structure.pipelines;
    // The ring holds the blocks of every variant from the start: growing it later would drop (and
    // remake) every bind group the first time a count took a variant with more blocks.
    const minBlocks = variants ? this.variantBlocks(variants) : 0;
    const ring = recipe.params.length > 0 || minBlocks > 0 ? this.params.write(encoder, recipe.params, minBlocks) : undefined;
    const groups = this.groupsFor(structure, ring, roles, variants);

    let pass: GPUComputePassEncoder | undefined;
    // Each native call costs about a microsecond: a pipeline already set in this pass is not set again.
    let pipeline: GPUComputePipeline | undefined;
    let dispatchIndex = 0;
    const maxDim = this.ctx.caps.limits.maxComputeWorkgroupsPerDimension;
    for (const step of recipe.steps) {
      if (step.kind === 'dispatch') {
        if (!pass) {
          // No label: Dawn copies it at every call (about 2 µs); errors name the pipeline and bind group.
          pass = encoder.beginComputePass();
          pipeline = undefined;
        }
        const next = pipelines[dispatchIndex] as GPUComputePipeline;
        if (next !== pipeline) {
          pass.setPipeline(next);
          pipeline = next;
        }
        pass.setBindGroup(0, groups[dispatchIndex] as GPUBindGroup);
        dispatchIndex++;
        if (step.indirect) {
          const args = this.resolve(step.indirect, roles, ring);
          pass.dispatchWorkgroupsIndirect(args.buffer, args.offset);
          continue;
        }
        if (step.workgroups <= maxDim) pass.dispatchWorkgroups(step.workgroups);
        else {
          const { x, y } = dispatchShape(step.workgroups, maxDim);
          pass.dispatchWorkgroups(x, y);
        }
        continue;
      }
      if (pass) {
        pass.end();
        pass = undefined;
      }
      if (step.kind === 'clear') {
        const r = this.resolve(step.target, roles, ring);
        if (r.size > 0) encoder.clearBuffer(r.buffer, r.offset, r.size);
      } else {
        const from = this.resolve(step.from, roles, ring);
        const fromBuffer = from.buffer;
        const fromOffset = from.offset;
        const to = this.resolve(step.to, roles, ring);
        encoder.copyBufferToBuffer(fromBuffer, fromOffset, to.buffer, to.offset, step.size);
      }
    }
    pass?.end();
  }

  /**
   * Compiles, without stalling, the kernels of `recipes` (a plan passes the recipes of every path
   * it may take), so that encodes find them compiled. See `loadPipelines`.
   */
  load(recipes: readonly Recipe[]): Promise<void> {
    const kernels = new Map<string, Kernel>();
    for (const recipe of recipes) {
      for (const step of recipe.steps) if (step.kind === 'dispatch') kernels.set(step.kernel.key, step.kernel);
    }
    return loadPipelines(this.ctx, kernels.values());
  }

  /** Frees every buffer the executor owns. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.scratch.values()) b.destroy();
    for (const b of this.retired) b.destroy();
    for (const b of this.placeholders?.values() ?? []) b.destroy();
    this.params.destroy();
    this.scratch.clear();
    this.retired.length = 0;
    this.placeholders?.clear();
    this.structures.clear();
  }

  /**
   * Allocates the scratch `build`'s recipe needs now (growing by doubling, as an encode would),
   * before a neighbour plan binds one of its buffers.
   */
  reserveFor(build: () => Recipe): void {
    this.ensureScratch(build(), this.sizedBy ?? 'args.count');
  }

  /** One of the scratch buffers (after `reserve`/`reserveFor`), for a neighbour plan to write into. */
  scratchBuffer(name: string): GPUBuffer {
    const b = this.scratch.get(name);
    // A neighbour plan asking before reserving is our bug, not the caller's.
    if (!b) throw new Error(`${this.label}: internal error: no scratch buffer "${name}" yet`);
    return b;
  }

  /** Allocates the scratch `recipe` needs now (a plan's `maxCount`), exactly, so later encodes allocate nothing. */
  reserve(recipe: Recipe): void {
    this.ensureScratch(recipe, this.sizedBy ?? 'options.maxCount', true);
  }

  private structureFor(key: string, recipe: Recipe): Structure {
    const known = this.structures.get(key);
    if (known) return known;
    const dispatches: DispatchStep[] = [];
    const scratchNames = new Set<string>();
    let usesParams = false;
    for (const step of recipe.steps) {
      if (step.kind !== 'dispatch') continue;
      checkNamedBindings(this.label, step);
      dispatches.push(step);
      for (const ref of refsOf(step)) {
        if (ref && 'scratch' in ref) scratchNames.add(ref.scratch);
        if (ref && 'params' in ref) usesParams = true;
      }
    }
    const structure: Structure = {
      dispatches,
      pipelines: undefined,
      scratchNames,
      usesParams,
      groupSets: new LruMap(MAX_GROUP_SETS),
      last: undefined,
    };
    this.structures.set(key, structure);
    return structure;
  }

  /**
   * The bind groups of `structure` for this encode's parameter slot. Those of every slot are made
   * together the first time a structure meets a set of caller buffers, so that once each structure
   * has been seen, no encode makes any, whichever slot it lands on.
   */
  private groupsFor(
    structure: Structure,
    ring: ParamRing | undefined,
    roles: Readonly<Record<string, GPUBuffer>>,
    variants: StructureVariants | undefined,
  ): GPUBindGroup[] {
    const slot = ring?.slot ?? 0;
    const last = structure.last;
    if (last) {
      let i = 0;
      let same = true;
      for (const role in roles) {
        if (roles[role] !== last.buffers[i++]) {
          same = false;
          break;
        }
      }
      if (same && i === last.buffers.length) return last.perSlot[slot] as GPUBindGroup[];
    }
    let setKey = '';
    for (const role in roles) setKey += `${role}:${bufferId(roles[role] as GPUBuffer)}|`;
    let perSlot = structure.groupSets.get(setKey);
    if (!perSlot) {
      perSlot = this.makeGroupSet(structure, setKey, roles, ring);
      // A new set of buffers (or bind groups dropped for a new scratch buffer or ring): the other
      // structures this path may take get theirs now, so no later count makes any.
      if (variants) this.makeVariantGroups(variants, setKey, roles, ring);
    }
    const buffers: GPUBuffer[] = [];
    for (const role in roles) buffers.push(roles[role] as GPUBuffer);
    structure.last = { buffers, perSlot };
    return perSlot[slot] as GPUBindGroup[];
  }

  /** The most parameter blocks of the variants the scratch held now allows (see `fits`), cached until the scratch changes. */
  private variantBlocks(variants: StructureVariants): number {
    const cached = this.blocksOf.get(variants);
    if (cached && cached.generation === this.scratchGeneration) return cached.blocks;
    let blocks = 0;
    for (const variant of variants.variants) if (this.fits(variant.recipe)) blocks = Math.max(blocks, variant.recipe.params.length);
    this.blocksOf.set(variants, { generation: this.scratchGeneration, blocks });
    return blocks;
  }

  /** Whether the scratch held now is enough for `recipe` (a variant that needs more waits for its count to grow it). */
  private fits(recipe: Recipe): boolean {
    for (const name in recipe.scratch) if ((this.scratch.get(name)?.size ?? 0) < (recipe.scratch[name] as number)) return false;
    return true;
  }

  /**
   * Makes the bind groups of every variant for the buffers `roles` (set `setKey`) that it lacks.
   * A variant that needs more scratch than is allocated is left out: the count that first takes it
   * grows the scratch (which only a plan without `maxCount` sees: a plan sizes its scratch by
   * `maxCount`) and makes them then, as growth makes every bind group into the new buffer anew.
   */
  private makeVariantGroups(
    variants: StructureVariants,
    setKey: string,
    roles: Readonly<Record<string, GPUBuffer>>,
    ring: ParamRing | undefined,
  ): void {
    for (const variant of variants.variants) {
      if (variant.roles.some((role) => roles[role] === undefined)) continue;
      if (variant.recipe.params.length > 0 && !ring) continue;
      if (!this.fits(variant.recipe)) continue;
      const structure = this.structureFor(variant.key, variant.recipe);
      if (structure.groupSets.get(setKey)) continue;
      this.makeGroupSet(structure, setKey, roles, ring);
    }
  }

  /** The bind groups of every parameter slot of `structure` for the buffers `roles`, filed under `setKey`. */
  private makeGroupSet(
    structure: Structure,
    setKey: string,
    roles: Readonly<Record<string, GPUBuffer>>,
    ring: ParamRing | undefined,
  ): GPUBindGroup[][] {
    const perSlot: GPUBindGroup[][] = [];
    for (let slot = 0; slot < (ring?.slots ?? 1); slot++) perSlot.push(this.makeGroups(structure, roles, ring, slot));
    structure.groupSets.set(setKey, perSlot);
    return perSlot;
  }

  private makeGroups(
    structure: Structure,
    roles: Readonly<Record<string, GPUBuffer>>,
    ring: ParamRing | undefined,
    slot: number,
  ): GPUBindGroup[] {
    return structure.dispatches.map((step) =>
      this.ctx.device.createBindGroup({
        label: step.kernel.key,
        layout: bindGroupLayoutOf(this.ctx.device, step.kernel),
        entries: bindingList(step).flatMap((ref, binding) => {
          if (!ref) return [];
          const r = this.resolve(ref, roles, ring, slot);
          return [{ binding, resource: { buffer: r.buffer, offset: r.offset, size: r.size } }];
        }),
      }),
    );
  }

  /** Drops the bind groups of the structures `stale` picks (they point into a buffer that was replaced). */
  private dropBindGroups(stale: (structure: Structure) => boolean): void {
    for (const structure of this.structures.values()) {
      if (!stale(structure)) continue;
      structure.groupSets.clear();
      structure.last = undefined;
    }
  }

  /** Allocates what `recipe` needs; past `maxBufferSize`, a `TOO_LARGE` names `argument` (see `sizedBy`). */
  private ensureScratch(recipe: Recipe, argument: string, exact = false): void {
    const need = recipe.scratch;
    for (const name in need) {
      const bytes = need[name] as number;
      const have = this.scratch.get(name);
      if (have && have.size >= bytes) continue;
      const limit = this.ctx.caps.limits.maxBufferSize;
      if (bytes > limit) {
        throw new ScanError(
          'TOO_LARGE',
          `${this.label}: ${argument} needs ${bytes} bytes of scratch ("${name}"), past the device's maxBufferSize (${limit})`,
          { argument },
        );
      }
      // Doubling bounds the allocations of a growing count to O(log); an exact request (maxCount) stays exact.
      const size = have && !exact ? Math.min(limit, Math.max(bytes, 2 * have.size)) : bytes;
      if (have) this.retired.push(have);
      const usage = STORAGE_USAGE | (recipe.scratchUsage?.[name] ?? 0);
      this.scratch.set(name, this.ctx.device.createBuffer({ label: `${this.label} ${name}`, size, usage }));
      this.scratchGeneration++;
      this.created++;
      this.dropBindGroups((structure) => structure.scratchNames.has(name));
    }
  }

  private placeholder(name: string): GPUBuffer {
    this.placeholders ??= new Map();
    let b = this.placeholders.get(name);
    if (!b) {
      b = this.ctx.device.createBuffer({ label: `${this.label} placeholder ${name}`, size: 16, usage: STORAGE_USAGE });
      this.placeholders.set(name, b);
      this.created++;
    }
    return b;
  }

  /** Where `ref` points now; the returned object is reused by the next call. */
  private resolve(ref: BufferRef, roles: Readonly<Record<string, GPUBuffer>>, ring: ParamRing | undefined, slot?: number): Resolved {
    const out = this.resolved;
    if ('params' in ref) {
      if (!ring) throw new Error(`${this.label}: a parameter block is bound but the recipe has none`);
      out.buffer = ring.buffer;
      out.offset = ring.offsetOf(ref.params, slot);
      out.size = ring.blockBytes;
      return out;
    }
    let buffer: GPUBuffer | undefined;
    let name: string;
    if ('role' in ref) {
      name = ref.role;
      buffer = roles[name];
      if (!buffer) throw new ScanError('INVALID_ARGUMENT', `${this.label}: missing buffer "${name}"`, { argument: name });
    } else {
      name = ref.scratch;
      buffer = this.scratch.get(name) as GPUBuffer;
    }
    const offset = ref.offset ?? 0;
    let size = ref.size;
    if (size === undefined) {
      // To the end of the buffer, within what one binding may hold.
      size = Math.min(buffer.size - offset, this.ctx.caps.limits.maxStorageBufferBindingSize);
      if (ref.limit !== undefined) size = Math.min(size, ref.limit);
      if (ref.multipleOf !== undefined) size -= size % ref.multipleOf;
    }
    if (size <= 0) {
      out.buffer = this.placeholder(name);
      out.offset = 0;
      out.size = 16;
      return out;
    }
    out.buffer = buffer;
    out.offset = offset;
    out.size = size;
    return out;
  }
}

/** The refs a dispatch binds, in no particular order. */
function refsOf(step: DispatchStep): (BufferRef | undefined)[] {
  const refs = Object.values(step.bindings);
  refs.push(step.params);
  return refs;
}

/** A dispatch's refs in binding order, as its kernel declares them. */
function bindingList(step: DispatchStep): (BufferRef | undefined)[] {
  return step.kernel.layout.map((b) => (b.name === PARAMS_BINDING ? step.params : step.bindings[b.name]));
}

/**
 * Checks, once per structure, that a dispatch binds exactly what its kernel declares: every
 * declared binding given, nothing given that this specialization does not declare.
 */
function checkNamedBindings(label: string, step: DispatchStep): void {
  const kernel = step.kernel;
  const named = step.bindings;
  for (const b of kernel.layout) {
    const ref = b.name === PARAMS_BINDING ? step.params : named[b.name];
    if (!ref) throw new Error(`${label}: internal error: kernel ${kernel.key} declares "${b.name}" but the recipe binds nothing there`);
  }
  for (const name in named) {
    if (named[name] !== undefined && !kernel.layout.some((b) => b.name === name)) {
      throw new Error(`${label}: internal error: the recipe binds "${name}", which kernel ${kernel.key} does not declare`);
    }
  }
  if (step.params && !kernel.layout.some((b) => b.name === PARAMS_BINDING)) {
    throw new Error(`${label}: internal error: the recipe gives parameters to kernel ${kernel.key}, which has none`);
  }
}
