import { BufferUsage, STORAGE_USAGE } from '../buffers.js';
import { assertUsable, type ScanContext } from '../context.js';
import { dispatchShape } from '../dispatch.js';
import { ScanError } from '../errors.js';
import { getPipeline } from '../pipeline-cache.js';
import type { BufferRef, Recipe } from './recipe.js';

const PARAM_STRIDE = 256;

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

interface Prepared {
  readonly recipe: Recipe;
  readonly params: GPUBuffer | undefined;
}

/**
 * Runs recipes for one plan. It owns the plan's scratch buffers (grown, never shrunk, and old ones
 * kept until `destroy` because a command buffer recorded earlier may still use them), the immutable
 * parameter buffers of each count (written once at creation, so any number of `encode` calls can
 * share an encoder), and a small cache of bind groups per (count, caller buffers).
 */
export class RecipeExecutor {
  private readonly prepared = new Map<string, Prepared>();
  private readonly scratch = new Map<string, GPUBuffer>();
  private readonly retired: GPUBuffer[] = [];
  private readonly bindGroups = new Map<string, GPUBindGroup[]>();
  private placeholders: Map<string, GPUBuffer> | undefined;
  private scratchGeneration = 0;
  private destroyed = false;
  allocations = 0;

  constructor(
    private readonly ctx: ScanContext,
    private readonly label: string,
  ) {}

  /** Bytes of scratch held now. */
  get scratchBytes(): number {
    let total = 0;
    for (const b of this.scratch.values()) total += b.size;
    return total;
  }

  /**
   * Records `recipe` (built by `build` and cached under `key`) into `encoder`, binding `roles`.
   */
  encode(encoder: GPUCommandEncoder, key: string, build: () => Recipe, roles: Readonly<Record<string, GPUBuffer>>): void {
    if (this.destroyed) throw new ScanError('INVALID_ARGUMENT', `${this.label}: the plan was destroyed`, { argument: 'plan' });
    assertUsable(this.ctx);
    const prepared = this.prepare(key, build);
    const { recipe } = prepared;
    this.ensureScratch(recipe.scratch);
    const groupsKey = `${key}|${this.scratchGeneration}|${Object.entries(roles)
      .map(([r, b]) => `${r}:${bufferId(b)}`)
      .join(',')}`;
    let groups = this.bindGroups.get(groupsKey);
    if (!groups) {
      groups = this.createBindGroups(prepared, roles);
      if (this.bindGroups.size > 32) this.bindGroups.delete(this.bindGroups.keys().next().value as string);
      this.bindGroups.set(groupsKey, groups);
    }
    let pass: GPUComputePassEncoder | undefined;
    let dispatchIndex = 0;
    const maxDim = this.ctx.caps.limits.maxComputeWorkgroupsPerDimension;
    for (const step of recipe.steps) {
      if (step.kind === 'dispatch') {
        if (!pass) pass = encoder.beginComputePass({ label: this.label });
        pass.setPipeline(getPipeline(this.ctx, step.kernel));
        pass.setBindGroup(0, groups[dispatchIndex++] as GPUBindGroup);
        if (step.indirect) {
          const args = this.resolve(step.indirect, roles, prepared);
          pass.dispatchWorkgroupsIndirect(args.buffer, args.offset);
          continue;
        }
        const { x, y } = dispatchShape(step.workgroups, maxDim);
        pass.dispatchWorkgroups(x, y);
        continue;
      }
      if (pass) {
        pass.end();
        pass = undefined;
      }
      if (step.kind === 'clear') {
        const r = this.resolve(step.target, roles, prepared);
        if (r.size > 0) encoder.clearBuffer(r.buffer, r.offset, r.size);
      } else {
        const from = this.resolve(step.from, roles, prepared);
        const to = this.resolve(step.to, roles, prepared);
        encoder.copyBufferToBuffer(from.buffer, from.offset, to.buffer, to.offset, step.size);
      }
    }
    pass?.end();
  }

