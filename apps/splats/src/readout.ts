/** One frame's numbers, once the GPU has done it. */
export interface FrameReading {
  /** Visible (drawn) splats. */
  drawn: number;
  /** Cull + packs and sort, in ms, from timestamp queries (undefined without `timestamp-query`). */
  cullMs?: number;
  sortMs?: number;
}

const SLOT_BYTES = 32;
const SLOTS = 3;

/**
 * Reads a frame's visible count (and timestamps) back without ever waiting on a frame: a ring of
 * small MAP_READ buffers; a frame whose slots are all still mapping just goes unread.
 */
export class FrameReadout {
  private readonly slots: { buffer: GPUBuffer; busy: boolean }[] = [];
  private readonly resolve?: GPUBuffer;
  readonly querySet?: GPUQuerySet;
  private pending: number | undefined;

  constructor(
    device: GPUDevice,
    private readonly onReading: (reading: FrameReading) => void,
  ) {
    for (let i = 0; i < SLOTS; i++) {
      this.slots.push({
        buffer: device.createBuffer({
          label: 'splats readout',
          size: SLOT_BYTES,
          usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        }),
        busy: false,
      });
    }
    if (device.features.has('timestamp-query')) {
      this.querySet = device.createQuerySet({ type: 'timestamp', count: 3 });
      this.resolve = device.createBuffer({
        label: 'splats timestamps',
        size: 256,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      });
    }
  }

  /** Records the copies of this frame's count (and timestamps) into a free slot, if any. */
  record(encoder: GPUCommandEncoder, visibleCount: GPUBuffer): void {
    const slot = this.slots.findIndex((s) => !s.busy);
    this.pending = slot < 0 ? undefined : slot;
    if (slot < 0) return;
    const { buffer } = this.slots[slot]!;
    encoder.copyBufferToBuffer(visibleCount, 0, buffer, 0, 4);
    if (this.querySet && this.resolve) {
      encoder.resolveQuerySet(this.querySet, 0, 3, this.resolve, 0);
      encoder.copyBufferToBuffer(this.resolve, 0, buffer, 8, 24);
    }
  }

  /** After the submit: maps the slot recorded into and reports it when it is ready. */
  afterSubmit(): void {
    if (this.pending === undefined) return;
    const slot = this.slots[this.pending]!;
    this.pending = undefined;
    slot.busy = true;
    void slot.buffer.mapAsync(GPUMapMode.READ).then(
      () => {
        const range = slot.buffer.getMappedRange();
        const drawn = new Uint32Array(range, 0, 1)[0]!;
        const reading: FrameReading = { drawn };
        if (this.querySet) {
          const [t0, t1, t2] = new BigUint64Array(range, 8, 3) as unknown as [bigint, bigint, bigint];
          if (t1 >= t0 && t2 >= t1 && t0 > 0n) {
            reading.cullMs = Number(t1 - t0) / 1e6;
            reading.sortMs = Number(t2 - t1) / 1e6;
          }
        }
        slot.buffer.unmap();
        slot.busy = false;
        this.onReading(reading);
      },
      () => {
        slot.busy = false;
      },
    );
  }
}
