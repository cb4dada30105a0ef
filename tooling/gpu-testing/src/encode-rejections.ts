import { countDeviceCalls, type DeviceCounts } from './counting.js';

/** How one bad `encode` call ended: the error's code and message, and what the device made meanwhile. */
export interface EncodeRejection {
  /** Which bad argument (`'encoder undefined'`, `'args.input Uint32Array'`, `'count -1'`…). */
  readonly case: string;
  /** The thrown error's `code` (`'INVALID_ARGUMENT'` for a ScanError), or its name when it has none, or `'none'`. */
  readonly code: string;
  readonly message: string;
  /** Buffers, bind groups and pipelines created by the call: a check must come before any of them. */
  readonly created: DeviceCounts;
}

/** What {@link encodeRejections} tries. */
export interface EncodeRejectionOptions {
  /** A role of `args` that takes a GPUBuffer: it gets a `Uint32Array` of 10^6 elements instead. */
  readonly bufferRole: string;
  /** Counts to try in place of `args.count` (default: −1, 1.5, NaN, 2^53, a count past the buffers). */
  readonly counts?: readonly unknown[];
}

/**
 * Calls `plan.encode` with bad arguments built from good ones — no encoder, no args, a
 * `Uint32Array(1000000)` where `bufferRole`'s GPUBuffer belongs, bad counts (when `args` has a
 * count) — and reports how each call ended and what the device created meanwhile. Every one must
 * be an `INVALID_ARGUMENT` naming the argument, with a short message (a typed array rendered by type
 * and length, not element by element) and nothing created: the checks come before any pipeline is
 * compiled or bind group made. No command is recorded into the encoder, which is never finished.
 *
 * @example
 * ```ts
 * for (const r of encodeRejections(device, plan, { input, output, count: 10 }, { bufferRole: 'input' })) {
 *   expect(r.code, r.case).toBe('INVALID_ARGUMENT');
 *   expect(r.created, r.case).toEqual({ buffers: 0, bindGroups: 0, pipelines: 0 });
 * }
 * ```
 */
export function encodeRejections<A extends object>(
  device: GPUDevice,
  plan: { encode(encoder: GPUCommandEncoder, args: A): void },
  args: A,
  options: EncodeRejectionOptions,
): EncodeRejection[] {
  const encoder = device.createCommandEncoder();
  const bad: [string, unknown, unknown][] = [
    ['encoder undefined', undefined, args],
    ['encoder is a GPUDevice', device, args],
    ['args undefined', encoder, undefined],
    ['args null', encoder, null],
    [`args.${options.bufferRole} Uint32Array`, encoder, { ...args, [options.bufferRole]: new Uint32Array(1_000_000) }],
  ];
  if ('count' in args) {
    for (const count of options.counts ?? [-1, 1.5, Number.NaN, 2 ** 53, 1 << 30, '10']) {
      bad.push([`count ${typeof count === 'string' ? `"${count}"` : String(count)}`, encoder, { ...args, count }]);
    }
  }
  const results: EncodeRejection[] = [];
  for (const [name, enc, a] of bad) {
    const counted = countDeviceCalls(device);
    try {
      plan.encode(enc as GPUCommandEncoder, a as A);
      results.push({ case: name, code: 'none', message: '', created: { ...counted.counts } });
    } catch (e) {
      const err = e as { code?: unknown; name?: unknown; message?: unknown };
      const code = typeof err.code === 'string' ? err.code : String(err.name);
      results.push({ case: name, code, message: String(err.message), created: { ...counted.counts } });
    } finally {
      counted.restore();
    }
  }
  return results;
}

/** A message past this many characters renders some argument too fully (a typed array element by element). */
const MAX_MESSAGE = 200;

/**
 * {@link encodeRejections}, reduced to what went wrong: one line per call that did not throw an
 * `INVALID_ARGUMENT`, whose message is 200 characters or more or does not show the bad value
 * (`encoder = undefined`, `args = null`, `args.input = Uint32Array(1000000)`, `args.count = -1`;
 * a count past the buffers is named by the buffer that is too small), or that created something.
 * Empty when the plan checks its arguments as it should.
 *
 * @example
 * ```ts
 * expect(encodeRejectionFaults(device, plan, { input, output, count: 10 }, { bufferRole: 'input' })).toEqual([]);
 * ```
 */
export function encodeRejectionFaults<A extends object>(
  device: GPUDevice,
  plan: { encode(encoder: GPUCommandEncoder, args: A): void },
  args: A,
  options: EncodeRejectionOptions,
): string[] {
  const faults: string[] = [];
  for (const r of encodeRejections(device, plan, args, options)) {
    const shown = shownValue(r.case, options.bufferRole);
    const wrong = [
      r.code !== 'INVALID_ARGUMENT' && `code ${r.code}`,
      r.message.length >= MAX_MESSAGE && `message of ${r.message.length} characters`,
      shown && !r.message.includes(shown) && `message without "${shown}"`,
      (r.created.buffers || r.created.bindGroups || r.created.pipelines) && `created ${JSON.stringify(r.created)}`,
    ].filter(Boolean);
    if (wrong.length > 0) faults.push(`${r.case}: ${wrong.join(', ')} (${r.message.slice(0, 300)})`);
  }
  return faults;
}

/** What the message of each case of {@link encodeRejections} must show. */
function shownValue(name: string, bufferRole: string): string | undefined {
  if (name === 'encoder undefined') return 'encoder = undefined';
  if (name === 'encoder is a GPUDevice') return 'encoder = ';
  if (name === 'args undefined') return 'args = undefined';
  if (name === 'args null') return 'args = null';
  if (name.endsWith('Uint32Array')) return `args.${bufferRole} = Uint32Array(1000000)`;
  if (name === `count ${1 << 30}`) return undefined;
  if (name.startsWith('count ')) return `args.count = ${name.slice('count '.length)}`;
  return undefined;
}

/** One plan for {@link planRejectionFaults}: its name, how to make it, arguments it takes, and the role that gets a typed array. */
export type PlanRejectionCase = readonly [
  name: string,
  create: () => { encode(encoder: GPUCommandEncoder, args: never): void; destroy(): void },
  args: object,
  bufferRole: string,
];

/**
 * {@link encodeRejectionFaults} of every plan in `cases`, each made, checked and destroyed in turn;
 * each fault is prefixed with its plan's name. Empty when every plan checks its arguments.
 *
 * @example
 * ```ts
 * expect(planRejectionFaults(device, [['scan', () => createScanPlan(ctx), { input, output, count: 10 }, 'input']])).toEqual([]);
 * ```
 */
export function planRejectionFaults(device: GPUDevice, cases: readonly PlanRejectionCase[]): string[] {
  const faults: string[] = [];
  for (const [name, create, args, bufferRole] of cases) {
    const plan = create();
    try {
      for (const fault of encodeRejectionFaults(device, plan, args as never, { bufferRole })) faults.push(`${name}: ${fault}`);
    } finally {
      plan.destroy();
    }
  }
  return faults;
}
