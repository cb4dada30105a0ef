// createNodeContext on this machine's Dawn. `software: true` pins the assertions to SwiftShader, so
// they hold on a GPU machine too. Large host data in Node is tooling/node-suite's subject.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ScanContext } from '../../src/context.js';
import { scanDeviceDescriptor } from '../../src/device-descriptor.js';
import { ScanError } from '../../src/errors.js';
import { normalizeAdapterInfo } from '../../src/node/device.js';
import { createNodeContext } from '../../src/node/index.js';
import { bundleNodeEntry, packageRoot } from './bundle.js';

/** Runs a WGSL kernel over `count` u32 outputs and reads them back, failing on any GPU error. */
async function run(device: GPUDevice, code: string, count: number): Promise<Uint32Array> {
  device.pushErrorScope('validation');
  const out = device.createBuffer({ size: count * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: count * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module: device.createShaderModule({ code }), entryPoint: 'main' },
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: out } }] }),
  );
  pass.dispatchWorkgroups(1);
  pass.end();
  encoder.copyBufferToBuffer(out, 0, read, 0, count * 4);
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(error.message);
  await read.mapAsync(GPUMapMode.READ);
  const result = new Uint32Array(read.getMappedRange().slice(0));
  read.unmap();
  out.destroy();
  read.destroy();
  return result;
}

describe('createNodeContext on SwiftShader', () => {
  let ctx: ScanContext;
  beforeAll(async () => {
    ctx = await createNodeContext({ software: true, toggles: ['disable-dawn-features=timestamp_quantization'] });
  });
  afterAll(() => ctx?.destroy());

  test('caps: subgroups of size 4, timestamp-query, no f16, no subgroup matrices, the adapter limits', () => {
    console.log('caps on SwiftShader:', JSON.stringify(ctx.caps));
    expect(ctx.caps.adapter.description).toMatch(/SwiftShader/);
    expect(ctx.caps.features).toEqual({ subgroups: true, shaderF16: false, timestampQuery: true, subgroupMatrix: false });
    expect(ctx.caps.subgroupMinSize).toBe(4);
    expect(ctx.caps.subgroupMaxSize).toBe(4);
    expect(ctx.caps.subgroupMatrixConfigs).toEqual([]);
    // The adapter's maxima, not WebGPU's defaults (128 MiB bindings, 16 KiB workgroup memory).
    expect(ctx.caps.limits.maxStorageBufferBindingSize).toBe(2 ** 30);
    expect(ctx.caps.limits.maxBufferSize).toBe(2 ** 30);
    expect(ctx.caps.limits.maxComputeWorkgroupStorageSize).toBe(32768);
    expect(ctx.caps.limits.maxComputeInvocationsPerWorkgroup).toBe(256);
    expect(ctx.caps.limits.maxComputeWorkgroupSizeX).toBe(256);
    expect(ctx.caps.limits.maxComputeWorkgroupsPerDimension).toBe(65535);
    expect(ctx.lostReason).toBeUndefined();
  });

  test('the device really has subgroups of the reported size', async () => {
    const code = `enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_size) size: u32) {
  out[i] = size * 1000u + subgroupAdd(1u);
}`;
    const expected = ctx.caps.subgroupMinSize! * 1001;
    expect([...new Set(await run(ctx.device, code, 64))]).toEqual([expected]);
  });

  test('timestamp queries record on the device', async () => {
    const { device } = ctx;
    const querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
    const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    device.pushErrorScope('validation');
    const encoder = device.createCommandEncoder();
    encoder.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } }).end();
    encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
    encoder.copyBufferToBuffer(resolve, 0, read, 0, 16);
    device.queue.submit([encoder.finish()]);
    expect(await device.popErrorScope()).toBeNull();
    await read.mapAsync(GPUMapMode.READ);
    const [begin, end] = new BigUint64Array(read.getMappedRange().slice(0));
    read.unmap();
    expect(end! >= begin!).toBe(true);
    for (const b of [querySet, resolve, read]) b.destroy();
  });

  test('Dawn globals are defined for Node code written for the browser', () => {
    expect(GPUBufferUsage.STORAGE).toBe(0x80);
    expect(GPUMapMode.READ).toBe(1);
  });
});

