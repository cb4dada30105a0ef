import { expect, test } from 'vitest';

test('webgpu smoke', async () => {
  const adapter = await navigator.gpu.requestAdapter();
  expect(adapter).toBeTruthy();
  const features = [...adapter!.features];
  const device = await adapter!.requestDevice({
    requiredFeatures: features.filter((f) => f === 'subgroups' || f === 'timestamp-query') as GPUFeatureName[],
  });
  const info = adapter!.info as GPUAdapterInfo & { subgroupMinSize?: number; subgroupMaxSize?: number };
  console.log(
    JSON.stringify({
      features,
      vendor: info.vendor,
      arch: info.architecture,
      desc: info.description,
      sgmin: info.subgroupMinSize,
      sgmax: info.subgroupMaxSize,
      maxBind: adapter!.limits.maxStorageBufferBindingSize,
      maxBuf: adapter!.limits.maxBufferSize,
      wgs: adapter!.limits.maxComputeWorkgroupStorageSize,
      inv: adapter!.limits.maxComputeInvocationsPerWorkgroup,
    }),
  );
  expect(device.features.has('subgroups')).toBe(true);
});
