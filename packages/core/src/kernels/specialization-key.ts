/**
 * A kernel's specialization: everything its WGSL generator depends on, as plain data (strings,
 * numbers, booleans, arrays and objects of them). Fields that are `undefined` are the same as absent.
 */
export type SpecValue = string | number | boolean | undefined | readonly SpecValue[] | { readonly [field: string]: SpecValue };

/** A kernel's specialization (see {@link SpecValue}). */
export type Specialization = { readonly [field: string]: SpecValue };

/**
 * A stable text for `spec`: object fields in sorted order, `undefined` fields left out, so two
 * specializations that hold the same data give the same text whatever order they were written in.
 * Pipeline cache keys are made of it, so no key is written by hand and none can miss a field the
 * generator reads. Throws on values that are not plain data (functions, class instances, NaN), which
 * would not name a kernel faithfully.
 *
 * @example
 * ```ts
 * specializationKey({ type: 'u32', backward: false, tile: [256, 4] }); // 'backward=false,tile=[256,4],type=u32'
 * ```
 */
export function specializationKey(spec: Specialization): string {
  return fieldsText(spec, 'specialization');
}

function fieldsText(object: { readonly [field: string]: SpecValue }, path: string): string {
  const names = Object.keys(object).sort();
  let text = '';
  for (const name of names) {
    const value = object[name];
    if (value === undefined) continue;
    if (text) text += ',';
    text += `${name}=${valueText(value, `${path}.${name}`)}`;
  }
  return text;
}

function valueText(value: SpecValue, path: string): string {
  switch (typeof value) {
    case 'string':
      // Quoted only when it could be read as punctuation of the key.
      return /^[\w.:/-]*$/.test(value) ? value : JSON.stringify(value);
    case 'number':
      if (Number.isNaN(value)) throw new Error(`internal error: ${path} is NaN, which names no kernel`);
      return String(value);
    case 'boolean':
      return String(value);
    case 'object':
      if (value === null) break;
      if (Array.isArray(value)) return `[${value.map((v, i) => (v === undefined ? '' : valueText(v, `${path}[${i}]`))).join(',')}]`;
      if (Object.getPrototypeOf(value) === Object.prototype) return `{${fieldsText(value as Specialization, path)}}`;
      break;
  }
  throw new Error(`internal error: ${path} is not plain data (${String(value)}), so it cannot be part of a kernel's key`);
}
