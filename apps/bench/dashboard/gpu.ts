import { createContext, type ScanContext, scanDeviceDescriptor } from '@scan/core';

/**
 * A context on the visitor's GPU for live runs: the high-performance adapter, every feature the
 * kernels can use that it offers (timestamps make the timings GPU-side), and its largest limits.
 * Throws a message a visitor can act on when the browser has no WebGPU.
 *
 * @example
 * ```ts
 * const ctx = await createPageContext();
 * ```
 */
export async function createPageContext(): Promise<ScanContext> {
  const gpu = (navigator as { gpu?: GPU }).gpu;
  if (!gpu)
    throw new Error(
      'This browser has no WebGPU (navigator.gpu is missing). Chrome, Edge and Safari 26 have it; Firefox has it on Windows.',
    );
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('navigator.gpu.requestAdapter() returned no adapter: WebGPU is disabled or the GPU is blocklisted.');
  const device = await adapter.requestDevice(scanDeviceDescriptor(adapter, 'scan dashboard live run'));
  return createContext(device, { adapterInfo: adapter.info });
}
