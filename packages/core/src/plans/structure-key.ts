import { type Kernel, PARAMS_BINDING } from '../kernels/define-kernel.js';

/** The fields of a buffer ref (`BufferRef` of recipe.ts) that a key names. */
interface RefFields {
  readonly role?: string;
  readonly scratch?: string;
  readonly params?: number;
  readonly offset?: number;
  readonly size?: number;
  readonly limit?: number;
  readonly multipleOf?: number;
}

/**
 * One dispatch's part of a structure key (see `structureKeyOf` in recipe.ts): the kernel's id, then
 * the id of the ref of each binding the kernel declares (in binding order), of the parameter ref and
 * of the indirect ref (unit 0: workgroup counts from the host). Ids are exact (equal ids, equal
 * refs), each written prefix-free, and the kernel fixes how many follow it, so a recipe's dispatch
 * parts concatenate into a key that names exactly what they bind. Nothing is allocated but the
 * string: a plan builds a recipe at every encode (0.2 µs a dispatch of six refs in Node; the refs'
 * fields written out in decimal cost 0.66 µs, half of it in hashing that longer key at the
 * executor's lookup).
 *
 * @example
 * ```ts
 * b.dispatch(kernel, bindings, workgroups, params); // RecipeBuilder adds dispatchKey(kernel, bindings, paramsRef, undefined)
 * ```
 */
export function dispatchKey(
  kernel: Kernel,
  bindings: { readonly [name: string]: RefFields | undefined },
  params: RefFields | undefined,
  indirect: RefFields | undefined,
): string {
  const part = kernelKeyPart(kernel);
  const names = part.names;
  let key = part.prefix;
  for (let i = 0; i < names.length; i++) key += idUnits(refId(bindings[names[i] as string]));
  key += idUnits(refId(params));
  return key + (indirect === undefined ? DIRECT : idUnits(refId(indirect)));
}

/** What a dispatch's key takes from its kernel alone, made once per kernel object. */
interface KernelKeyPart {
  /** The kernel's id (one per kernel key, so per WGSL and layout), as key units. */
  readonly prefix: string;
  /** Its binding names in binding order, the parameter block apart. */
  readonly names: readonly string[];
}

/** Kernel ids by kernel key: a kernel made twice (equal keys) is one kernel to a structure. */
const kernelIds = new Map<string, number>();
const kernelKeyParts = new WeakMap<Kernel, KernelKeyPart>();

function kernelKeyPart(kernel: Kernel): KernelKeyPart {
  let part = kernelKeyParts.get(kernel);
  if (part === undefined) {
    let id = kernelIds.get(kernel.key);
    if (id === undefined) {
      id = kernelIds.size;
      kernelIds.set(kernel.key, id);
    }
    const names: string[] = [];
    for (const b of kernel.layout) if (b.name !== PARAMS_BINDING) names.push(b.name);
    part = { prefix: idUnits(id), names };
    kernelKeyParts.set(kernel, part);
  }
  return part;
}

/** Ref id of a binding the recipe leaves empty, and the unit of a dispatch without an indirect ref. */
const NO_REF = 1;
const DIRECT = String.fromCharCode(0);

/**
 * An id as key units: 15 bits a unit, low bits first, the top bit set on every unit but the last (so
 * no id's units begin another's).
 */
function idUnits(id: number): string {
  return id < 0x8000 ? String.fromCharCode(id) : String.fromCharCode(0x8000 | (id & 0x7fff)) + idUnits(Math.floor(id / 0x8000));
}

/** Ids of buffer names; a role's and a scratch buffer's never coincide. The parameter blocks are name 0. */
const roleIds = new Map<string, number>();
const scratchIds = new Map<string, number>();
let nextName = 1;

function nameId(ids: Map<string, number>, name: string): number {
  let id = ids.get(name);
  if (id === undefined) {
    id = nextName++;
    ids.set(name, id);
  }
  return id;
}

