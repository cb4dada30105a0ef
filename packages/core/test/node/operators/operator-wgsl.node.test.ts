// The WGSL pieces of operators (issue 48), compiled and run on a real device (Dawn in Node;
// SwiftShader without a GPU): the struct's storage layout is the host layout, the identity comes
// back with its exact bits (infinities, -0, the most negative i32, all through a `var`), and the
// combine function computes what the CPU function does. The kernels come later; this one-thread
// shader holds the pieces to what they promise now.
import { afterAll, describe, expect, test } from 'vitest';
import type { ScanContext } from '../../../src/context.js';
import { ELEMENT_TYPES, opFitsType, SCAN_OPS } from '../../../src/element-types.js';
import { createNodeContext } from '../../../src/node/index.js';
import { builtinOperator } from '../../../src/operators/builtin-operators.js';
import { defineOperator } from '../../../src/operators/define-operator.js';
import type { HostArray } from '../../../src/operators/host-records.js';
import type { Operator } from '../../../src/operators/operator-type.js';
import { affine, argmax, bitsOf, encode, matrix, stored } from './helpers.js';

// Made at load, not in beforeAll: whether the f16 test runs depends on the device's features.
const ctx: ScanContext = await createNodeContext();
afterAll(() => ctx.destroy());

/**
 * Runs `output[0] = identity; output[1] = x0 ⊕ x1; output[2] = identity ⊕ x0; output[3] = x0 ⊕ identity`
 * on the device and returns the output's bytes.
 */
async function runPieces(op: Operator<unknown>, input: HostArray): Promise<ArrayBuffer> {
  const { device } = ctx;
  const T = op.wgslType;
  const code = `${op.enable.map((e) => `enable ${e};\n`).join('')}${op.declarations}
@group(0) @binding(0) var<storage, read> input: array<${T}>;
@group(0) @binding(1) var<storage, read_write> output: array<${T}>;
@compute @workgroup_size(1)
fn main() {
  output[0] = ${op.identityWgsl};
  output[1] = ${op.fnName}(input[0], input[1]);
  output[2] = ${op.fnName}(${op.identityWgsl}, input[0]);
  output[3] = ${op.fnName}(input[0], ${op.identityWgsl});
}`;
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error').map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
  expect(errors, `${op.name}:\n${code}`).toEqual([]);
  const size = Math.max(4, Math.ceil((4 * op.bytes) / 4) * 4);
  const usage = GPUBufferUsage;
  const inBuffer = device.createBuffer({ size: Math.max(4, Math.ceil(input.byteLength / 4) * 4), usage: usage.STORAGE | usage.COPY_DST });
  const outBuffer = device.createBuffer({ size, usage: usage.STORAGE | usage.COPY_SRC });
  const readBuffer = device.createBuffer({ size, usage: usage.MAP_READ | usage.COPY_DST });
  const padded = new Uint8Array(Math.max(4, Math.ceil(input.byteLength / 4) * 4));
  padded.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  device.queue.writeBuffer(inBuffer, 0, padded);
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: inBuffer } },
      { binding: 1, resource: { buffer: outBuffer } },
    ],
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(1);
  pass.end();
  encoder.copyBufferToBuffer(outBuffer, 0, readBuffer, 0, size);
  device.queue.submit([encoder.finish()]);
  await readBuffer.mapAsync(GPUMapMode.READ);
  const bytes = readBuffer.getMappedRange().slice(0, 4 * op.bytes);
  readBuffer.unmap();
  for (const b of [inBuffer, outBuffer, readBuffer]) b.destroy();
  return bytes;
}

/** Checks the device's results against the CPU: the identity's bits, and the three combines. */
async function expectPieces<T>(op: Operator<T>, x0: T, x1: T, Class: new (n: number) => HostArray): Promise<void> {
  const erased = op as unknown as Operator<unknown>;
  const bytes = await runPieces(erased, encode(op, [x0, x1], Class));
  const got = bitsOf(new (Class as unknown as new (b: ArrayBuffer) => HostArray)(bytes));
  const expected = bitsOf(
    encode(op, [op.identity, stored(op, op.cpu(x0, x1)), stored(op, op.cpu(op.identity, x0)), stored(op, op.cpu(x0, op.identity))], Class),
  );
  expect(got, op.name).toEqual(expected);
}

