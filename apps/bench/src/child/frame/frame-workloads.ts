import type { FrameWorkloadName } from '../../case-types.js';
import type { FrameDataFactory } from './frame-data.js';
import { packFrameData } from './pack-frame-data.js';
import { scanFrameData } from './scan-frame-data.js';
import { segmentedScanFrameData } from './segmented-scan-frame-data.js';
import { sortFrameData } from './sort-frame-data.js';

/**
 * The data factory of every frame workload.
 *
 * @example
 * ```ts
 * const data = await FRAME_DATA[c.frameWorkload ?? 'scan'](ctx, c);
 * ```
 */
export const FRAME_DATA: Readonly<Record<FrameWorkloadName, FrameDataFactory>> = {
  sort: sortFrameData,
  pack: packFrameData,
  scan: scanFrameData,
  'segmented-scan': segmentedScanFrameData,
};
