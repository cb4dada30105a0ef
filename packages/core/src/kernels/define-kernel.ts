import type { KernelSpec } from './kernel-spec.js';
import { type Specialization, specializationKey } from './specialization-key.js';

/** How a kernel reaches a binding: a storage buffer it reads, one it writes, or a uniform block. */
export type BindingAccess = 'read' | 'read_write' | 'uniform';

/** One binding of a kernel: its WGSL type (`array<vec4<u32>>`, `array<atomic<u32>>`, a struct) and access. */
export interface BindingDecl {
  readonly type: string;
  readonly access: BindingAccess;
  /** For a uniform block of scalars: its fields, from which the definition writes `struct <type>`. */
  readonly fields?: ParamFields;
}

/**
 * A storage buffer the kernel only reads.
 *
 * @example
 * ```ts
 * const bindings = { keys: read('array<u32>') };
 * ```
 */
export function read(type: string): BindingDecl {
  return { type, access: 'read' };
}

/**
 * A storage buffer the kernel writes (and may read).
 *
 * @example
 * ```ts
 * const bindings = { counters: readWrite('array<atomic<u32>>') };
 * ```
 */
export function readWrite(type: string): BindingDecl {
  return { type, access: 'read_write' };
}

/**
 * A uniform block other than the kernel's own parameters. With `fields` (scalars, in struct order)
 * the definition writes `struct <type>` and a recipe fills it with `RecipeBuilder.uniformBlock`;
 * without, the kernel's code declares the struct.
 *
 * @example
 * ```ts
 * const RANGES = { steps: 'u32', total: 'u32' } as const;
 * const bindings = { ranges: uniform('Ranges', RANGES) };
 * ```
 */
export function uniform(type: string, fields?: ParamFields): BindingDecl {
  return fields ? { type, access: 'uniform', fields } : { type, access: 'uniform' };
}

/** The WGSL type of one parameter: a 32-bit scalar, one word of the block. */
export type ParamType = 'u32' | 'i32' | 'f32';

/** A kernel's parameters by name, in the order of its `Params` struct (at most 8). */
export type ParamFields = { readonly [name: string]: ParamType };

/** Values of a kernel's parameters, by name. */
export type ParamValues<P extends ParamFields> = { readonly [K in keyof P]: number };

/** The name under which a kernel's parameter block is bound (`var<uniform> params: Params`). */
export const PARAMS_BINDING = 'params';

/** Parameter blocks are 8 words (the parameter ring's block). */
const MAX_PARAMS = 8;

/** One binding as a kernel declares it, with its number. */
export interface KernelBinding extends BindingDecl {
  readonly name: string;
  readonly binding: number;
}

/**
 * A specialization as a definition may type it: any object (an `interface` too, which has no index
 * signature); `specializationKey` checks at run time that it holds plain data only.
 */
export type SpecializationLike = object;

/** What {@link defineKernel} takes. */
export interface KernelDefinition<S extends SpecializationLike, B extends string, P extends ParamFields> {
  /** The kernel family, e.g. `sort/onesweep`; with the specialization it makes the cache key. */
  readonly name: string;
  /**
   * The storage (and extra uniform) bindings in binding order, by the names the WGSL uses. A name
   * mapped to `undefined` is not declared by that specialization (and must not be bound).
   */
  readonly bindings: { readonly [K in B]: BindingDecl | undefined } | ((spec: S) => { readonly [K in B]: BindingDecl | undefined });
  /** The parameters, in struct order: declared as `struct Params` and bound last, as `params`. */
  readonly params?: P;
  /** Extensions the WGSL enables (`subgroups` also turns off the subgroup-uniformity diagnostic). */
  readonly enable?: (spec: S) => readonly string[];
  /** Diagnostic rules the WGSL turns off (`diagnostic(off, rule);`), e.g. `chromium.subgroup_matrix_uniformity`. */
  readonly diagnosticsOff?: (spec: S) => readonly string[];
  /** The WGSL after the declarations: helper functions and the entry point. Called on a cache miss only. */
  readonly wgsl: (spec: S) => string;
  /** Entry point (default `main`). */
  readonly entryPoint?: string;
}

/**
 * One specialization of a kernel: a {@link KernelSpec} for the pipeline cache (its key derived from
 * the family name and the specialization), plus what a recipe needs to bind it by name.
 */
export interface Kernel<B extends string = string, P extends ParamFields = ParamFields> extends KernelSpec {
  /** The family name. */
  readonly name: string;
  readonly specialization: Specialization;
  /** Every binding this specialization declares, in binding order; the parameter block last. */
  readonly layout: readonly KernelBinding[];
  /** The binding names a recipe may give (the declared ones are in `layout`). */
  readonly bindingNames: readonly B[];
  /** The parameters' names and types, in struct order (empty for a kernel without). */
  readonly params: P;
  /** A parameter block's words in struct order (f32 as its bits, i32 as two's complement). */
  paramWords(values: ParamValues<P>): number[];
}