describe('operator WGSL on a device', () => {
  test('records and vectors: argmax, affine maps, 2×2 matrices', async () => {
    await expectPieces(argmax, { value: 2.5, index: 9 }, { value: 2.5, index: 3 }, Float32Array);
    await expectPieces(affine, { a: 2, b: 1 }, { a: -3, b: 0.5 }, Float32Array);
    await expectPieces(matrix, [1, 2, 3, 4], [-5, 6, 0x7fffffff, 8], Int32Array);
  });

  test('identities by their exact bits: infinities, -0, the ends of the integer ranges', async () => {
    const edges = defineOperator({
      type: { neg: 'f32', pos: 'f32', zero: 'f32', imin: 'i32', imax: 'i32', umax: 'u32', tiny: 'f32', big: 'f32' },
      identity: {
        neg: Number.NEGATIVE_INFINITY,
        pos: Number.POSITIVE_INFINITY,
        zero: -0,
        imin: -(2 ** 31),
        imax: 2 ** 31 - 1,
        umax: 0xffffffff,
        tiny: 1.401298464324817e-45,
        big: 3.4028234663852886e38,
      },
      // max, min, add and and per field; tiny and big keep the left operand, so their identity bits come back as stored.
      wgsl: 'var r = a;\nr.neg = max(a.neg, b.neg);\nr.pos = min(a.pos, b.pos);\nr.zero = a.zero + b.zero;\nr.imin = max(a.imin, b.imin);\nr.imax = min(a.imax, b.imax);\nr.umax = a.umax & b.umax;\nr.tiny = a.tiny;\nr.big = a.big;\nreturn r;',
      cpu: (a, b) => ({
        neg: Math.max(a.neg, b.neg),
        pos: Math.min(a.pos, b.pos),
        zero: a.zero + b.zero,
        imin: Math.max(a.imin, b.imin),
        imax: Math.min(a.imax, b.imax),
        umax: (a.umax & b.umax) >>> 0,
        tiny: a.tiny,
        big: a.big,
      }),
    });
    const x = { neg: -1, pos: 1, zero: 1.5, imin: -7, imax: 7, umax: 0xf0f0f0f0, tiny: 3, big: 4 };
    await expectPieces(edges, x, { ...x, neg: 2, pos: -2, zero: -0.5, imin: 9, imax: -9, umax: 0x0ff00ff0 }, Uint32Array);
  });

  test('the seven built-ins on u32, i32 and f32', async () => {
    for (const type of ELEMENT_TYPES) {
      for (const op of SCAN_OPS.filter((o) => opFitsType(o, type))) {
        const x = type === 'f32' ? [1.5, -2.25] : type === 'i32' ? [-7, 12] : [7, 0xfffffff0];
        await expectPieces(builtinOperator(op, type), x[0]!, x[1]!, { u32: Uint32Array, i32: Int32Array, f32: Float32Array }[type]);
      }
    }
  });

  // SwiftShader has no shader-f16: there this test is reported skipped, and f16 is checked on the host only.
  test.skipIf(!ctx.device.features.has('shader-f16'))('f16, where the device has shader-f16', async () => {
    const half = defineOperator({
      type: 'f16',
      identity: Number.NEGATIVE_INFINITY,
      wgsl: 'return max(a, b);',
      cpu: Math.max,
      name: 'max16',
    });
    await expectPieces(half, 0.1, -3, Uint16Array);
    const sum = defineOperator({ type: 'f16', identity: -0, wgsl: 'return a + b;', cpu: (a, b) => a + b });
    await expectPieces(sum, 2048, 1, Uint16Array);
  });
});
