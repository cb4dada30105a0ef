import { describeValue, ScanError } from '../errors.js';
import { checkCount } from '../validate.js';

/** Whether `value` looks like a GPUBuffer (duck-typed: implementations differ in class names). */
function isBuffer(value: unknown): value is GPUBuffer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as GPUBuffer).size === 'number' &&
    typeof (value as GPUBuffer).destroy === 'function'
  );
}

/**
 * Checks the two arguments of a plan's `encode` before anything else runs: `encoder` must be a
 * GPUCommandEncoder (duck-typed: it has `beginComputePass`) and `args` an object. Every plan goes
 * through it (`planOf` calls it), so `plan.encode(undefined, …)` is an `INVALID_ARGUMENT` naming the
 * argument, not a `TypeError` from deep inside after a pipeline was compiled.
 *
 * @example
 * ```ts
 * checkEncodeCall('scan plan', encoder, args);
 * // plan.encode(undefined, args): 'scan plan: encoder = undefined: expected a GPUCommandEncoder'
 * ```
 */
export function checkEncodeCall(what: string, encoder: unknown, args: unknown): void {
  if (typeof (encoder as GPUCommandEncoder | null)?.beginComputePass !== 'function') {
    throw new ScanError('INVALID_ARGUMENT', `${what}: encoder = ${describeValue(encoder)}: expected a GPUCommandEncoder`, {
      argument: 'encoder',
    });
  }
  if (typeof args !== 'object' || args === null) {
    throw new ScanError('INVALID_ARGUMENT', `${what}: args = ${describeValue(args)}: expected an object of buffers`, { argument: 'args' });
  }
}

/**
 * Validates the buffers and count of a plan's `encode`: each named buffer must be a GPUBuffer of
 * at least `bytesPerElement × count` bytes (or `{ bytes }`: a fixed size or a function of the count), and no two may be the same buffer
 * (WebGPU forbids a writable binding aliasing another binding of the same dispatch).
 *
 * @example
 * ```ts
 * const count = checkEncodeArgs('scan plan', args, { input: 4, output: 4 });
 * ```
 */
export function checkEncodeArgs(
  what: string,
  args: unknown,
  buffers: Readonly<Record<string, number | { bytes: number | ((count: number) => number) }>>,
): number {
  if (typeof args !== 'object' || args === null) {
    throw new ScanError(
      'INVALID_ARGUMENT',
      `${what}: args = ${describeValue(args)}: expected { ${Object.keys(buffers).join(', ')}, count }`,
      {
        argument: 'args',
      },
    );
  }
  const a = args as Record<string, unknown>;
  const count = checkCount(a.count, 'args.count');
  // Runs at every encode: no iterator, map or closure, and each buffer's size read once (a native
  // getter in Dawn's Node binding). Plans take a handful of buffers, so the distinctness check
  // compares each with those before it.
  let index = 0;
  for (const name in buffers) {
    const need = buffers[name] as number | { bytes: number | ((count: number) => number) };
    const b = a[name];
    if (!isBuffer(b))
      throw new ScanError('INVALID_ARGUMENT', `${what}: args.${name} = ${describeValue(b)}: expected a GPUBuffer`, {
        argument: `args.${name}`,
      });
    const bytes = typeof need === 'number' ? need * count : typeof need.bytes === 'function' ? need.bytes(count) : need.bytes;
    const size = b.size;
    if (size < bytes) {
      throw new ScanError('INVALID_ARGUMENT', `${what}: args.${name} has ${size} bytes, needs ${bytes} for count = ${count}`, {
        argument: `args.${name}`,
      });
    }
    let j = 0;
    for (const other in buffers) {
      if (j++ >= index) break;
      if (a[other] === b)
        throw new ScanError('INVALID_ARGUMENT', `${what}: args.${name} is the same buffer as args.${other}; use distinct buffers`, {
          argument: `args.${name}`,
        });
    }
    index++;
  }
  return count;
}

/**
 * Checks the usages that copies inside a plan need: `copySrc` buffers are copied from (an input's
 * partial last vec4 when the count is not a multiple of 4), `copyDst` buffers are copied into.
 *
 * @example
 * ```ts
 * checkCopyUsage('scan plan', count % 4 ? { input } : {}, count % 4 ? { output } : {});
 * ```
 */
export function checkCopyUsage(
  what: string,
  copySrc: Readonly<Record<string, GPUBuffer>>,
  copyDst: Readonly<Record<string, GPUBuffer>>,
): void {
  const check = (buffers: Readonly<Record<string, GPUBuffer>>, flag: number, flagName: string) => {
    for (const [name, b] of Object.entries(buffers)) {
      if (typeof b.usage === 'number' && (b.usage & flag) === 0) {
        throw new ScanError(
          'INVALID_ARGUMENT',
          `${what}: args.${name} needs GPUBufferUsage.${flagName} (and STORAGE): the plan copies the partial last vec4 through a staging area`,
          {
            argument: `args.${name}`,
          },
        );
      }
    }
  };
  check(copySrc, 0x0004, 'COPY_SRC');
  check(copyDst, 0x0008, 'COPY_DST');
}
