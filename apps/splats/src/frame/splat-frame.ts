import { createPackPlan, type Plan, type ScanContext } from '@scan/core';
import { createSortPlan, type SortEncodeArgs } from '@scan/sort';
import type { Mat4 } from './camera-math.js';
import { CULL_PARAMS_BYTES, CULL_WGSL, CULL_WORKGROUP, IOTA_WGSL } from './cull-kernel.js';

/** Depth keys: the f32 view depth (32), or the depth quantized to 16 bits over the scene's range (16). */
export type KeyBits = 32 | 16;

/** Options of {@link createSplatFrame}. */
export interface SplatFrameOptions {
  /** Most splats an encode will see: every buffer is sized for it up front. */
  maxSplats: number;
  /** Default key width of `encode` (32). */
  keyBits?: KeyBits;
}

/** Three timestamps an encode writes: before the cull, after the packs, after the sort. */
export interface FrameTimestamps {
  querySet: GPUQuerySet;
  /** Index of the first of the three queries. */
  first: number;
}

/** One frame's inputs. */
export interface SplatFrameArgs {
  /** `count` splat centres as vec4<f32> (x, y, z, anything), 16 bytes a splat; STORAGE usage. */
  positions: GPUBuffer;
  count: number;
  /** The view matrix (rigid; the camera looks down −z). */
  view: Mat4;
  /** Projection · view. */
  viewProjection: Mat4;
  /** Depths the 16-bit keys spread over (the scene's extent in front of the eye); needed for 16-bit keys. */
  depthRange?: readonly [number, number];
  /** Key width of this frame (default: the frame's `keyBits`). */
  keyBits?: KeyBits;
  /** False skips the sort: the visible splats stay in index order (the page's `order=none`). */
  sort?: boolean;
  timestamps?: FrameTimestamps;
}

/** The per-frame GPU work of the viewer: see {@link createSplatFrame}. */
export interface SplatFrame {
  /**
   * Records cull, packs, sort and the draw's instance count into `encoder`. The camera goes into a
   * uniform buffer through `queue.writeBuffer`, so one encode per submit (a second encode before the
   * submit would run both with the second camera).
   */
  encode(encoder: GPUCommandEncoder, args: SplatFrameArgs): void;
  /** After an encode: the visible splats' indices, farthest first (the first `visibleCount` words). */
  readonly order: GPUBuffer;
  /** After an encode: their keys, in the same order (f32 bits, or the 16-bit key in a u32). */
  readonly keys: GPUBuffer;
  /** After an encode: the number of visible splats, a u32 at byte 0 (COPY_SRC: the page reads it back). */
  readonly visibleCount: GPUBuffer;
  /** Indirect draw arguments (4 vertices, `visibleCount` instances): a triangle strip per splat. */
  readonly drawArgs: GPUBuffer;
  /** Resolves when every pipeline has compiled. */
  readonly ready: Promise<void>;
  readonly maxSplats: number;
  destroy(): void;
}

const STORAGE = 0x0080;

/** Writes 0..count-1 into `ids` with one compute pass, submitted at once. */
function fillIota(device: GPUDevice, ids: GPUBuffer, count: number, maxDim: number): void {
  const groups = Math.ceil(count / CULL_WORKGROUP);
  const x = Math.min(groups, maxDim);
  const pipeline = device.createComputePipeline({
    label: 'splats iota',
    layout: 'auto',
    compute: { module: device.createShaderModule({ label: 'splats iota', code: IOTA_WGSL }), entryPoint: 'main' },
  });
  const params = device.createBuffer({ label: 'splats iota params', size: 8, usage: 0x0040 | 0x0008, mappedAtCreation: true });
  new Uint32Array(params.getMappedRange()).set([count, x * CULL_WORKGROUP]);
  params.unmap();
  const encoder = device.createCommandEncoder({ label: 'splats iota' });
  const pass = encoder.beginComputePass({ label: 'splats iota' });
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: params } },
        { binding: 1, resource: { buffer: ids } },
      ],
    }),
  );
  pass.dispatchWorkgroups(x, Math.ceil(groups / x));
  pass.end();
  device.queue.submit([encoder.finish()]);
  // Destroying after the submit is fine: the queued pass keeps what it uses.
  params.destroy();
}
const COPY_SRC = 0x0004;
const COPY_DST = 0x0008;
const UNIFORM = 0x0040;
const INDIRECT = 0x0100;

