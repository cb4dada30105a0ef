import { type ScanContext, ScanError, type SubgroupMatrixConfig } from '@scan/core';
import { bindGroupByName, defineKernel, type Kernel, readWrite, runGuarded } from '@scan/core/kit';
import { directApplies, directProbeKernel } from './kernels/direct-common.js';
import { directCountApplies, directCountProbeKernel } from './kernels/direct-count.js';
import { type Family, type MatrixPath, type MatrixShape, tileSide } from './kernels/matrix.js';

/** Which WGSL spelling of the subgroup-matrix built-ins the device's Dawn accepts. */
export type MatrixSyntax = 'template' | 'bool';

/** What {@link prepareTcu} found for one operand family. */
export interface TcuFamilySupport {
  /** The adapter's config used (undefined when none fits). */
  readonly config: SubgroupMatrixConfig | undefined;
  /** The spelling that compiled, or undefined when the subgroup-matrix path is unusable. */
  readonly syntax: MatrixSyntax | undefined;
  /** Why the subgroup-matrix path is not used (empty when it is). */
  readonly reason: string;
  /**
   * Whether the direct kernels passed their device check: for f16, they compiled with the
   * uniformity diagnostic switched off and subgroups were consecutive invocation indices; for u8,
   * the direct count read two units of flags from storage and counted them right.
   */
  readonly direct: boolean;
}

/** The subgroup-matrix support of a device, per family: f16 data, u8 flags. */
export interface TcuSupport {
  readonly f16: TcuFamilySupport;
  readonly u8: TcuFamilySupport;
  /** The subgroup size the subgroup-matrix kernels run with (one subgroup per workgroup). */
  readonly subgroupSize: number | undefined;
}

const probes = new WeakMap<GPUDevice, Promise<TcuSupport>>();
const settled = new WeakMap<GPUDevice, TcuSupport>();

const COMPONENT: Record<Family, { component: string; result: string }> = {
  f16: { component: 'f16', result: 'f32' },
  u8: { component: 'u8', result: 'u32' },
};

/**
 * The adapter's config for a family (f16×f16→f32, or u8×u8→u32), read from
 * `ctx.caps.subgroupMatrixConfigs`: M, N and K come from the adapter, never assumed. Among
 * several, the one with the smallest tile side lcm(M, N, K) (least workgroup memory), then the
 * largest M·N·K.
 *
 * @example
 * ```ts
 * pickConfig(ctx.caps.subgroupMatrixConfigs, 'f16'); // { componentType: 'f16', resultComponentType: 'f32', M: 16, N: 16, K: 16 } on the H100
 * ```
 */
export function pickConfig(configs: readonly SubgroupMatrixConfig[], family: Family): SubgroupMatrixConfig | undefined {
  const want = COMPONENT[family];
  const fits = configs.filter(
    (c) =>
      c.componentType === want.component && c.resultComponentType === want.result && tileSide(c) <= 32 && c.M > 0 && c.N > 0 && c.K > 0,
  );
  fits.sort((a, b) => tileSide(a) - tileSide(b) || b.M * b.N * b.K - a.M * a.N * a.K);
  return fits[0];
}

/** Specialization of the syntax probe: a config, its family, a spelling and the workgroup size. */
type SyntaxProbeSpec = {
  readonly shape: MatrixShape;
  readonly family: Family;
  readonly syntax: MatrixSyntax;
  readonly workgroupSize: number;
};

