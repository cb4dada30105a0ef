import { BufferUsage } from '../buffers.js';
import type { ScanContext } from '../context.js';

/** Bytes between parameter blocks: WebGPU's default `minUniformBufferOffsetAlignment`. */
const BLOCK_STRIDE = 256;
/** Bytes of one parameter block as kernels declare it (8 u32 words). */
const BLOCK_BYTES = 32;
const WORDS_PER_STRIDE = BLOCK_STRIDE / 4;

/**
 * Parameter slots of a plan: how many encodes of one plan may be recorded into *different*
 * encoders and wait there, unsubmitted, at the same time. Encodes into one encoder are counted
 * and never share a slot (the ring grows instead), so recording a plan any number of times into
 * one encoder is always correct.
 */
export const PARAM_SLOTS = 4;

/** Where one encode's parameter blocks are: block `i` is bound at `offsetOf(i)`, `blockBytes` long. */
export interface ParamRing {
  readonly buffer: GPUBuffer;
  /** The slot this encode wrote. */
  readonly slot: number;
  /** Slots in the ring (bind groups are made for all of them at once). */
  readonly slots: number;
  readonly blockBytes: number;
  /** Where block `block` of slot `slot` (default: this encode's) starts. */
  offsetOf(block: number, slot?: number): number;
}

/**
 * The uniform parameters of a plan's encodes. Every encode writes its blocks with
 * `queue.writeBuffer` into the next of a few slots of one buffer, so a new count (or scalar) costs
 * a write, not a buffer.
 *
 * Why slots, and why this is safe: `writeBuffer` takes effect on the queue before the next
 * `submit`, so two encodes that share a slot and wait in unsubmitted command buffers would both read
 * the second one's parameters. Encodes into the same encoder (the same `GPUCommandEncoder` object)
 * are counted and get distinct slots — the ring doubles when one encoder takes more encodes than it
 * has slots. Across encoders, {@link PARAM_SLOTS} encodes may be pending at once (an application
 * that records one frame while the previous one is still unsubmitted, or several views per frame).
 * A buffer the ring outgrows is kept until `destroy`, since recorded commands may still read it.
 *
 * @example
 * ```ts
 * const params = new ParamRingSet(ctx, 'scan plan', () => bindGroups.clear()); // stale after a new ring
 * const ring = params.write(encoder, [[count, slots, fullVecs, tiles, dispatchX, 0, 0, 0]]);
 * // bind block 0 at ring.buffer, ring.offsetOf(0), ring.blockBytes
 * ```
 */
export class ParamRingSet {
  private buffer: GPUBuffer | undefined;
  private readonly retired: GPUBuffer[] = [];
  private slots = PARAM_SLOTS;
  private blocksPerSlot = 0;
  private nextSlot = 0;
  private lastEncoder: GPUCommandEncoder | undefined;
  private usesByLastEncoder = 0;
  private staging = new Uint32Array(0);
  /** What each slot of the current buffer holds (8 words per block), and how many blocks (0: unknown). */
  private shadow = new Uint32Array(0);
  private heldBlocks: number[] = [];
  private readonly view = new RingView();

  /** `onNewBuffer` runs whenever the ring is (re)allocated: bind groups that point into the old one are stale. */
  constructor(
    private readonly ctx: ScanContext,
    private readonly label: string,
    private readonly onNewBuffer: () => void,
  ) {}

  /** Bytes held: the ring and the rings it outgrew. */
  get memoryBytes(): number {
    let total = this.buffer?.size ?? 0;
    for (const b of this.retired) total += b.size;
    return total;
  }

