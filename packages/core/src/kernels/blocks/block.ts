import type { BindingDecl } from '../define-kernel.js';

/**
 * A block-level building block (CUB's `Block*` layer): WGSL generated for one specialization, and a
 * typed description of what it needs from the kernel that includes it. A kernel is written as a
 * composition of blocks — load a tile, reduce or scan it, find its heads, take its prefix — the way
 * a CUB agent is; {@link composeBlocks} gathers what the blocks need into the kernel's definition.
 *
 * Names: every WGSL name a block declares at module scope (functions, constants, workgroup
 * variables) starts with its `name`, so two blocks of one kernel never collide, and the same block
 * may be included twice under two names.
 */
export interface WgslBlock {
  /** Prefix of every module-scope WGSL name the block declares. */
  readonly name: string;
  /** Module-scope WGSL: constants, workgroup variables and functions. */
  readonly decls: string;
  /** Bytes of workgroup memory its declarations take (what `maxComputeWorkgroupStorageSize` bounds). */
  readonly workgroupBytes: number;
  /** Bindings its functions use, by the names they use (the kernel declares them among its own). */
  readonly bindings: { readonly [name: string]: BindingDecl };
  /** WGSL extensions it needs (`subgroups` when it uses subgroup built-ins). */
  readonly enable: readonly string[];
}

/** What a kernel made of blocks declares: the union of its blocks' needs. */
export interface ComposedBlocks {
  /** Every block's declarations, in the order given. */
  readonly decls: string;
  readonly workgroupBytes: number;
  readonly bindings: { readonly [name: string]: BindingDecl };
  readonly enable: readonly string[];
}

/**
 * Gathers the needs of the blocks a kernel is made of: their declarations in order, their workgroup
 * memory, their bindings (a binding two blocks share must be declared alike) and their extensions.
 * Throws when two blocks share a name or declare one binding differently: a generator bug.
 *
 * @example
 * ```ts
 * declare const load: WgslBlock, scan: WgslBlock; // e.g. a tile load and a block scan
 * const kernelNeeds = composeBlocks(load, scan);
 * // defineKernel({ …, bindings: { ...kernelNeeds.bindings, … }, enable: () => kernelNeeds.enable, wgsl: () => `${kernelNeeds.decls}…` })
 * ```
 */
export function composeBlocks(...blocks: readonly WgslBlock[]): ComposedBlocks {
  const names = new Set<string>();
  const bindings: Record<string, BindingDecl> = {};
  const enable = new Set<string>();
  let decls = '';
  let workgroupBytes = 0;
  for (const block of blocks) {
    if (names.has(block.name)) throw new Error(`composeBlocks: two blocks are named "${block.name}"`);
    names.add(block.name);
    decls += `// ── block ${block.name} ──\n${block.decls}\n`;
    workgroupBytes += block.workgroupBytes;
    for (const [name, decl] of Object.entries(block.bindings)) {
      const known = bindings[name];
      if (known && (known.type !== decl.type || known.access !== decl.access)) {
        throw new Error(`composeBlocks: binding "${name}" is declared as ${known.access} ${known.type} and as ${decl.access} ${decl.type}`);
      }
      bindings[name] = decl;
    }
    for (const extension of block.enable) enable.add(extension);
  }
  return { decls, workgroupBytes, bindings, enable: [...enable] };
}