/** The syntax probe: one M×K·K×N product through workgroup memory in the given spelling. */
const syntaxProbe = defineKernel({
  name: 'tcu/syntax-probe',
  bindings: (spec: SyntaxProbeSpec) => ({ out: readWrite(`array<${COMPONENT[spec.family].result}>`) }),
  enable: (spec) => (spec.family === 'f16' ? ['f16', 'chromium_experimental_subgroup_matrix'] : ['chromium_experimental_subgroup_matrix']),
  wgsl: ({ shape, family, syntax, workgroupSize }) => {
    const { M, N, K } = shape;
    const ct = COMPONENT[family].component;
    const rt = COMPONENT[family].result;
    const opArray = family === 'f16' ? `array<f16, ${M * K + K * N}>` : `array<u32, ${(M * K + K * N + 3) >> 2}>`;
    const load = (type: string, arr: string, off: number, stride: number) =>
      syntax === 'template'
        ? `subgroupMatrixLoad<${type}, row_major>(&${arr}, ${off}u, ${stride}u)`
        : `subgroupMatrixLoad<${type}>(&${arr}, ${off}u, false, ${stride}u)`;
    const store =
      syntax === 'template' ? `subgroupMatrixStore<row_major>(&c, 0u, m, ${N}u);` : `subgroupMatrixStore(&c, 0u, m, false, ${N}u);`;
    return `var<workgroup> a: ${opArray};
var<workgroup> c: array<${rt}, ${M * N}>;
@compute @workgroup_size(${workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32) {
  var m = ${load(`subgroup_matrix_result<${rt}, ${N}, ${M}>`, 'c', 0, N)};
  m = subgroupMatrixMultiplyAccumulate(${load(`subgroup_matrix_left<${ct}, ${K}, ${M}>`, 'a', 0, K)}, ${load(`subgroup_matrix_right<${ct}, ${N}, ${K}>`, 'a', M * K, N)}, m);
  ${store}
  workgroupBarrier();
  if (lid == 0u) { out[0] = c[0]; }
}
`;
  },
});

/**
 * The WGSL of the probe {@link prepareTcu} compiles in each spelling: one M×K·K×N product through
 * workgroup memory, in one subgroup.
 *
 * @example
 * ```ts
 * device.createShaderModule({ code: probeWgsl({ M: 16, N: 16, K: 16 }, 'f16', 'template', 32) });
 * ```
 */
export function probeWgsl(config: MatrixShape, family: Family, syntax: MatrixSyntax, workgroupSize: number): string {
  return syntaxProbe({ shape: { M: config.M, N: config.N, K: config.K }, family, syntax, workgroupSize }).wgsl();
}

/** Whether `work` runs without any WebGPU error (core's error scopes); an error or a rejection is `false`. */
function succeeds(ctx: ScanContext, what: string, work: () => Promise<boolean>): Promise<boolean> {
  return runGuarded(ctx, what, work).catch(() => false);
}

/** The `main` pipeline of `code`; rejects when the module does not compile. */
function pipelineOf(device: GPUDevice, code: string, label: string): Promise<GPUComputePipeline> {
  const module = device.createShaderModule({ label, code });
  return device.createComputePipelineAsync({ label, layout: 'auto', compute: { module, entryPoint: 'main' } });
}

function compiles(ctx: ScanContext, code: string): Promise<boolean> {
  return succeeds(ctx, 'tcu syntax probe', async () => {
    await pipelineOf(ctx.device, code, 'tcu syntax probe');
    return true;
  });
}

/**
 * Runs a one-workgroup probe kernel: `out` gets `outWords` words, which come back for `check`;
 * `flags`, when given, is bound (read-only storage) with those bytes; false on any error.
 */
