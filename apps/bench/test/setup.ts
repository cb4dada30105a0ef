import { setVerifyKernelKeys } from '@scan/core/kit';

// Every pipeline cache hit regenerates the kernel's WGSL and throws if it differs from what was
// compiled under its key: a bench kernel whose specialization misses something its generator
// reads would otherwise run another specialization's pipeline.
setVerifyKernelKeys(true);
