// How long a Dawn instance must live. With `webgpu@0.6.2` neither the adapter nor the device keeps
// the instance (the object `create()` returns) alive, and Dawn delivers every callback of a device
// (mapAsync, createComputePipelineAsync, popErrorScope, onSubmittedWorkDone, device.lost) through
// its instance. Once V8 frees the instance, a device still in use, or one with a callback still
// pending, runs on freed state: futex and mutex errors, std::system_error, segfaults, hangs.
//
// "Until destroy() and the queue's work are done" was not long enough (issue 46): after a call
// rejects with DEVICE_LOST, its abandoned work still runs (the rejection does not wait for it) and
// creates pipelines on the destroyed device in later tasks of the event loop, past any point a
// destroy() can see. A scavenge in that window (importing @scan/sort made the heap large enough
// for one) freed the instance under the pending compiles, and Node aborted at exit. So the
// instance now lives exactly as long as its device can be reached: by the context, by the user's
// `ctx.device`, or by a call still running on it (its frame holds the context).

/** Each device's Dawn instance. A WeakMap keeps a value alive for as long as its key is reachable. */
const instances = new WeakMap<GPUDevice, GPU>();

/**
 * Keeps `gpu`, the Dawn instance `device` came from, alive for as long as `device` itself can be
 * reached, and no longer: nothing global refers to either, so a device and its instance that
 * nobody references are collected together, and Node still exits by itself.
 *
 * @example
 * ```ts
 * import { create } from 'webgpu';
 * const gpu = create([]);
 * const device = await (await gpu.requestAdapter())!.requestDevice();
 * keepInstanceWithDevice(device, gpu); // `gpu` may go out of scope now
 * ```
 */
export function keepInstanceWithDevice(device: GPUDevice, gpu: GPU): void {
  instances.set(device, gpu);
}