  /**
   * Writes `blocks` (each at most 8 words) into the next free slot for `encoder` and returns where
   * they are. The returned object is reused by the next call.
   */
  write(encoder: GPUCommandEncoder, blocks: readonly (readonly number[])[], minBlocks = 0): ParamRing {
    // `minBlocks`: the most blocks any of the plan's structures has, so that the ring is not
    // reallocated (and every bind group remade) the first time a count takes a larger one.
    const need = Math.max(blocks.length, minBlocks);
    if (need > this.blocksPerSlot) this.reallocate(this.slots, nextPowerOfTwo(need));
    if (encoder === this.lastEncoder) {
      if (this.usesByLastEncoder >= this.slots) this.reallocate(2 * this.slots, this.blocksPerSlot);
    } else {
      this.lastEncoder = encoder;
      this.usesByLastEncoder = 0;
    }
    this.usesByLastEncoder++;
    const slot = this.nextSlot;
    this.nextSlot = (slot + 1) % this.slots;

    const words = this.staging;
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i] as readonly number[];
      const base = i * WORDS_PER_STRIDE;
      for (let w = 0; w < 8; w++) words[base + w] = block[w] ?? 0;
    }
    const view = this.view;
    view.slot = slot;
    const wordCount = (blocks.length - 1) * WORDS_PER_STRIDE + 8;
    // A write costs microseconds of native call; a slot that already holds these words (a plan fed a
    // GPU count, or the same count again) keeps them. Nothing else writes the ring.
    if (blocks.length > 0 && !this.holds(slot, words, blocks.length)) {
      this.ctx.device.queue.writeBuffer(view.buffer, view.offsetOf(0), words, 0, wordCount);
      this.remember(slot, words, blocks.length);
    }
    return view;
  }

  /** Whether slot `slot` holds the first 8 words of each of `blocks` blocks of `words`. */
  private holds(slot: number, words: Uint32Array, blocks: number): boolean {
    if (this.heldBlocks[slot] !== blocks) return false;
    const shadow = this.shadow;
    const base = slot * this.blocksPerSlot * 8;
    for (let i = 0; i < blocks; i++) {
      const from = i * WORDS_PER_STRIDE;
      for (let w = 0; w < 8; w++) if (shadow[base + i * 8 + w] !== words[from + w]) return false;
    }
    return true;
  }

  private remember(slot: number, words: Uint32Array, blocks: number): void {
    const shadow = this.shadow;
    const base = slot * this.blocksPerSlot * 8;
    for (let i = 0; i < blocks; i++) {
      const from = i * WORDS_PER_STRIDE;
      for (let w = 0; w < 8; w++) shadow[base + i * 8 + w] = words[from + w] as number;
    }
    this.heldBlocks[slot] = blocks;
  }

  destroy(): void {
    this.buffer?.destroy();
    for (const b of this.retired) b.destroy();
    this.buffer = undefined;
    this.retired.length = 0;
  }

  private reallocate(slots: number, blocksPerSlot: number): void {
    if (this.buffer) this.retired.push(this.buffer);
    this.slots = slots;
    this.view.slots = slots;
    this.blocksPerSlot = blocksPerSlot;
    this.view.slotBytes = blocksPerSlot * BLOCK_STRIDE;
    this.buffer = this.ctx.device.createBuffer({
      label: `${this.label} params`,
      size: slots * this.view.slotBytes,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    });
    this.view.buffer = this.buffer;
    this.staging = new Uint32Array(blocksPerSlot * WORDS_PER_STRIDE);
    this.shadow = new Uint32Array(slots * blocksPerSlot * 8);
    this.heldBlocks = new Array<number>(slots).fill(0);
    this.nextSlot = 0;
    this.usesByLastEncoder = 0;
    this.onNewBuffer();
  }
}

/** The one {@link ParamRing} a set hands out, updated in place by every write. */
class RingView implements ParamRing {
  buffer = undefined as unknown as GPUBuffer;
  slot = 0;
  slots = PARAM_SLOTS;
  readonly blockBytes = BLOCK_BYTES;
  slotBytes = 0;

  offsetOf(block: number, slot = this.slot): number {
    return slot * this.slotBytes + block * BLOCK_STRIDE;
  }
}

function nextPowerOfTwo(n: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(1, n)));
}