function probeRuns(
  ctx: ScanContext,
  label: string,
  kernel: Kernel<'out' | 'flags'>,
  outWords: number,
  check: (out: ArrayBuffer) => boolean,
  flags?: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  const device = ctx.device;
  return succeeds(ctx, label, async () => {
    const pipeline = await pipelineOf(device, kernel.wgsl(), label);
    const buffers: GPUBuffer[] = [];
    const make = (size: number, usage: number) => {
      const buffer = device.createBuffer({ label, size, usage });
      buffers.push(buffer);
      return buffer;
    };
    try {
      const bound: { out?: GPUBuffer; flags?: GPUBuffer } = {};
      if (flags) {
        bound.flags = make(flags.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
        device.queue.writeBuffer(bound.flags, 0, flags);
      }
      const out = make(4 * outWords, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
      const read = make(4 * outWords, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
      bound.out = out;
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroupByName(device, kernel, pipeline, bound));
      pass.dispatchWorkgroups(1);
      pass.end();
      encoder.copyBufferToBuffer(out, 0, read, 0, 4 * outWords);
      device.queue.submit([encoder.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const values = read.getMappedRange().slice(0);
      read.unmap();
      return check(values);
    } finally {
      for (const buffer of buffers) buffer.destroy();
    }
  });
}

/** Runs {@link directProbeKernel} once and checks what it wrote; false on any error. */
function directKernelsWork(ctx: ScanContext, S: number, SG: number, syntax: MatrixSyntax): Promise<boolean> {
  const words = 2 * S * S + 2 * SG;
  return probeRuns(ctx, 'tcu direct probe', directProbeKernel({ S, SG, syntax }), words, (out) =>
    new Float32Array(out).every((v, i) => v === (i < 2 * S * S ? S : 1)),
  );
}

/** Runs {@link directCountProbeKernel} once on a unit of ones and a unit of zeros; false on any error. */
function directCountWorks(ctx: ScanContext, shape: MatrixShape, SG: number, syntax: MatrixSyntax): Promise<boolean> {
  const unit = shape.M * shape.N * shape.K;
  const flags = new Uint8Array(2 * unit);
  flags.fill(1, 0, unit);
  const MN = shape.M * shape.N;
  return probeRuns(
    ctx,
    'tcu direct count probe',
    directCountProbeKernel({ shape: { M: shape.M, N: shape.N, K: shape.K }, SG, syntax }),
    2 * MN,
    (out) => new Uint32Array(out).every((v, i) => v === (i < MN ? shape.K : 0)),
    flags,
  );
}

async function probeFamily(ctx: ScanContext, family: Family, subgroupSize: number | undefined): Promise<TcuFamilySupport> {
  const caps = ctx.caps;
  if (!caps.features.subgroupMatrix) {
    return {
      config: undefined,
      syntax: undefined,
      reason: 'the device has no chromium-experimental-subgroup-matrix (or the context turned it off)',
      direct: false,
    };
  }
  if (family === 'f16' && !caps.features.shaderF16)
    return { config: undefined, syntax: undefined, reason: 'the device has no shader-f16', direct: false };
  const config = pickConfig(caps.subgroupMatrixConfigs, family);
  if (!config) {
    return {
      config: undefined,
      syntax: undefined,
      reason: `no ${COMPONENT[family].component}→${COMPONENT[family].result} config among the adapter's subgroup-matrix configs`,
      direct: false,
    };
  }
  if (subgroupSize === undefined) {
    return {
      config,
      syntax: undefined,
      reason: 'the adapter reports no single subgroup size (subgroupMinSize ≠ subgroupMaxSize)',
      direct: false,
    };
  }
  for (const syntax of ['template', 'bool'] as const) {
    if (await compiles(ctx, probeWgsl(config, family, syntax, subgroupSize))) {
      const shape = { M: config.M, N: config.N, K: config.K };
      const candidate = {
        kind: 'subgroup-matrix',
        family,
        shape,
        S: tileSide(shape),
        syntax,
        workgroupSize: subgroupSize,
        direct: true,
      } as const;
      const direct =
        family === 'f16'
          ? directApplies(candidate) && (await directKernelsWork(ctx, candidate.S, subgroupSize, syntax))
          : directCountApplies(candidate) && (await directCountWorks(ctx, shape, subgroupSize, syntax));
      return { config, syntax, reason: '', direct };
    }
  }
  return { config, syntax: undefined, reason: 'neither spelling of the subgroup-matrix built-ins compiled on this Dawn', direct: false };
}

/**
 * Finds out, once per device, whether the subgroup-matrix (tensor-core) path can run, and with
 * which WGSL spelling: the built-ins changed between Dawn versions from a bool argument
 * (`subgroupMatrixLoad<T>(&a, off, false, stride)`) to a template (`subgroupMatrixLoad<T, row_major>(&a, off, stride)`).
 * It compiles a tiny product in each spelling inside error scopes (shader module, its compilation
 * messages, a pipeline) and caches the answer per device. The array-level functions call it; call
 * it yourself before creating a plan with `path: 'auto'` on a device with subgroup matrices.
 *
 * @example
 * ```ts
 * const support = await prepareTcu(ctx);
 * console.log(support.f16.syntax ?? support.f16.reason); // 'template' on the H100 with webgpu@0.6.2
 * ```
 */
export function prepareTcu(ctx: ScanContext): Promise<TcuSupport> {
  let pending = probes.get(ctx.device);
  if (!pending) {
    const min = ctx.caps.subgroupMinSize;
    const max = ctx.caps.subgroupMaxSize;
    const subgroupSize = min !== undefined && min === max ? min : undefined;
    pending = (async () => {
      const support = { f16: await probeFamily(ctx, 'f16', subgroupSize), u8: await probeFamily(ctx, 'u8', subgroupSize), subgroupSize };
      settled.set(ctx.device, support);
      return support;
    })();
    probes.set(ctx.device, pending);
  }
  return pending;
}

/** The cached answer of {@link prepareTcu}, or undefined before it settled. */
export function tcuSupportOf(ctx: ScanContext): TcuSupport | undefined {
  return settled.get(ctx.device);
}

/** Which path a plan takes. */
export type TcuPathOption = 'auto' | 'subgroup-matrix' | 'emulated';

/** Shape the emulated path mirrors (default 16×16×16: tile side 16). */
export const DEFAULT_EMULATED_SHAPE: MatrixShape = { M: 16, N: 16, K: 16 };

/** Invocations per workgroup on the emulated path. */
export const EMULATED_WORKGROUP = 64;

/**
 * Resolves the path of a plan: `emulated` always works; `subgroup-matrix` needs {@link prepareTcu}
 * to have found a config and spelling; `auto` takes the subgroup-matrix path when it can — for u8
 * counting only when its direct kernel passed the device check, since the staged u8 kernels on
 * subgroup matrices lost to the emulated path at every segment size on the H100 (2^28 flags,
 * segments 16 / 256 / 4096 / 65536: 10.9 / 81 / 6.7 / 3.4 ms against 3.7 / 4.9 / 2.1 / 2.1 ms;
 * BENCHMARKS.md), and a count plan on `auto` runs its staged work on the emulated path.
 *
 * @example
 * ```ts
 * await prepareTcu(ctx);
 * resolvePath(ctx, 'f16', 'auto').kind; // 'subgroup-matrix' on the H100, 'emulated' on SwiftShader
 * resolvePath(ctx, 'u8', 'auto').kind; // 'subgroup-matrix' on the H100 (its direct count passed)
 * ```
 */
export function resolvePath(
  ctx: ScanContext,
  family: Family,
  option: TcuPathOption,
  emulatedShape: MatrixShape = DEFAULT_EMULATED_SHAPE,
): MatrixPath {
  const emulated: MatrixPath = {
    kind: 'emulated',
    family,
    shape: emulatedShape,
    S: tileSide(emulatedShape),
    syntax: 'template',
    workgroupSize: EMULATED_WORKGROUP,
    direct: false,
  };
  if (option === 'emulated') return emulated;
  const support = tcuSupportOf(ctx);
  if (!support) {
    if (!ctx.caps.features.subgroupMatrix && option === 'auto') return emulated;
    throw new ScanError(
      'INVALID_ARGUMENT',
      `options.path = '${option}': the device has subgroup matrices; await prepareTcu(ctx) once before creating a plan, so the WGSL spelling is known`,
      { argument: 'options.path' },
    );
  }
  const f = support[family];
  if (!f.syntax || !f.config || support.subgroupSize === undefined || (family === 'u8' && option === 'auto' && !f.direct)) {
    if (option === 'auto') return emulated;
    throw new ScanError('UNSUPPORTED', `options.path = 'subgroup-matrix': ${f.reason}`, { argument: 'options.path' });
  }
  return {
    kind: 'subgroup-matrix',
    family,
    shape: { M: f.config.M, N: f.config.N, K: f.config.K },
    S: tileSide(f.config),
    syntax: f.syntax,
    workgroupSize: support.subgroupSize,
    direct: f.direct,
  };
}