  /** Frees every buffer the executor owns. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    for (const b of this.scratch.values()) b.destroy();
    for (const b of this.retired) b.destroy();
    for (const p of this.prepared.values()) p.params?.destroy();
    for (const b of this.placeholders?.values() ?? []) b.destroy();
    this.scratch.clear();
    this.prepared.clear();
    this.bindGroups.clear();
  }

  private prepare(key: string, build: () => Recipe): Prepared {
    let prepared = this.prepared.get(key);
    if (prepared) return prepared;
    const recipe = build();
    let params: GPUBuffer | undefined;
    if (recipe.params.length > 0) {
      params = this.ctx.device.createBuffer({
        label: `${this.label} params`,
        size: recipe.params.length * PARAM_STRIDE,
        usage: BufferUsage.UNIFORM,
        mappedAtCreation: true,
      });
      const words = new Uint32Array(params.getMappedRange());
      recipe.params.forEach((block, i) => {
        words.set(block, (i * PARAM_STRIDE) / 4);
      });
      params.unmap();
    }
    prepared = { recipe, params };
    this.prepared.set(key, prepared);
    return prepared;
  }

  /** Builds (or finds) the recipe of `key` and allocates its scratch, before a neighbour plan needs it. */
  reserveFor(key: string, build: () => Recipe): void {
    this.ensureScratch(this.prepare(key, build).recipe.scratch);
  }

  /** One of the scratch buffers (after `reserve`/`reserveFor`), for a neighbour plan to write into. */
  scratchBuffer(name: string): GPUBuffer {
    const b = this.scratch.get(name);
    if (!b) throw new ScanError('INVALID_ARGUMENT', `${this.label}: no scratch buffer "${name}" yet`);
    return b;
  }

  /** Allocates the scratch `recipe` needs now (a plan's `maxCount`), so later encodes allocate nothing. */
  reserve(recipe: Recipe): void {
    this.ensureScratch(recipe.scratch);
  }

  private ensureScratch(need: Readonly<Record<string, number>>): void {
    for (const [name, bytes] of Object.entries(need)) {
      const have = this.scratch.get(name);
      if (have && have.size >= bytes) continue;
      if (bytes > this.ctx.caps.limits.maxBufferSize) {
        throw new ScanError(
          'TOO_LARGE',
          `${this.label}: scratch "${name}" needs ${bytes} bytes, past maxBufferSize ${this.ctx.caps.limits.maxBufferSize}`,
        );
      }
      if (have) this.retired.push(have);
      this.scratch.set(name, this.ctx.device.createBuffer({ label: `${this.label} ${name}`, size: bytes, usage: STORAGE_USAGE }));
      this.allocations++;
      this.scratchGeneration++;
    }
  }

  private placeholder(name: string): GPUBuffer {
    this.placeholders ??= new Map();
    let b = this.placeholders.get(name);
    if (!b) {
      b = this.ctx.device.createBuffer({ label: `${this.label} placeholder ${name}`, size: 16, usage: STORAGE_USAGE });
      this.placeholders.set(name, b);
    }
    return b;
  }

  private resolve(
    ref: BufferRef,
    roles: Readonly<Record<string, GPUBuffer>>,
    prepared: Prepared,
  ): { buffer: GPUBuffer; offset: number; size: number } {
    if ('params' in ref) {
      return { buffer: prepared.params as GPUBuffer, offset: ref.params * PARAM_STRIDE, size: 32 };
    }
    if ('role' in ref) {
      const buffer = roles[ref.role];
      if (!buffer) throw new ScanError('INVALID_ARGUMENT', `${this.label}: missing buffer "${ref.role}"`, { argument: ref.role });
      const size = ref.size ?? buffer.size - ref.offset;
      if (size === 0) return { buffer: this.placeholder(ref.role), offset: 0, size: 16 };
      return { buffer, offset: ref.offset, size };
    }
    const buffer = this.scratch.get(ref.scratch) as GPUBuffer;
    const offset = ref.offset ?? 0;
    const size = ref.size ?? buffer.size - offset;
    if (size === 0) return { buffer: this.placeholder(ref.scratch), offset: 0, size: 16 };
    return { buffer, offset, size };
  }

  private createBindGroups(prepared: Prepared, roles: Readonly<Record<string, GPUBuffer>>): GPUBindGroup[] {
    const groups: GPUBindGroup[] = [];
    for (const step of prepared.recipe.steps) {
      if (step.kind !== 'dispatch') continue;
      const pipeline = getPipeline(this.ctx, step.kernel);
      groups.push(
        this.ctx.device.createBindGroup({
          label: step.kernel.key,
          layout: pipeline.getBindGroupLayout(0),
          entries: step.bindings.flatMap((ref, binding) => {
            if (!ref) return [];
            const r = this.resolve(ref, roles, prepared);
            return [{ binding, resource: { buffer: r.buffer, offset: r.offset, size: r.size } }];
          }),
        }),
      );
    }
    return groups;
  }
}