/** Fields a ref is interned by: name, offset, size, limit, multipleOf (−1: not given). */
const FIELDS = 5;
/** Slots of a new table (a power of two; the table is kept at most half full). */
const FIRST_SLOTS = 256;
/** Refs the table holds before it starts afresh (ids are never reused, so earlier keys stay distinct). */
const MAX_REFS = 1 << 16;

/**
 * Ref ids by every field, exact (no two refs share an id): an open-addressed table over numbers, so
 * a lookup makes no string and no object. A new id is the next of a counter that never goes back, so
 * when the table is full (a long-lived process that keeps making plans of new sizes) it is dropped
 * without a key made before ever meaning another structure: a structure met again after that gets a
 * new key, and its bind groups are made once more.
 */
let fields = new Float64Array(FIRST_SLOTS * FIELDS);
let ids = new Float64Array(FIRST_SLOTS);
let held = 0;
let nextRef = NO_REF + 1;

/** The id of `ref`; {@link NO_REF} for none. */
function refId(ref: RefFields | undefined): number {
  if (ref === undefined) return NO_REF;
  const block = ref.params;
  if (block !== undefined) return intern(0, block, -1, -1, -1);
  const role = ref.role;
  const name = role !== undefined ? nameId(roleIds, role) : nameId(scratchIds, ref.scratch as string);
  return intern(name, ref.offset ?? 0, ref.size ?? -1, ref.limit ?? -1, ref.multipleOf ?? -1);
}

function intern(name: number, offset: number, size: number, limit: number, multipleOf: number): number {
  let slot = slotOf(name, offset, size, limit, multipleOf);
  const id = ids[slot] as number;
  if (id !== 0) return id;
  if (2 * (held + 1) > ids.length) {
    grow();
    slot = slotOf(name, offset, size, limit, multipleOf);
  }
  place(slot, name, offset, size, limit, multipleOf, nextRef);
  held++;
  return nextRef++;
}

/** The slot that holds these fields, or the empty slot where they go. */
function slotOf(name: number, offset: number, size: number, limit: number, multipleOf: number): number {
  const mask = ids.length - 1;
  let h = Math.imul(name, 0x9e3779b1) ^ Math.imul(offset | 0, 0x85ebca77) ^ Math.imul(size | 0, 0xc2b2ae3d);
  h ^= Math.imul(limit | 0, 0x27d4eb2f) ^ Math.imul(multipleOf | 0, 0x165667b1);
  h ^= h >>> 15;
  for (let slot = h & mask; ; slot = (slot + 1) & mask) {
    if (ids[slot] === 0) return slot;
    const at = slot * FIELDS;
    if (
      fields[at] === name &&
      fields[at + 1] === offset &&
      fields[at + 2] === size &&
      fields[at + 3] === limit &&
      fields[at + 4] === multipleOf
    ) {
      return slot;
    }
  }
}

function place(slot: number, name: number, offset: number, size: number, limit: number, multipleOf: number, id: number): void {
  const at = slot * FIELDS;
  fields[at] = name;
  fields[at + 1] = offset;
  fields[at + 2] = size;
  fields[at + 3] = limit;
  fields[at + 4] = multipleOf;
  ids[slot] = id;
}

/** Doubles the table, or past {@link MAX_REFS} refs starts an empty one. */
function grow(): void {
  const oldFields = fields;
  const oldIds = ids;
  const afresh = held >= MAX_REFS;
  const slots = afresh ? FIRST_SLOTS : 2 * oldIds.length;
  fields = new Float64Array(slots * FIELDS);
  ids = new Float64Array(slots);
  if (afresh) {
    held = 0;
    return;
  }
  for (let old = 0; old < oldIds.length; old++) {
    const id = oldIds[old] as number;
    if (id === 0) continue;
    const at = old * FIELDS;
    const f = (k: number) => oldFields[at + k] as number;
    place(slotOf(f(0), f(1), f(2), f(3), f(4)), f(0), f(1), f(2), f(3), f(4), id);
  }
}
