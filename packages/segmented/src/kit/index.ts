/**
 * `@scan/segmented/kit`, **for package authors**: the argument checks of `@scan/segmented` that
 * packages taking segments of their own (`@scan/sort`'s segmented sort, for one) share, so they
 * reject the same inputs with the same messages — head flags (`checkHeadFlags`), segment offsets
 * (`checkOffsets`), and either form, tagged with its segment count (`checkSegments`,
 * `NormalizedSegments`). Each throws an `INVALID_ARGUMENT` `ScanError` naming the argument, the
 * first offending index and its value.
 *
 * Applications do not need these names: what an application uses (the segmented primitives, the
 * head-flag conversions, their plans and types) is `@scan/segmented`'s main entry, and every
 * primitive checks its own arguments. **The kit may change between minor versions**; pin
 * `@scan/segmented` to a minor range if you build on it.
 *
 * @example
 * ```ts
 * import { checkSegments } from '@scan/segmented/kit';
 * const segments = checkSegments({ offsets: new Uint32Array([0, 2, 5]) }, 5, 'options.segments');
 * segments.segmentCount; // 2
 * ```
 *
 * @module kit (for package authors)
 */

export { checkHeadFlags, checkOffsets, checkSegments, type NormalizedSegments } from '../validate.js';