/**
 * Defines a kernel family: its bindings by name and access, its parameters by name and type, and
 * its WGSL generator. The definition writes the declarations (every binding, and the `Params` struct
 * bound as `params`), so names in TypeScript and WGSL cannot drift apart; recipes then bind buffers
 * by name and give parameters as an object (`RecipeBuilder.dispatch`). Calling the returned function
 * with a specialization gives that kernel, made once per distinct specialization and keyed by
 * `specializationKey`, so no cache key is written by hand.
 *
 * @example
 * ```ts
 * const fill = defineKernel({
 *   name: 'example/fill',
 *   bindings: (spec: { type: 'u32' | 'f32' }) => ({ dst: readWrite(`array<${spec.type}>`) }),
 *   params: { count: 'u32', value: 'u32' },
 *   wgsl: (spec) => `
 * @compute @workgroup_size(64)
 * fn main(@builtin(global_invocation_id) id: vec3<u32>) {
 *   if (id.x < params.count) { dst[id.x] = bitcast<${spec.type}>(params.value); }
 * }`,
 * });
 * builder.dispatch(fill({ type: 'u32' }), { dst: { role: 'out', offset: 0 } }, groups, { count, value: 7 });
 * ```
 */
export function defineKernel<S extends SpecializationLike, B extends string, P extends ParamFields = Record<never, ParamType>>(
  definition: KernelDefinition<S, B, P>,
): (spec: S) => Kernel<B, P> {
  const params = (definition.params ?? {}) as P;
  const fields = Object.keys(params);
  if (fields.length > MAX_PARAMS) {
    throw new Error(`internal error: kernel ${definition.name} has ${fields.length} parameters, at most ${MAX_PARAMS} fit a block`);
  }
  for (const field of fields) {
    // A recipe tells a parameter object from a buffer ref by these names.
    if (field === 'params' || field === 'role' || field === 'scratch') {
      throw new Error(`internal error: kernel ${definition.name} names a parameter "${field}", which a buffer ref uses`);
    }
  }
  const kinds = fields.map((field) => params[field] as ParamType);
  const paramWords = (values: ParamValues<P>): number[] => {
    const words = new Array<number>(fields.length);
    for (let i = 0; i < fields.length; i++)
      words[i] = wordOf((values as Record<string, number>)[fields[i] as string] as number, kinds[i] as ParamType);
    return words;
  };
  const made = new Map<string, Kernel<B, P>>();
  return (spec) => {
    const specKey = specializationKey(spec as Specialization);
    let kernel = made.get(specKey);
    if (kernel) return kernel;
    const declared = typeof definition.bindings === 'function' ? definition.bindings(spec) : definition.bindings;
    const layout: KernelBinding[] = [];
    for (const name of Object.keys(declared)) {
      const decl = declared[name as B];
      if (decl) layout.push({ ...decl, name, binding: layout.length });
    }
    if (fields.length > 0) layout.push({ name: PARAMS_BINDING, binding: layout.length, type: 'Params', access: 'uniform' });
    const key = `${definition.name}|${specKey}`;
    kernel = {
      key,
      name: definition.name,
      specialization: spec as Specialization,
      layout,
      bindingNames: Object.keys(declared) as B[],
      params,
      paramWords,
      entryPoint: definition.entryPoint ?? 'main',
      wgsl: () =>
        `${directivesWgsl(definition.enable?.(spec) ?? [], definition.diagnosticsOff?.(spec) ?? [])}${structsWgsl(params, layout)}${declarationsWgsl(layout)}\n${definition.wgsl(spec)}`,
    };
    made.set(specKey, kernel);
    return kernel;
  };
}

/**
 * The words of a block of scalar `fields` (a uniform declared with fields) holding `values`, in
 * struct order: f32 as its bits, i32 as two's complement.
 *
 * @example
 * ```ts
 * paramWordsOf({ count: 'u32', scale: 'f32' }, { count: 3, scale: 1 }); // [3, 0x3f800000]
 * ```
 */
export function paramWordsOf<P extends ParamFields>(fields: P, values: ParamValues<P>): number[] {
  const words: number[] = [];
  for (const field in fields) words.push(wordOf((values as Record<string, number>)[field] as number, fields[field] as ParamType));
  return words;
}

const f32View = new Float32Array(1);
const u32View = new Uint32Array(f32View.buffer);

/** One parameter as the u32 word the block holds. */
function wordOf(value: number, type: ParamType): number {
  if (type === 'f32') {
    f32View[0] = value;
    return u32View[0] as number;
  }
  return value >>> 0;
}

function directivesWgsl(extensions: readonly string[], rulesOff: readonly string[]): string {
  let text = '';
  for (const extension of extensions) text += `enable ${extension};\n`;
  // Subgroup built-ins in non-uniform control flow are how these kernels use them (whole subgroups
  // reach them together by construction); the analysis cannot see that.
  if (extensions.includes('subgroups')) text += 'diagnostic(off, subgroup_uniformity);\n';
  for (const rule of rulesOff) text += `diagnostic(off, ${rule});\n`;
  return text;
}

/** `struct Params` (when the kernel has parameters) and the struct of every uniform declared with fields. */
function structsWgsl(params: ParamFields, layout: readonly KernelBinding[]): string {
  let text = structWgsl('Params', params);
  for (const b of layout) if (b.fields && b.name !== PARAMS_BINDING) text += structWgsl(b.type, b.fields);
  return text;
}

function structWgsl(name: string, fields: ParamFields): string {
  const names = Object.keys(fields);
  if (names.length === 0) return '';
  return `struct ${name} {\n${names.map((field) => `  ${field}: ${fields[field]},\n`).join('')}}\n`;
}

function declarationsWgsl(layout: readonly KernelBinding[]): string {
  let text = '';
  for (const b of layout) {
    const space = b.access === 'uniform' ? 'uniform' : `storage, ${b.access}`;
    text += `@group(0) @binding(${b.binding}) var<${space}> ${b.name}: ${b.type};\n`;
  }
  return text;
}
