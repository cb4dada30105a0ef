// The tile load and store on their own: a harness kernel made of one tile block loads each tile,
// records every item it holds (fill included) by invocation rank and item, and stores the items
// changed; the CPU checks the arrangement (where each item came from), the fill of the partial
// tile, the stores (and that nothing past the end is written), `NAME_valid` and `NAME_load_item`,
// for elements (two bindings or one in place), vec4 slots (tail in place or staged in aux) and
// records of whole words (blocked runs read and written as vec4s, the words past the last whole
// vec4 staged in NAME_tail, the backward padding first), forward and backward, with the subgroups'
// own group numbering and without.
import { expectEqualArrays, getTestContext } from '@scan/gpu-testing';
import { describe, expect, it } from 'vitest';
import type { TileArrangement } from '../../src/kernels/blocks/arrangement.js';
import { composeBlocks } from '../../src/kernels/blocks/block.js';
import { tileIo } from '../../src/kernels/blocks/tile-io.js';
import { defineKernel, readWrite } from '../../src/kernels/define-kernel.js';
import { groupIdentityWgsl } from '../../src/kernels/group-scan.js';
import { SLOT_PARAMS } from '../../src/kernels/slots.js';
import { unroll } from '../../src/kernels/unroll.js';
import { valueWords } from '../../src/kernels/value-words.js';
import {
  ARRANGEMENTS,
  chooser,
  countOf,
  firstWritten,
  type KernelJob,
  physicalOf,
  runKernels,
  type TestType,
  tilesOf,
  typedFrom,
  typedOf,
} from './helpers.js';

interface IoCase {
  readonly type: TestType;
  readonly subgroups: boolean;
  readonly workgroupSize: number;
  readonly itemsPerThread: number;
  readonly arrangement: TileArrangement;
  readonly backward: boolean;
  readonly source: 'elements' | 'in-place' | 'slots-direct' | 'slots-staged' | 'words';
}

const FILL = { u32: ['0x12345678u', 0x12345678], i32: ['-7i', -7], f32: ['-0.5f', -0.5] } as const;

const slotsOf = (s: IoCase) => s.source.startsWith('slots');

function ioOf(s: IoCase) {
  const source =
    s.source === 'elements'
      ? ({ kind: 'elements', load: 'input', store: 'output' } as const)
      : s.source === 'in-place'
        ? ({ kind: 'elements', load: 'data', store: 'data' } as const)
        : s.source === 'words'
          ? ({ kind: 'words', words: valueWords(s.type), load: 'input', store: 'output' } as const)
          : ({ kind: 'slots', writes: true, tail: s.source === 'slots-direct' ? 'direct' : 'staged' } as const);
  return tileIo({
    name: 'tio',
    type: s.type,
    workgroupSize: s.workgroupSize,
    itemsPerThread: s.itemsPerThread,
    arrangement: s.arrangement,
    backward: s.backward,
    fill: FILL[s.type][0],
    source,
  });
}

/**
 * Stores each item changed (u32/i32 + 1, f32 · 2); `probe[(tile · WG + rank) · K·V + k·V + e]` = the
 * bits of element e of item k as loaded; `valid[tile]`; `single[(tile · WG + rank) · V + e]` = the
 * item `rank · 7 + tile` alone; `sizes[0]` = the group size.
 */