describe('createNodeContext options', () => {
  test('the default finds an adapter (the GPU, or SwiftShader without one)', async () => {
    const ctx = await createNodeContext();
    expect(ctx.caps.adapter.vendor).not.toBe('');
    ctx.destroy();
  });

  test('subgroups: false masks the feature; destroy() marks the context and loses the device', async () => {
    const ctx = await createNodeContext({ software: true, subgroups: false });
    expect(ctx.caps.features.subgroups).toBe(false);
    expect(ctx.device.features.has('subgroups')).toBe(true);
    ctx.destroy();
    expect(ctx.lostReason).toBe('the context was destroyed');
    expect((await ctx.device.lost).reason).toBe('destroyed');
  });

  test('SCAN_DAWN_TOGGLES is read, and a malformed one is INVALID_ARGUMENT', async () => {
    const saved = process.env['SCAN_DAWN_TOGGLES'];
    try {
      process.env['SCAN_DAWN_TOGGLES'] = 'enable-dawn-features=allow_unsafe_apis disable-dawn-features=timestamp_quantization';
      const ctx = await createNodeContext({ software: true });
      ctx.destroy();
      process.env['SCAN_DAWN_TOGGLES'] = 'allow_unsafe_apis';
      await expect(createNodeContext({ software: true })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'SCAN_DAWN_TOGGLES[0]',
      });
    } finally {
      if (saved === undefined) delete process.env['SCAN_DAWN_TOGGLES'];
      else process.env['SCAN_DAWN_TOGGLES'] = saved;
    }
  });

  test("a toggle Dawn rejects surfaces as ScanError INVALID_ARGUMENT 'toggles'", async () => {
    const error = await createNodeContext({ software: true, toggles: ['backend=nope'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScanError);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'toggles' });
  });
});

describe('device descriptor and adapter info', () => {
  test('requests only the scan features the adapter has, at the adapter limits', () => {
    const adapter = {
      features: new Set(['subgroups', 'timestamp-query', 'texture-compression-bc']),
      limits: {
        maxStorageBufferBindingSize: 2 ** 31,
        maxBufferSize: 2 ** 32,
        maxComputeWorkgroupStorageSize: 49152,
        maxComputeInvocationsPerWorkgroup: 1024,
        maxComputeWorkgroupSizeX: 1024,
        maxComputeWorkgroupsPerDimension: 65535,
        maxTextureDimension2D: 16384,
      },
    } as unknown as GPUAdapter;
    expect(scanDeviceDescriptor(adapter)).toMatchObject({
      requiredFeatures: ['subgroups', 'timestamp-query'],
      requiredLimits: {
        maxStorageBufferBindingSize: 2 ** 31,
        maxBufferSize: 2 ** 32,
        maxComputeWorkgroupStorageSize: 49152,
        maxComputeInvocationsPerWorkgroup: 1024,
        maxComputeWorkgroupSizeX: 1024,
        maxComputeWorkgroupsPerDimension: 65535,
      },
    });
  });

  test("reads Dawn's getters and its subgroupMatrixConfigs name", () => {
    class Config {
      get componentType() {
        return 'f16';
      }
      get resultComponentType() {
        return 'f32';
      }
      get M() {
        return 16;
      }
      get N() {
        return 16;
      }
      get K() {
        return 16;
      }
    }
    class Info {
      get vendor() {
        return 'nvidia';
      }
      get subgroupMinSize() {
        return 32;
      }
      get subgroupMatrixConfigs() {
        return [new Config()];
      }
    }
    const info = normalizeAdapterInfo(new Info() as unknown as GPUAdapterInfo);
    expect(info).toMatchObject({ vendor: 'nvidia', description: '', subgroupMinSize: 32, subgroupMaxSize: undefined });
    expect(info.subgroupMatrixConfigurations).toEqual([{ componentType: 'f16', resultComponentType: 'f32', M: 16, N: 16, K: 16 }]);
  });
});

