// The values the documentation's examples may use without declaring them, as if the page around the
// example had set them up. scripts/check-examples/run.mjs imports the ones an example uses and does
// not declare itself. Keep this short: an example that needs anything else declares it.
import type { ScanContext } from '@scan/core';
import type { RecipeBuilder } from '@scan/core/kit';

/** A context, from `createContext(device)` or `createNodeContext()`. */
export declare const ctx: ScanContext;
/** The context's device (`ctx.device`). */
export declare const device: GPUDevice;
/** The adapter the device came from (`await navigator.gpu.requestAdapter()`). */
export declare const adapter: GPUAdapter;
/** A command encoder the example records into. */
export declare const encoder: GPUCommandEncoder;
/** Inside a plan's recipe (`@scan/core/kit`): the builder that records its steps. */
export declare const b: RecipeBuilder;