const ioHarness = defineKernel({
  name: 'test/blocks/tile-io',
  bindings: (s: IoCase) => ({
    ...composeBlocks(ioOf(s)).bindings,
    probe: readWrite('array<u32>'),
    valid: readWrite('array<u32>'),
    single: readWrite('array<u32>'),
    sizes: readWrite('array<u32>'),
  }),
  params: SLOT_PARAMS,
  enable: (s) => (s.subgroups ? ['subgroups'] : []),
  wgsl: (s) => {
    const io = ioOf(s);
    const id = groupIdentityWgsl(s.subgroups, s.workgroupSize);
    const K = s.itemsPerThread;
    const V = slotsOf(s) ? 4 : 1;
    const change = s.type === 'f32' ? (x: string) => `${x} * 2.0f` : (x: string) => `${x} + ${s.type}(1)`;
    const el = (x: string, e: number) => (V === 4 ? `${x}.${'xyzw'[e]}` : x);
    return `${id.decls}
${composeBlocks(io).decls}
@compute @workgroup_size(${s.workgroupSize})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>${id.builtins}) {
  ${id.body}
  // SwiftShader shares workgroup memory between its subgroups only in a shader that holds a barrier:
  // without one, every subgroup's ticket came out 0 (the blocks around a tile load have barriers).
  workgroupBarrier();
  let tile = wid.x;
  let rank = group * gsize + lane;
  let items = ${io.load('tile')};
  var out = items;
${unroll(K, (k) => `  out[${k}] = ${change(`items[${k}]`)};`)}
  ${io.store('tile', 'out')}
  let at = (tile * ${s.workgroupSize}u + rank) * ${K * V}u;
${unroll(K, (k) => unroll(V, (e) => `  probe[at + ${k * V + e}u] = bitcast<u32>(${el(`items[${k}]`, e)});`))}
  if (rank == 0u) { valid[tile] = ${io.valid('tile')}; }
  if (tile == 0u && rank == 0u) { sizes[0] = gsize; }
  let one = ${io.loadItem('rank * 7u + tile')};
${unroll(V, (e) => `  single[(tile * ${s.workgroupSize}u + rank) * ${V}u + ${e}u] = bitcast<u32>(${el('one', e)});`)}
}`;
  },
});

/** Tile position of item k of rank r (see TileArrangement). */
function positionOf(s: IoCase, r: number, k: number, gsize: number): number {
  const K = s.itemsPerThread;
  const group = Math.floor(r / gsize);
  const lane = r % gsize;
  if (s.arrangement === 'blocked') return r * K + k;
  if (s.arrangement === 'striped') return k * s.workgroupSize + r;
  return group * gsize * K + k * gsize + lane;
}

function cases(subgroups: boolean, count: number, seed: number): IoCase[] {
  const pick = chooser(seed);
  const sources = ['elements', 'in-place', 'slots-direct', 'slots-staged', 'words'] as const;
  return Array.from({ length: count }, (_, i) => {
    const source = sources[(i >> 2) % 5] as IoCase['source'];
    const c = {
      type: pick.pick<TestType>(['u32', 'i32', 'f32']),
      subgroups,
      workgroupSize: pick.pick([32, 64]),
      itemsPerThread: pick.int(1, 4),
      arrangement: ARRANGEMENTS[i % 3] as TileArrangement,
      backward: (i >> 1) % 2 === 1,
      source,
    };
    // Words: blocked runs of whole vec4s (one-word records: K a multiple of 4).
    return source === 'words' ? { ...c, arrangement: 'blocked' as const, itemsPerThread: 4 * pick.int(1, 2) } : c;
  });
}

