import { allocateScene, finishScene, type SplatScene, setSplat } from './scene.js';

/** The zeroth spherical-harmonics basis constant: colour = 0.5 + SH_C0 · f_dc. */
export const SH_C0 = 0.28209479177387814;

const TYPE_BYTES: Record<string, [number, (v: DataView, at: number) => number]> = {
  float: [4, (v, at) => v.getFloat32(at, true)],
  float32: [4, (v, at) => v.getFloat32(at, true)],
  double: [8, (v, at) => v.getFloat64(at, true)],
  float64: [8, (v, at) => v.getFloat64(at, true)],
  uchar: [1, (v, at) => v.getUint8(at)],
  uint8: [1, (v, at) => v.getUint8(at)],
  char: [1, (v, at) => v.getInt8(at)],
  int8: [1, (v, at) => v.getInt8(at)],
  ushort: [2, (v, at) => v.getUint16(at, true)],
  uint16: [2, (v, at) => v.getUint16(at, true)],
  short: [2, (v, at) => v.getInt16(at, true)],
  int16: [2, (v, at) => v.getInt16(at, true)],
  uint: [4, (v, at) => v.getUint32(at, true)],
  uint32: [4, (v, at) => v.getUint32(at, true)],
  int: [4, (v, at) => v.getInt32(at, true)],
  int32: [4, (v, at) => v.getInt32(at, true)],
};

const REQUIRED = [
  'x',
  'y',
  'z',
  'f_dc_0',
  'f_dc_1',
  'f_dc_2',
  'opacity',
  'scale_0',
  'scale_1',
  'scale_2',
  'rot_0',
  'rot_1',
  'rot_2',
  'rot_3',
];

/**
 * Parses a `.ply` file in the layout of 3D Gaussian splatting (Kerbl et al. 2023):
 * `binary_little_endian`, one `vertex` element with x y z, (nx ny nz,) f_dc_0..2, f_rest_*,
 * opacity (a logit), scale_0..2 (logs) and rot_0..3 (a quaternion w x y z), in any order. Only the
 * zeroth-order colour is used (view-dependent f_rest_* are skipped). Throws an Error that says what
 * is wrong otherwise.
 *
 * @example
 * ```ts
 * const scene = parseSplatPly(await file.arrayBuffer());
 * ```
 */
export function parseSplatPly(data: ArrayBuffer): SplatScene {
  const head = new TextDecoder('latin1').decode(new Uint8Array(data, 0, Math.min(data.byteLength, 1 << 16)));
  const end = head.indexOf('end_header\n');
  if (!head.startsWith('ply\n') || end < 0) throw new Error('not a .ply file (no "ply" magic or no end_header)');
  const lines = head
    .slice(0, end)
    .split('\n')
    .map((l) => l.trim());
  if (!lines.includes('format binary_little_endian 1.0')) throw new Error('only binary_little_endian .ply files are read');
  let count = -1;
  let stride = 0;
  let inVertex = false;
  let before = 0; // bytes of elements before the vertices (none in practice)
  const props = new Map<string, [number, (v: DataView, at: number) => number]>();
  for (const line of lines) {
    const words = line.split(/\s+/);
    if (words[0] === 'element') {
      inVertex = words[1] === 'vertex';
      if (inVertex) count = Number(words[2]);
      else if (count < 0) before = Number.NaN; // an element before the vertices: sizes unknown
    } else if (words[0] === 'property' && inVertex) {
      if (words[1] === 'list') throw new Error('list properties in the vertex element are not supported');
      const type = TYPE_BYTES[words[1] as string];
      if (!type) throw new Error(`unknown property type ${words[1]}`);
      props.set(words[2] as string, [stride, type[1]]);
      stride += type[0];
    }
  }
  if (!(count >= 0) || Number.isNaN(before)) throw new Error('no vertex element (or one after another element)');
  const missing = REQUIRED.filter((p) => !props.has(p));
  if (missing.length > 0) throw new Error(`not a Gaussian-splat .ply: missing ${missing.join(', ')}`);
  const start = end + 'end_header\n'.length;
  if (data.byteLength < start + count * stride)
    throw new Error(
      `truncated: ${count} vertices of ${stride} bytes need ${start + count * stride} bytes, the file has ${data.byteLength}`,
    );
  const view = new DataView(data, start);
  const get = REQUIRED.map((p) => props.get(p)!);
  const scene = allocateScene(count);
  const v = new Array<number>(REQUIRED.length);
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  for (let i = 0; i < count; i++) {
    const at = i * stride;
    for (let k = 0; k < get.length; k++) v[k] = get[k]![1](view, at + get[k]![0]);
    setSplat(
      scene,
      i,
      [v[0]!, v[1]!, v[2]!],
      [Math.exp(v[7]!), Math.exp(v[8]!), Math.exp(v[9]!)],
      [v[10]!, v[11]!, v[12]!, v[13]!],
      [0.5 + SH_C0 * v[3]!, 0.5 + SH_C0 * v[4]!, 0.5 + SH_C0 * v[5]!],
      sigmoid(v[6]!),
    );
  }
  return finishScene(scene);
}

/**
 * Writes splats as a 3DGS `.ply` (x y z nx ny nz f_dc_0..2 f_rest_0..`rest-1` opacity scale_0..2
 * rot_0..3, f32, little-endian): the inverse of {@link parseSplatPly}'s mapping, for tests and
 * small hand-made scenes.
 *
 * @example
 * ```ts
 * const bytes = writeSplatPly([{ position: [0, 0, 0], scale: [0.1, 0.1, 0.1], rotation: [1, 0, 0, 0], color: [1, 0, 0], opacity: 0.9 }]);
 * ```
 */
export function writeSplatPly(
  splats: readonly { position: number[]; scale: number[]; rotation: number[]; color: number[]; opacity: number }[],
  rest = 3,
): ArrayBuffer {
  const names = [
    'x',
    'y',
    'z',
    'nx',
    'ny',
    'nz',
    'f_dc_0',
    'f_dc_1',
    'f_dc_2',
    ...Array.from({ length: rest }, (_, k) => `f_rest_${k}`),
    'opacity',
    'scale_0',
    'scale_1',
    'scale_2',
    'rot_0',
    'rot_1',
    'rot_2',
    'rot_3',
  ];
  const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${splats.length}\n${names.map((n) => `property float ${n}\n`).join('')}end_header\n`;
  const bytes = new Uint8Array(header.length + 4 * names.length * splats.length);
  for (let i = 0; i < header.length; i++) bytes[i] = header.charCodeAt(i);
  const f = new DataView(bytes.buffer, header.length);
  splats.forEach((s, i) => {
    const logit = Math.log(s.opacity / (1 - s.opacity));
    const row = [
      ...s.position,
      0,
      0,
      1,
      ...s.color.map((c) => (c - 0.5) / SH_C0),
      ...new Array<number>(rest).fill(0.25),
      logit,
      ...s.scale.map(Math.log),
      ...s.rotation,
    ];
    row.forEach((value, k) => f.setFloat32(4 * (i * names.length + k), value, true));
  });
  return bytes.buffer;
}
