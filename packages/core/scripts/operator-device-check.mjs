// Device check of user-defined operators on a real GPU (the lead runs it on the lent H100/H200):
// what SwiftShader cannot run — f16 operators (it has no shader-f16) — and records of 1 to 4 words at
// sizes past a million records with counts that leave partial runs and words past the last whole
// vec4, every scan variant and the reduction, compared with @scan/core/cpu bit for bit. Exits
// non-zero on a mismatch or a missing feature.
//
// Run after `pnpm --filter @scan/core build` (from the repository root, with `webgpu` installed):
//   SCAN_DAWN_TOGGLES='enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia' \
//     node packages/core/scripts/operator-device-check.mjs
import { reduce as cpuReduce, scan as cpuScan } from '../dist/cpu/index.js';
import { defineOperator, reduce, scan } from '../dist/index.js';
import { createNodeContext } from '../dist/node/index.js';

const ctx = await createNodeContext();
console.log(
  `adapter: ${ctx.device.adapterInfo?.description || ctx.device.adapterInfo?.vendor || 'unknown'}; shader-f16: ${ctx.device.features.has('shader-f16')}`,
);

let seed = 12345;
const next = () => {
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed;
};
const small = (lo, hi) => lo + (next() % (hi - lo + 1));

// f16 bits of small integers (exact as f16 up to 2048) and of 0.
function f16Bits(x) {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  const mantissa = Math.round((a / 2 ** e - 1) * 1024);
  return sign | ((e + 15) << 10) | mantissa;
}

const operators = [
  {
    op: defineOperator({ type: 'f16', identity: Number.NEGATIVE_INFINITY, wgsl: 'return max(a, b);', cpu: Math.max, name: 'max16' }),
    data: (n) => Uint16Array.from({ length: n }, () => f16Bits(small(-1000, 1000))),
  },
  {
    // x(i) = f(i) − f(i − 1) with f in [0, 8]: the sum of any run telescopes to within ±16, so every
    // partial sum is an exact f16 integer in any order of summation.
    op: defineOperator({ type: 'f16', identity: 0, wgsl: 'return a + b;', cpu: (a, b) => a + b, name: 'add16' }),
    data: (n) => {
      let before = 0;
      return Uint16Array.from({ length: n }, () => {
        const f = small(0, 8);
        const x = f - before;
        before = f;
        return f16Bits(x);
      });
    },
  },
  {
    op: defineOperator({
      type: 'u32',
      identity: 0x10000,
      wgsl: 'let a1 = a >> 16u; let b1 = a & 0xffffu; let a2 = b >> 16u; let b2 = b & 0xffffu;\nreturn (((a1 * a2) & 0xffffu) << 16u) | ((b1 * a2 + b2) & 0xffffu);',
      cpu: (x, y) => (((Math.imul(x >>> 16, y >>> 16) & 0xffff) << 16) | ((Math.imul(x & 0xffff, y >>> 16) + (y & 0xffff)) & 0xffff)) >>> 0,
      name: 'affine16',
    }),
    data: (n) => Uint32Array.from({ length: n }, () => next()),
  },
  {
    op: defineOperator({
      type: { value: 'f32', index: 'u32' },
      identity: { value: Number.NEGATIVE_INFINITY, index: 0xffffffff },
      wgsl: 'if (b.value > a.value || (b.value == a.value && b.index < a.index)) { return b; }\nreturn a;',
      cpu: (a, b) => (b.value > a.value || (b.value === a.value && b.index < a.index) ? b : a),
      name: 'argmax',
    }),
    data: (n) => {
      const words = new Float32Array(2 * n);
      const bits = new Uint32Array(words.buffer);
      for (let i = 0; i < n; i++) {
        words[2 * i] = small(0, 5000);
        bits[2 * i + 1] = small(0, 100000);
      }
      return words;
    },
  },
  {
    op: defineOperator({
      type: { h: 'u32', p: 'u32', n: 'u32' },
      identity: { h: 0, p: 1, n: 0 },
      wgsl: 'var r = a;\nr.h = a.h * b.p + b.h;\nr.p = a.p * b.p;\nr.n = a.n + b.n;\nreturn r;',
      cpu: (x, y) => ({ h: (Math.imul(x.h, y.p) + y.h) >>> 0, p: Math.imul(x.p, y.p) >>> 0, n: (x.n + y.n) >>> 0 }),
      name: 'hash',
    }),
    data: (n) => Uint32Array.from({ length: 3 * n }, (_, i) => (i % 3 === 0 ? next() & 0xff : i % 3 === 1 ? 31 : 1)),
  },
  {
    op: defineOperator({
      type: 'vec4<f32>',
      identity: [0, 0, 0, 0],
      wgsl: 'return a + b;',
      cpu: (a, b) => a.map((x, i) => x + b[i]),
      name: 'add4',
    }),
    data: (n) => Float32Array.from({ length: 4 * n }, () => small(-4, 4)),
  },
];

const SIZES = [1, 4099, (1 << 20) + 4 * 4096 + 37];
const VARIANTS = [
  { inclusive: true, backward: false },
  { inclusive: false, backward: false },
  { inclusive: true, backward: true },
  { inclusive: false, backward: true },
];

let failures = 0;
const same = (a, b) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
for (const { op, data } of operators) {
  if (op.type === 'f16' && !ctx.device.features.has('shader-f16')) {
    console.log(`FAIL ${op.name}: the device has no shader-f16 (set SCAN_DAWN_TOGGLES as above)`);
    failures++;
    continue;
  }
  for (const n of SIZES) {
    const input = data(n);
    for (const v of VARIANTS) {
      const got = await scan(ctx, input, { op, ...v });
      const want = cpuScan(input, { op, ...v });
      const ok = same(got, want);
      if (!ok) failures++;
      console.log(`${ok ? 'ok  ' : 'FAIL'} scan ${op.name} n=${n} ${v.inclusive ? 'incl' : 'excl'} ${v.backward ? 'bwd' : 'fwd'}`);
    }
    const got = await reduce(ctx, input, { op });
    const want = cpuReduce(input, { op });
    const ok = JSON.stringify(got) === JSON.stringify(want);
    if (!ok) failures++;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} reduce ${op.name} n=${n}${ok ? '' : `: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`}`,
    );
  }
}
ctx.destroy?.();
console.log(failures === 0 ? 'all ok' : `${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