describe('tileIo (GPU)', () => {
  for (const subgroups of [true, false]) {
    it(`loads and stores tiles in every arrangement (${subgroups ? 'subgroup groups' : 'one group'})`, async () => {
      const ctx = await getTestContext({ subgroups });
      const all = cases(subgroups, 30, subgroups ? 11 : 22).map((s, i) => {
        const V = slotsOf(s) ? 4 : 1;
        const TE = s.workgroupSize * s.itemsPerThread * V;
        const n = countOf(TE, chooser(500 + i));
        const tiles = tilesOf(n, TE, slotsOf(s));
        const pick = chooser(900 + i);
        const values = Array.from({ length: n }, () =>
          s.type === 'f32' ? pick.int(-1000, 1000) / 8 : s.type === 'i32' ? pick.int(-1e6, 1e6) : pick.u32() >>> 1,
        );
        return { s, n, tiles, TE, V, input: typedFrom(s.type, values) };
      });
      const jobs: KernelJob[] = all.map(({ s, n, tiles, TE, V, input }) => {
        const slots = Math.ceil(n / 4);
        const full = Math.floor(n / 4);
        // Elements: 4 spare words must stay poisoned (in place: the buffer holds whole vec4s only).
        const padded = 4 * slots + (V === 1 && s.source !== 'in-place' ? 4 : 0);
        const data = s.source === 'in-place' ? 'data' : V === 1 ? 'input' : 'src';
        const out = s.source === 'in-place' ? 'data' : V === 1 ? 'output' : 'dst';
        const inputs: Record<string, ArrayBufferView> = { [data]: input };
        const outputs: Record<string, number> = {
          [out]: 4 * padded,
          probe: 4 * tiles * TE,
          valid: 4 * tiles,
          single: 4 * tiles * s.workgroupSize * V,
          sizes: 4,
        };
        if (s.source === 'words') {
          // The words view reads the same records; the tail takes the words past the last whole vec4.
          inputs['input_words'] = input;
          outputs['output_tail'] = 16;
        }
        if (s.source === 'slots-staged') {
          // The plan's part: the partial last vec4 in aux[0..3]; the kernel leaves it in aux[4..7].
          const aux = new Uint32Array(16);
          aux.set(new Uint32Array(input.buffer, 16 * full, n - 4 * full));
          inputs['aux'] = aux;
          outputs['aux'] = 64;
        }
        return {
          kernel: ioHarness(s),
          groups: tiles,
          params: { count: n, slots, full_vecs: full, tiles, dispatch_x: tiles, carry_in: 0, carry_out: 0, extra: 0 },
          inputs,
          outputs,
        };
      });
      const results = await runKernels(ctx, jobs);
      all.forEach(({ s, n, tiles, TE, V, input }, i) => {
        const got = results[i]!;
        const label = `${JSON.stringify(s)} n=${n}`;
        const fill = FILL[s.type][1];
        // Words backward: logical j is physical padded − 1 − j, the count rounded up to whole runs.
        const padded = s.source === 'words' ? Math.ceil(n / s.itemsPerThread) * s.itemsPerThread : n;
        const logical = (j: number) => {
          if (s.source === 'words') {
            const p = s.backward ? padded - 1 - j : j;
            return p < 0 || p >= n ? fill : (input[p] as number);
          }
          const p = physicalOf(j, n, V === 4, s.backward);
          return p < 0 ? fill : (input[p] as number);
        };
        const gsize = new Uint32Array(got['sizes']!)[0]!;
        if (subgroups) expect(gsize >= 4 && (gsize & (gsize - 1)) === 0, `${label}: subgroup size ${gsize}`).toBe(true);
        else expect(gsize, label).toBe(s.workgroupSize);
        // Every item of every rank, where the arrangement puts it.
        const K = s.itemsPerThread;
        const probe: number[] = [];
        for (let t = 0; t < tiles; t++) {
          for (let r = 0; r < s.workgroupSize; r++) {
            for (let k = 0; k < K; k++) {
              for (let e = 0; e < V; e++) probe.push(logical(t * TE + positionOf(s, r, k, gsize) * V + e));
            }
          }
        }
        expectEqualArrays(typedOf(s.type, got['probe']!), typedFrom(s.type, probe), `${label} items`);
        // The stores: every element changed once, nothing past the end (staged: the tail went to aux).
        const outName = s.source === 'in-place' ? 'data' : V === 1 ? 'output' : 'dst';
        const outBytes = got[outName]!;
        const changed = Array.from(input, (x) => (s.type === 'f32' ? x * 2 : s.type === 'u32' ? (x + 1) >>> 0 : (x + 1) | 0));
        const stored = s.source === 'slots-staged' || s.source === 'words' ? 4 * Math.floor(n / 4) : n;
        expectEqualArrays(typedOf(s.type, outBytes).subarray(0, stored), changed.slice(0, stored), `${label} stored`);
        if (s.source === 'slots-staged') {
          const tail = typedOf(s.type, got['aux']!).subarray(4, 4 + n - stored);
          expectEqualArrays(tail, changed.slice(stored), `${label} staged tail`);
        }
        if (s.source === 'words') {
          const tail = typedOf(s.type, got['output_tail']!).subarray(0, n - stored);
          expectEqualArrays(tail, changed.slice(stored), `${label} words tail`);
        }
        if (s.source !== 'in-place') expect(firstWritten(outBytes, stored), `${label}: stored past the end`).toBe(-1);
        // Words backward count the padding (it comes first).
        const validElements = Array.from({ length: tiles }, (_, t) => Math.min(Math.max(padded - t * TE, 0), TE));
        expectEqualArrays(new Uint32Array(got['valid']!), validElements, `${label} valid`);
        // In place, another workgroup may have stored the item first.
        if (s.source === 'in-place') return;
        const single: number[] = [];
        for (let t = 0; t < tiles; t++) {
          for (let r = 0; r < s.workgroupSize; r++) for (let e = 0; e < V; e++) single.push(logical((r * 7 + t) * V + e));
        }
        expectEqualArrays(typedOf(s.type, got['single']!), typedFrom(s.type, single), `${label} load_item`);
      });
    });
  }
});
