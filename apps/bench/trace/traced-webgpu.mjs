// The `webgpu` package (Dawn), with a device that records what it runs into SCAN_TRACE_DIR:
// shaders/<hash>.wgsl (each module's code, its label on the first line) and calls.jsonl (one line
// per queue.submit: the process id and the commands encoded since the previous submit — each
// compute pass, each dispatch with its pipeline's label and workgroup counts, each buffer copy and
// clear with its byte count). Nothing else changes: the device is the real one.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as real from 'webgpu';

const dir = process.env.SCAN_TRACE_DIR;
if (!dir) throw new Error('traced-webgpu: set SCAN_TRACE_DIR to the folder the trace goes to');
mkdirSync(join(dir, 'shaders'), { recursive: true });
const calls = join(dir, 'calls.jsonl');

/** Pipeline → the label of its shader module (or its own label). */
const labels = new WeakMap();

function traceDevice(device) {
  let commands = [];
  const createShaderModule = device.createShaderModule.bind(device);
  device.createShaderModule = (descriptor) => {
    const hash = createHash('sha1').update(descriptor.code).digest('hex').slice(0, 12);
    writeFileSync(join(dir, 'shaders', `${hash}.wgsl`), `// label: ${descriptor.label ?? ''}\n${descriptor.code}`);
    const module = createShaderModule(descriptor);
    labels.set(module, descriptor.label ?? hash);
    return module;
  };
  const labelOf = (descriptor) => labels.get(descriptor.compute?.module) ?? descriptor.label ?? '?';
  const createComputePipeline = device.createComputePipeline.bind(device);
  device.createComputePipeline = (descriptor) => {
    const pipeline = createComputePipeline(descriptor);
    labels.set(pipeline, labelOf(descriptor));
    return pipeline;
  };
  const createComputePipelineAsync = device.createComputePipelineAsync.bind(device);
  device.createComputePipelineAsync = async (descriptor) => {
    const pipeline = await createComputePipelineAsync(descriptor);
    labels.set(pipeline, labelOf(descriptor));
    return pipeline;
  };
  const createCommandEncoder = device.createCommandEncoder.bind(device);
  device.createCommandEncoder = (descriptor) => {
    const encoder = createCommandEncoder(descriptor);
    const beginComputePass = encoder.beginComputePass.bind(encoder);
    encoder.beginComputePass = (passDescriptor) => {
      const pass = beginComputePass(passDescriptor);
      commands.push(passDescriptor?.timestampWrites ? 'pass (timestamps)' : 'pass');
      let pipelineLabel = '?';
      const setPipeline = pass.setPipeline.bind(pass);
      pass.setPipeline = (pipeline) => {
        pipelineLabel = labels.get(pipeline) ?? '?';
        return setPipeline(pipeline);
      };
      const dispatch = pass.dispatchWorkgroups.bind(pass);
      pass.dispatchWorkgroups = (x, y = 1, z = 1) => {
        commands.push(`dispatch ${pipelineLabel} [${x},${y},${z}]`);
        return dispatch(x, y, z);
      };
      const dispatchIndirect = pass.dispatchWorkgroupsIndirect.bind(pass);
      pass.dispatchWorkgroupsIndirect = (buffer, offset) => {
        commands.push(`dispatch ${pipelineLabel} [indirect]`);
        return dispatchIndirect(buffer, offset);
      };
      return pass;
    };
    const copy = encoder.copyBufferToBuffer.bind(encoder);
    encoder.copyBufferToBuffer = (...args) => {
      commands.push(`copy ${args.length === 5 ? args[4] : (args[2] ?? 'whole')} bytes`);
      return copy(...args);
    };
    const clear = encoder.clearBuffer.bind(encoder);
    encoder.clearBuffer = (buffer, offset = 0, size) => {
      commands.push(`clear ${size ?? buffer.size - offset} bytes`);
      return clear(buffer, offset, size);
    };
    return encoder;
  };
  const submit = device.queue.submit.bind(device.queue);
  device.queue.submit = (buffers) => {
    appendFileSync(calls, `${JSON.stringify({ pid: process.pid, commands })}\n`);
    commands = [];
    return submit(buffers);
  };
  return device;
}

export const globals = real.globals;

export function create(options) {
  const gpu = real.create(options);
  const requestAdapter = gpu.requestAdapter.bind(gpu);
  gpu.requestAdapter = async (adapterOptions) => {
    const adapter = await requestAdapter(adapterOptions);
    if (!adapter) return adapter;
    const requestDevice = adapter.requestDevice.bind(adapter);
    adapter.requestDevice = async (deviceOptions) => traceDevice(await requestDevice(deviceOptions));
    return adapter;
  };
  return gpu;
}
