// Minimal reproduction of the Dawn-in-Node crash (webgpu@0.6.2): the object `create()` returns is
// the Dawn instance, and nothing else keeps it alive — not the adapter, not the device. Once the
// script no longer uses it, V8 may collect it while the device is still working, and Dawn's threads
// then run on freed state: a segfault, "The futex facility returned an unexpected error code",
// `std::system_error` ("Invalid argument", "Owner died"), glibc mutex assertions, or a hang.
//
// The loop is the one of shared/gpu/dawn-node-stress.mjs: upload, dispatch, read back, check.
// HOLD=1 keeps a strong reference to the instance for the whole run; without it the script drops
// its reference after requestDevice, and with --expose-gc collects garbage every round, so the
// instance goes at once. (A script that merely stops using `gpu` loses it too, only later: V8 need
// not keep a variable no code reads again.)
//
//   export VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json   # and LD_LIBRARY_PATH=/usr/lib/chromium without libvulkan1
//   HOLD=1 node --expose-gc dawn-instance-lifetime.mjs   # ok 100
//   node --expose-gc dawn-instance-lifetime.mjs          # never prints ok: the first mapAsync never resolves (Node
//                                                        # exits with 13, an unsettled await), or a crash
//
// Measured 2026-11-25, SwiftShader: on the lent machine's 16-core host the loop of
// shared/gpu/dawn-node-stress.mjs (which stops using `gpu` after requestAdapter) crashed or hung in
// 38 of 38 runs within 10 iterations, and ran 100 iterations clean in 5 of 5 with the reference held
// (as did 10 of 10 runs of @scan/core's `scan` through createNodeContext, which holds it in the
// context). This script on this repository's 2-core machine: 4 of 4 runs without HOLD aborted
// (futex, std::system_error), segfaulted or hung; 4 of 4 with HOLD printed "ok 100".
import { create, globals } from 'webgpu';

Object.assign(globalThis, globals);
let gpu = create([]);
const adapter = await gpu.requestAdapter();
const device = await adapter.requestDevice();
// What a script does without thinking about it: it never touches the instance again.
if (!process.env.HOLD) gpu = undefined;
const module = device.createShaderModule({
  code: `@group(0) @binding(0) var<storage, read_write> d: array<u32>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * 256u;
  if (i < arrayLength(&d)) { d[i] = d[i] + 1u; }
}`,
});
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
const iterations = Number(process.env.ITERS || 100);
let seed = 1;
const random = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 4294967296;
};
for (let it = 0; it < iterations; it++) {
  // With --expose-gc, collect every round: the instance goes at once if nothing holds it.
  globalThis.gc?.();
  const n = 1 + Math.floor(random() * 2 ** 20);
  const data = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
  const buffer = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data);
  const readback = device.createBuffer({ size: 4 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const bindGroup = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  const groups = Math.ceil(n / 256);
  pass.dispatchWorkgroups(Math.min(groups, 65535), Math.ceil(groups / 65535));
  pass.end();
  encoder.copyBufferToBuffer(buffer, 0, readback, 0, 4 * n);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(readback.getMappedRange());
  const bad = out.filter((v, i) => v !== (data[i] + 1) >>> 0).length;
  readback.unmap();
  readback.destroy();
  buffer.destroy();
  if (bad > 0) {
    console.log(`iteration ${it}: ${bad} of ${n} wrong`);
    process.exit(2);
  }
}
console.log('ok', iterations);
device.destroy();
