// The part of gridwise (gridwise-webgpu/gridwise, not on npm) the runner calls. `gridwise` is resolved
// at build time to $GRIDWISE_SRC/onesweep.mjs by tsup.config.ts; nothing of gridwise is in this repository.
declare module 'gridwise' {
  /** gridwise's OneSweep LSD radix sort (8-bit digits; in place: the sorted keys end in `keysInOut`). */
  export class OneSweepSort {
    constructor(options: {
      device: GPUDevice;
      datatype: 'u32' | 'i32' | 'f32' | 'u64';
      type?: 'keysonly' | 'keyvalue';
      direction?: 'ascending' | 'descending';
      disableSubgroups?: boolean;
      label?: string;
    });
    /** Whether its kernels use subgroup builtins (the device has `subgroups` and they were not disabled). */
    readonly useSubgroups: boolean;
    /** Set once `execute` ran: scatter passes, keys per thread, workgroups of a pass. */
    readonly SORT_PASSES?: number;
    readonly KEYS_PER_THREAD?: number;
    readonly passWorkgroupCount?: number;
    /** Registers a caller's buffer under one of the sort's names (`keysInOut`, `keysTemp`). */
    registerBuffer(buffer: { label: string; buffer: GPUBuffer; device?: GPUDevice }): void;
    /** With `encoder`: records its clears and passes there and neither finishes nor submits. */
    execute(args?: { encoder?: GPUCommandEncoder }): Promise<unknown>;
    /** A registered buffer (gridwise's `Buffer`, its `GPUBuffer` at `.buffer.buffer`). */
    getBuffer(label: string): { buffer?: { buffer?: GPUBuffer } } | undefined;
  }
}

/** gridwise's version and commit, set by tsup.config.ts from $GRIDWISE_SRC at build time. */
declare const __GRIDWISE_VERSION__: string;