describe('process exit', () => {
  let entry: string;
  beforeAll(async () => {
    entry = pathToFileURL(await bundleNodeEntry()).href;
  });

  /**
   * Runs `body` after `ctx` exists in a fresh `node` (with `nodeArgs`); resolves with its exit and output.
   * A child that does not exit is killed at `timeoutMs` and shows as `signal: 'SIGKILL'`, which the
   * exit assertions catch; how long a start takes on a loaded CI machine is not asserted.
   */
  function child(body: string, timeoutMs = 40_000, nodeArgs: string[] = []) {
    const script = `const { createNodeContext } = await import(process.env.SCAN_TEST_ENTRY);
const ctx = await createNodeContext({ software: true });
${body}`;
    return new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
      const proc = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], {
        cwd: packageRoot,
        env: { ...process.env, SCAN_TEST_ENTRY: entry },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (d) => {
        stdout += d;
      });
      proc.stderr.on('data', (d) => {
        stderr += d;
      });
      const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
      proc.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  test('node exits with code 0 by itself after ctx.destroy() (three runs)', async () => {
    for (let i = 0; i < 3; i++) {
      const result =
        await child(`const b = ctx.device.createBuffer({ size: 1024, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
await b.mapAsync(GPUMapMode.READ); b.unmap();
console.log('caps', ctx.caps.adapter.description, ctx.caps.subgroupMinSize);
ctx.destroy();
console.log('destroyed');`);
      expect(result, result.stderr).toMatchObject({ code: 0, signal: null });
      expect(result.stdout).toContain('caps SwiftShader driver');
      expect(result.stdout).toContain('destroyed');
    }
  });

  test('a read-back still pending at destroy() does not keep node alive', async () => {
    const result = await child(`const b = ctx.device.createBuffer({ size: 1024, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
b.mapAsync(GPUMapMode.READ).catch(() => console.log('map rejected'));
ctx.destroy();`);
    expect(result, result.stderr).toMatchObject({ code: 0, signal: null });
  });

  test('the context keeps the Dawn instance alive: rounds of upload, dispatch and read-back with gc() before each', async () => {
    // The script keeps nothing of Dawn's but `ctx`. Without the context holding the instance, this
    // loop hung at its first mapAsync or crashed within a few rounds in every run
    // (scripts/dawn-instance-lifetime.mjs); 2^18 words keep each round a megabyte each way.
    const result = await child(
      `const n = 1 << 18;
const device = ctx.device;
const module = device.createShaderModule({ code: '@group(0) @binding(0) var<storage, read_write> d: array<u32>; @compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>) { d[g.x] = d[g.x] * 3u + 1u; }' });
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
let correct = 0;
for (let round = 0; round < 20; round++) {
  globalThis.gc();
  const data = Uint32Array.from({ length: n }, (_, i) => i + round);
  const buffer = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const read = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data);
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] }));
  pass.dispatchWorkgroups(n / 256);
  pass.end();
  encoder.copyBufferToBuffer(buffer, 0, read, 0, 4 * n);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const got = new Uint32Array(read.getMappedRange());
  if (got.every((v, i) => v === ((data[i] * 3 + 1) >>> 0))) correct++;
  read.unmap();
  buffer.destroy();
  read.destroy();
}
console.log('correct rounds', correct);
ctx.destroy();`,
      60_000,
      ['--expose-gc'],
    );
    expect(result, result.stderr).toMatchObject({ code: 0, signal: null });
    expect(result.stdout).toContain('correct rounds 20');
  });
});
