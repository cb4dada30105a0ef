// The worked example of CONTRIBUTING.md ("Writing a kernel"): a new single-pass kernel made only of
// the kit's blocks, with its recipe and its test. It counts runs of equal keys: runs[i] is the number
// of runs that start at or before i, so runs[i] − 1 is key i's run (the segment id reduce-by-key
// needs) and runs[n − 1] the number of runs. Per tile: tile load → block discontinuity (the heads)
// → block scan (the heads counted within the tile) → tile prefix (the heads before the tile: the
// kit's one decoupled look-back, whose fallback recounts a stalled tile with a block reduce) →
// tile store. A package imports these names from '@scan/core/kit'.
import { bufferOf, createRng, getTestContext, poisoned, runBatch } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import {
  blockDiscontinuity,
  blockReduce,
  blockScan,
  composeBlocks,
  decoupledFallbackStatusBytes,
  defineKernel,
  groupIdentityWgsl,
  LOOK_BACK_STATUS,
  lookBackCommonWgsl,
  RecipeBuilder,
  RecipeExecutor,
  TAKE_TILE_WGSL,
  tileIo,
  tileLookBack,
  unroll,
  wgslOp,
} from '../../src/kit/index.js';

const WG = 64; // invocations per workgroup
const K = 4; // keys per invocation
const TILE = WG * K;

/** What the kernel is specialized on: plain data, from which the kernel's key is derived. */
interface RunCountSpec {
  /** The device has subgroups (`ctx.caps.features.subgroups`). */
  readonly subgroups: boolean;
  /** Test hook: every predecessor reads as not ready, so the fallback computes every prefix. */
  readonly forceFallback: boolean;
}

/** The blocks of one specialization; each names its WGSL after its `name`. */
function blocksOf(spec: RunCountSpec) {
  const shape = { workgroupSize: WG, itemsPerThread: K, arrangement: 'blocked' } as const;
  const add = wgslOp('add', 'u32');
  const keyTile = tileIo({ name: 'key_tile', type: 'u32', ...shape, fill: '0u', source: { kind: 'elements', load: 'keys' } });
  const runTile = tileIo({ name: 'run_tile', type: 'u32', ...shape, fill: '0u', source: { kind: 'elements', store: 'runs' } });
  const heads = blockDiscontinuity({ name: 'heads', type: 'u32', ...shape });
  const scan = blockScan({ name: 'scan', op: add, subgroups: spec.subgroups, ...shape });
  const count = blockReduce({ name: 'count', op: add, subgroups: spec.subgroups, workgroupSize: WG });
  // Their declarations, bindings (`keys`, `runs`), workgroup memory and extensions, gathered.
  const needs = composeBlocks(keyTile, runTile, heads, scan, count);
  return { keyTile, runTile, heads, scan, count, needs };
}

/** runs[i] = the runs of equal keys that start at or before i, for i < params.count. */
const runCountKernel = defineKernel({
  name: 'example/run-count',
  bindings: (spec: RunCountSpec) => {
    // The tiles' bindings, as composeBlocks gathered them, named here so that recipes are typed.
    const { keys, runs } = blocksOf(spec).needs.bindings;
    return { keys, runs, status: LOOK_BACK_STATUS };
  },
  params: { count: 'u32', tiles: 'u32' },
  enable: (spec) => blocksOf(spec).needs.enable,
  wgsl: (spec) => {
    const { keyTile, runTile, heads, scan, count, needs } = blocksOf(spec);
    const id = groupIdentityWgsl(spec.subgroups, WG); // group, lane, gsize: the blocks' arguments
    // Bit k: item k of this invocation starts a run (tile t − 1's last key is the predecessor).
    const headsOf = (t: string) =>
      heads.heads(keyTile.load(t), keyTile.loadItem(`${t} * key_tile_TILE - 1u`), `${t} > 0u`, keyTile.valid(t));
    // The tile prefix. Its fallback recounts a stalled predecessor's heads with the whole workgroup.
    const lb = tileLookBack(wgslOp('add', 'u32'), {
      subgroups: spec.subgroups,
      maxSpin: 64,
      forceFallback: spec.forceFallback,
      fallback: { run: (t) => `let found = ${count.reduce(`countOneBits(${headsOf(t)})`)};`, value: () => 'found' },
    });
    return `${lookBackCommonWgsl('u32')}
${lb.decls}
${id.decls}
${needs.decls}
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_index) lid: u32${id.builtins}) {
  ${TAKE_TILE_WGSL}
  ${id.body}
  let leader = group == 0u && lane == 0u;
  // 1. Tile load → block discontinuity: a flag per item, 1 where a run starts.
  let m = ${headsOf('tile')};
  var flags: array<u32, ${K}>;
${unroll(K, (k) => `  flags[${k}] = (m >> ${k}u) & 1u;`)}
  // 2. Block scan: each item's heads within the tile, and the tile's heads (its aggregate).
  let s = ${scan.inclusiveItems('flags')};
  // 3. Tile prefix: publish the aggregate (tile 0: its inclusive value), look back, take the prefix.
  if (leader) {
    wg_aggregate = s.aggregate;
    if (tile == 0u) {
      wg_exclusive = 0u;
      lb_publish(0u, 0u, FLAG_INCLUSIVE, s.aggregate);
    } else {
      ${lb.aggregate('s.aggregate')}
    }
  }
${lb.start}
  ${lb.finish}
  let prefix = workgroupUniformLoad(&wg_exclusive);
  // 4. Tile store: the prefix before every item (the partial last tile stores its valid items only).
  var out: array<u32, ${K}>;
${unroll(K, (k) => `  out[${k}] = prefix + s.items[${k}];`)}
  ${runTile.store('tile', 'out')}
}`;
  },
});

