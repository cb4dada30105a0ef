import type { ScanContext } from '@scan/core';
import type { FrameCaseData, FrameData } from './frame-data.js';
import { packFrameData } from './pack-frame-data.js';
import { scanFrameData } from './scan-frame-data.js';
import { segmentedScanFrameData } from './segmented-scan-frame-data.js';
import { sortFrameData } from './sort-frame-data.js';

// The data of each plan a frame case records (see frame-data.ts), by its `frameWorkload`.

/**
 * The data of a frame case's plan on the GPU (see {@link FrameData}).
 *
 * @example
 * ```ts
 * const data = await frameDataOf(ctx, c);
 * ```
 */
export function frameDataOf(ctx: ScanContext, c: FrameCaseData): Promise<FrameData> {
  switch (c.frameWorkload) {
    case 'sort':
      return sortFrameData(ctx, c);
    case 'pack':
      return packFrameData(ctx, c);
    case 'scan':
      return scanFrameData(ctx, c);
    case 'segmented-scan':
      return segmentedScanFrameData(ctx, c);
  }
}
