// The subgroup probe (issue 46, item 3): a device may list `subgroups` and still reject
// `enable subgroups;` (Deno's wgpu: naga). The context must notice once per device and give every
// kernel its portable path, rather than fail every call with GPU_ERROR.
import { getTestContext, randomData } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/context.js';
import * as cpu from '../src/cpu/index.js';
import { pack, reduce } from '../src/ops/primitives.js';
import { scan } from '../src/ops/scan.js';
import { createScanPlan } from '../src/plans/scan-plan.js';
import { subgroupVerdict } from '../src/subgroup-probe.js';
import { subgroupsChecked } from '../src/subgroups-checked.js';
import { bufferOf, poisoned, runBatch } from './harness.js';

/**
 * The test device as naga would present it: every method passes through, but a shader module that
 * enables `subgroups` is made from WGSL that does not parse, so it fails validation as under Deno.
 */
function nagaLike(device: GPUDevice): { device: GPUDevice; rejected: string[] } {
  const rejected: string[] = [];
  const wrapped = new Proxy(device, {
    get(target, key) {
      if (key === 'createShaderModule') {
        return (descriptor: GPUShaderModuleDescriptor) => {
          if (!/\benable\s+subgroups\s*;/.test(descriptor.code)) return target.createShaderModule(descriptor);
          rejected.push(descriptor.label ?? '');
          return target.createShaderModule({ ...descriptor, code: `enable naga_has_no_subgroups;\n${descriptor.code}` });
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { device: wrapped, rejected };
}

describe('subgroup probe', () => {
  it('a device whose compiler rejects `enable subgroups;` gets the portable kernels, with right results', async () => {
    const real = await getTestContext();
    // The test is only meaningful where the device lists subgroups (Chrome on SwiftShader does).
    expect(real.device.features.has('subgroups')).toBe(true);
    const naga = nagaLike(real.device);
    const ctx = createContext(naga.device, { adapterInfo: { subgroupMinSize: 4, subgroupMaxSize: 4 } });
    // Listed, so true until the probe says otherwise: plans made at once on Chrome need not wait.
    expect(ctx.caps.features.subgroups).toBe(true);
    const data = randomData('u32', 5000, 46);
    expect([...(await scan(ctx, data))]).toEqual([...cpu.scan(data)]);
    expect(await reduce(ctx, data, { op: 'max' })).toBe(cpu.reduce(data, { op: 'max' }));
    const flags = randomData('u32', 5000, 47).map((x) => x & 1);
    expect([...(await pack(ctx, data, flags))]).toEqual([...cpu.pack(data, flags)]);
    // One probe, no kernel: only the probe's module asked for the extension.
    expect(naga.rejected).toEqual(['scan: subgroups probe']);
    expect(ctx.caps.features.subgroups).toBe(false);
    expect(subgroupVerdict(naga.device)).toBe(false);
    expect(await subgroupsChecked(ctx)).toBe(false);
    // A second context on the same device reuses the verdict; plans made after it are portable.
    const again = createContext(naga.device);
    expect(again.caps.features.subgroups).toBe(false);
    const plan = createScanPlan(again, { type: 'u32', inclusive: true });
    await plan.ready;
    const input = bufferOf(again, data);
    const output = poisoned(again, data.byteLength);
    const record = (encoder: GPUCommandEncoder) => {
      plan.encode(encoder, { input, output, count: data.length });
      return [{ buffer: output, bytes: data.byteLength }];
    };
    const [results] = await runBatch(again, [{ record }], [plan, input]);
    const out = results?.[0];
    expect([...new Uint32Array(out!)]).toEqual([...cpu.scan(data, { inclusive: true })]);
    expect(naga.rejected).toHaveLength(1);
  });

  it('a device whose compiler takes subgroups keeps them', async () => {
    const ctx = await getTestContext();
    expect(await subgroupsChecked(ctx)).toBe(true);
    expect(ctx.caps.features.subgroups).toBe(true);
    expect(subgroupVerdict(ctx.device)).toBe(true);
    // `subgroups: false` needs no probe and stays false.
    const portable = await getTestContext({ subgroups: false });
    expect(await subgroupsChecked(portable)).toBe(false);
  });
});
