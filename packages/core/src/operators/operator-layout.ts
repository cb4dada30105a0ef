import type { FieldType, LaneType, OperatorLayout, OperatorType, ScalarType } from './operator-type.js';

/**
 * The layout of a valid element type (`defineOperator` has checked it): its shape, the storage type
 * of each lane, the field names, and its size.
 *
 * @example
 * ```ts
 * layoutOf('vec4<i32>'); // { shape: 'vector', lanes: ['i32', 'i32', 'i32', 'i32'], fields: [], words: 4, bytes: 16 }
 * layoutOf({ value: 'f32', index: 'u32' }).lanes; // ['f32', 'u32']
 * layoutOf('f16').bytes; // 2
 * ```
 */
export function layoutOf(type: OperatorType): OperatorLayout {
  if (typeof type === 'string') {
    const vector = /^vec([24])<(u32|i32|f32)>$/.exec(type);
    if (vector) {
      const lanes: LaneType[] = new Array(Number(vector[1])).fill(vector[2] as FieldType);
      return freeze('vector', lanes, []);
    }
    return freeze('scalar', [type as ScalarType], []);
  }
  const fields = Object.keys(type);
  return freeze(
    'record',
    fields.map((field) => type[field]!),
    fields,
  );
}

function freeze(shape: OperatorLayout['shape'], lanes: LaneType[], fields: string[]): OperatorLayout {
  const bytes = lanes[0] === 'f16' ? 2 : 4 * lanes.length;
  return Object.freeze({ shape, lanes: Object.freeze(lanes), fields: Object.freeze(fields), words: bytes / 4, bytes });
}