/** The recipe: clear the tiles' statuses, then one dispatch (tiles are taken from a ticket). */
function runCountRecipe(kernel: ReturnType<typeof runCountKernel>, count: number) {
  const b = new RecipeBuilder();
  const tiles = Math.ceil(count / TILE);
  const statusBytes = decoupledFallbackStatusBytes(tiles);
  const status = b.needScratch('status', statusBytes);
  b.clear({ scratch: 'status', offset: 0, size: statusBytes });
  b.dispatch(kernel, { keys: { role: 'keys', offset: 0 }, runs: { role: 'runs', offset: 0 }, status }, tiles, { count, tiles });
  return b.build();
}

/** The CPU reference. */
function runCounts(keys: Uint32Array): Uint32Array {
  let runs = 0;
  return keys.map((key, i) => (i === 0 || key !== keys[i - 1] ? ++runs : runs));
}

/** Seeded keys in runs: mostly short ones, some longer than a tile. */
function keysInRuns(n: number, seed: number): Uint32Array {
  const rng = createRng(seed);
  const keys = new Uint32Array(n);
  for (let i = 0, key = rng.u32(); i < n; key = rng.u32()) {
    const length = rng.float() < 0.1 ? rng.int(1, 2 * TILE) : rng.int(1, 6);
    keys.fill(key, i, Math.min(n, i + length));
    i += length;
  }
  return keys;
}

describe('worked example: a kernel made of blocks (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`counts runs like the CPU, tile prefix looked back and forced to the fallback (${subgroups ? 'subgroups' : 'no subgroups'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const spec = (forceFallback: boolean): RunCountSpec => ({ subgroups: ctx.caps.features.subgroups, forceFallback });
      // The blocks' workgroup memory, which the kernel's author checks against the device's limit.
      expect(blocksOf(spec(false)).needs.workgroupBytes).toBeLessThanOrEqual(ctx.device.limits.maxComputeWorkgroupStorageSize);
      // One element, a partial tile, several tiles with a partial last one, 40 whole tiles.
      const cases = [1, 100, 5 * TILE + 37, 40 * TILE].flatMap((n, i) =>
        [false, true].map((forceFallback) => ({ n, forceFallback, keys: keysInRuns(n, 47 + i) })),
      );
      const exec = new RecipeExecutor(ctx, 'run counts'); // what a plan holds: scratch, bind groups
      const owned: { destroy(): void }[] = [exec]; // destroyed after the run
      const results = await runBatch(
        ctx,
        cases.map(({ n, forceFallback, keys }) => ({
          record: (encoder: GPUCommandEncoder) => {
            const input = bufferOf(ctx, keys);
            const output = poisoned(ctx, 4 * n);
            owned.push(input);
            exec.encode(encoder, () => runCountRecipe(runCountKernel(spec(forceFallback)), n), { keys: input, runs: output });
            return [{ buffer: output, bytes: 4 * n }];
          },
        })),
        owned,
      );
      cases.forEach(({ n, forceFallback, keys }, i) => {
        const got = new Uint32Array(results[i]![0]!);
        expect({ n, forceFallback, got: Array.from(got) }).toEqual({ n, forceFallback, got: Array.from(runCounts(keys)) });
      });
    });
  }
});
