import type { CreationCounts } from '../../report.js';

// A plan made to be encoded every frame must allocate nothing once warm (DESIGN.md, Buffer level).
// The counter sees what it creates by replacing the device's creating methods with counting ones,
// as own properties of that one GPUDevice object: every caller of `device.createBuffer(...)` —
// the plans included — goes through them, and deleting them restores the prototype's methods.

/** The device methods the counter watches, and the count each adds to. */
const WATCHED = {
  createBuffer: 'buffers',
  createBindGroup: 'bindGroups',
  createComputePipeline: 'pipelines',
  createComputePipelineAsync: 'asyncPipelines',
} as const satisfies Record<string, keyof CreationCounts>;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A counter installed on a device.
 *
 * @example
 * ```ts
 * const counter: CreationCounter = watchCreations(ctx.device);
 * ```
 */
export interface CreationCounter {
  /** Everything created since `watchCreations`. */
  readonly total: Readonly<CreationCounts>;
  /** The part of `total` created while `inside` was true (the bench sets it around `plan.encode`). */
  readonly inside: Readonly<CreationCounts>;
  /** Set around the calls to attribute (plan.encode); false elsewhere. */
  insideFlag: boolean;
  /** Puts the device's own methods back (the counts stay readable). */
  restore(): void;
}

/**
 * Zero counts of every kind.
 *
 * @example
 * ```ts
 * zeroCounts(); // { buffers: 0, bindGroups: 0, pipelines: 0, asyncPipelines: 0 }
 * ```
 */
export function zeroCounts(): Mutable<CreationCounts> {
  return { buffers: 0, bindGroups: 0, pipelines: 0, asyncPipelines: 0 };
}

/**
 * Counts `counts` per frame: each kind divided by `frames`.
 *
 * @example
 * ```ts
 * perFrame({ buffers: 30, bindGroups: 600, pipelines: 0, asyncPipelines: 0 }, 300); // { buffers: 0.1, bindGroups: 2, … }
 * ```
 */
export function perFrame(counts: CreationCounts, frames: number): CreationCounts {
  const f = Math.max(1, frames);
  return {
    buffers: counts.buffers / f,
    bindGroups: counts.bindGroups / f,
    pipelines: counts.pipelines / f,
    asyncPipelines: counts.asyncPipelines / f,
  };
}

/**
 * `a − b`, kind by kind.
 *
 * @example
 * ```ts
 * subtractCounts(counter.total, counter.inside); // what was created outside plan.encode
 * ```
 */
export function subtractCounts(a: CreationCounts, b: CreationCounts): CreationCounts {
  return {
    buffers: a.buffers - b.buffers,
    bindGroups: a.bindGroups - b.bindGroups,
    pipelines: a.pipelines - b.pipelines,
    asyncPipelines: a.asyncPipelines - b.asyncPipelines,
  };
}

/**
 * Starts counting the buffers, bind groups and compute pipelines created through `device` (own
 * properties that wrap its methods); `restore()` removes them. Install it only around code that
 * should be counted: everything the bench itself creates in between counts too.
 *
 * @example
 * ```ts
 * const counter = watchCreations(ctx.device);
 * try {
 *   counter.insideFlag = true;
 *   plan.encode(encoder, args);
 *   counter.insideFlag = false;
 * } finally {
 *   counter.restore();
 * }
 * counter.total.bindGroups; // 0 for a plan that allocates nothing per frame
 * ```
 */
export function watchCreations(device: GPUDevice): CreationCounter {
  const total = zeroCounts();
  const inside = zeroCounts();
  const target = device as unknown as Record<string, unknown>;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  const counter: CreationCounter = {
    total,
    inside,
    insideFlag: false,
    restore() {
      for (const [name, own] of saved) {
        if (own) Object.defineProperty(target, name, own);
        else delete target[name];
      }
      saved.clear();
    },
  };
  for (const [name, kind] of Object.entries(WATCHED)) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    // An implementation that already has an own property (a wrapper of its own) gets it back after.
    saved.set(name, Object.getOwnPropertyDescriptor(target, name));
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value(this: unknown, ...args: unknown[]) {
        total[kind]++;
        if (counter.insideFlag) inside[kind]++;
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      },
    });
  }
  return counter;
}