/**
 * The per-frame GPU work of the splat viewer, made of the packages' plans the way an application
 * uses them; nothing is read back, and an encode creates nothing once warm:
 *
 * 1. a compute pass: per splat, its view depth as a key and a frustum flag (u32);
 * 2. two packs (`createPackPlan` of `@scan/core`, u32 flags) move the visible splats' keys and
 *    indices to the front, writing their number to `visibleCount` on the GPU;
 * 3. `createSortPlan` of `@scan/sort` sorts them by descending key (f32 depth, or 16-bit depth in
 *    u32 keys sorted on bits [0, 16): two 8-bit passes), counted by `visibleCount`;
 * 4. a copy of `visibleCount` into the instance count of `drawArgs`, for `drawIndirect`.
 *
 * @example
 * ```ts
 * const frame = createSplatFrame(ctx, { maxSplats: 1 << 20 });
 * await frame.ready;
 * frame.encode(encoder, { positions, count, view, viewProjection, depthRange: [near, far] });
 * pass.drawIndirect(frame.drawArgs, 0);
 * ```
 */
export function createSplatFrame(ctx: ScanContext, options: SplatFrameOptions): SplatFrame {
  const device = ctx.device;
  const maxSplats = options.maxSplats;
  if (!Number.isInteger(maxSplats) || maxSplats < 1) throw new RangeError(`options.maxSplats = ${maxSplats}: expected a positive integer`);
  const defaultBits = options.keyBits ?? 32;
  const bytes = 4 * maxSplats;
  const buffer = (label: string, usage: number, size = bytes) => device.createBuffer({ label: `splats ${label}`, size, usage });
  const allKeys = buffer('all keys', STORAGE);
  const flags = buffer('flags', STORAGE);
  // The indices 0..maxSplats-1, packed like the keys so the sort's values are splat indices. Written
  // on the GPU once (no upload: Dawn in Node does badly with large ones, DESIGN.md).
  const iota = buffer('iota', STORAGE);
  fillIota(device, iota, maxSplats, ctx.caps.limits.maxComputeWorkgroupsPerDimension);
  const keys = buffer('keys', STORAGE | COPY_SRC | COPY_DST);
  const order = buffer('order', STORAGE | COPY_SRC | COPY_DST);
  const visibleCount = buffer('visible count', STORAGE | COPY_SRC | COPY_DST, 4);
  const keyCount = buffer('key count', STORAGE | COPY_SRC | COPY_DST, 4);
  const drawArgs = device.createBuffer({
    label: 'splats draw args',
    size: 16,
    usage: INDIRECT | STORAGE | COPY_DST | COPY_SRC,
    mappedAtCreation: true,
  });
  new Uint32Array(drawArgs.getMappedRange()).set([4, 0, 0, 0]);
  drawArgs.unmap();
  const params = buffer('cull params', UNIFORM | COPY_DST, CULL_PARAMS_BYTES);
  const paramData = new ArrayBuffer(CULL_PARAMS_BYTES);
  const paramF32 = new Float32Array(paramData);
  const paramU32 = new Uint32Array(paramData);

  const packKeys = createPackPlan(ctx, { type: 'u32', flags: 'u32', maxCount: maxSplats });
  const packIds = createPackPlan(ctx, { type: 'u32', flags: 'u32', maxCount: maxSplats });
  const sorts: Record<KeyBits, Plan<SortEncodeArgs>> = {
    32: createSortPlan(ctx, { keyType: 'f32', valueType: 'u32', descending: true, maxCount: maxSplats }),
    16: createSortPlan(ctx, { keyType: 'u32', valueType: 'u32', descending: true, bits: [0, 16], maxCount: maxSplats }),
  };
  const module = device.createShaderModule({ label: 'splats cull', code: CULL_WGSL });
  const layout = device.createBindGroupLayout({
    label: 'splats cull',
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  let pipeline: GPUComputePipeline | undefined;
  const pipelineDescriptor: GPUComputePipelineDescriptor = {
    label: 'splats cull',
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module, entryPoint: 'main' },
  };
  const compiled = device.createComputePipelineAsync(pipelineDescriptor).then((p) => {
    pipeline ??= p;
  });
  // One bind group per positions buffer (the page has one; a few are kept).
  const bindGroups = new Map<GPUBuffer, GPUBindGroup>();
  const bindGroupOf = (positions: GPUBuffer) => {
    let group = bindGroups.get(positions);
    if (!group) {
      if (bindGroups.size >= 4) bindGroups.delete(bindGroups.keys().next().value as GPUBuffer);
      group = device.createBindGroup({
        label: 'splats cull',
        layout,
        entries: [
          { binding: 0, resource: { buffer: params } },
          { binding: 1, resource: { buffer: positions } },
          { binding: 2, resource: { buffer: allKeys } },
          { binding: 3, resource: { buffer: flags } },
        ],
      });
      bindGroups.set(positions, group);
    }
    return group;
  };
  const maxDim = ctx.caps.limits.maxComputeWorkgroupsPerDimension;
  const marker = (encoder: GPUCommandEncoder, t: FrameTimestamps | undefined, index: number) => {
    if (!t) return;
    // An empty pass that only writes a timestamp: the plans record their own passes.
    encoder
      .beginComputePass({ label: 'splats timestamp', timestampWrites: { querySet: t.querySet, endOfPassWriteIndex: t.first + index } })
      .end();
  };

  return {
    order,
    keys,
    visibleCount,
    drawArgs,
    maxSplats,
    ready: Promise.all([compiled, packKeys.ready, packIds.ready, sorts[32].ready, sorts[16].ready]).then(() => undefined),
    encode(encoder, args) {
      const { positions, count } = args;
      if (!Number.isInteger(count) || count < 0 || count > maxSplats) {
        throw new RangeError(`args.count = ${count}: expected an integer in [0, ${maxSplats}]`);
      }
      if (positions.size < 16 * count) throw new RangeError(`args.positions holds ${positions.size} bytes, fewer than 16 × ${count}`);
      const keyBits = args.keyBits ?? defaultBits;
      if (keyBits !== 32 && keyBits !== 16) throw new RangeError(`args.keyBits = ${String(keyBits)}: expected 32 or 16`);
      const [near, far] = args.depthRange ?? [0, 1];
      if (keyBits === 16 && (!args.depthRange || !(far > near)))
        throw new RangeError('args.depthRange: 16-bit keys need [near, far] with far > near');
      const groups = Math.ceil(count / CULL_WORKGROUP);
      const x = Math.min(groups, maxDim);
      const y = Math.ceil(groups / x);
      paramF32.set(args.viewProjection, 0);
      paramF32.set(args.view, 16);
      paramU32[32] = count;
      paramU32[33] = keyBits;
      paramF32[34] = near;
      paramF32[35] = 1 / (far - near);
      paramU32[36] = x * CULL_WORKGROUP;
      device.queue.writeBuffer(params, 0, paramData);
      const t = args.timestamps;
      if (count > 0) {
        pipeline ??= device.createComputePipeline(pipelineDescriptor);
        const pass = encoder.beginComputePass({
          label: 'splats cull',
          ...(t ? { timestampWrites: { querySet: t.querySet, beginningOfPassWriteIndex: t.first } } : {}),
        });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroupOf(positions));
        pass.dispatchWorkgroups(x, y);
        pass.end();
      } else if (t) {
        encoder.beginComputePass({ timestampWrites: { querySet: t.querySet, beginningOfPassWriteIndex: t.first } }).end();
      }
      packKeys.encode(encoder, { input: allKeys, flags, output: keys, packedCount: keyCount, count });
      packIds.encode(encoder, { input: iota, flags, output: order, packedCount: visibleCount, count });
      marker(encoder, t, 1);
      if (args.sort !== false) sorts[keyBits].encode(encoder, { keys, values: order, countBuffer: visibleCount });
      marker(encoder, t, 2);
      encoder.copyBufferToBuffer(visibleCount, 0, drawArgs, 4, 4);
    },
    destroy() {
      packKeys.destroy();
      packIds.destroy();
      sorts[32].destroy();
      sorts[16].destroy();
      for (const b of [allKeys, flags, iota, keys, order, visibleCount, keyCount, drawArgs, params]) b.destroy();
      bindGroups.clear();
    },
  };
}
