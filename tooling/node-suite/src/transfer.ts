// Host ↔ GPU speed in Node: Dawn's raw calls beside the path every array-level function takes
// (core's uploadArray and encodeReadback, through the session helper), and one whole array-level
// call. Each figure is the median of `reps` timed runs after one untimed warm-up.
import { BufferUsage, createScanPlan, encodeReadback, type ScanContext, scan, uploadArray } from '@scan/core';

/** One measured transfer. */
export interface TransferRow {
  readonly what: string;
  /** Host bytes moved per run (both directions for a whole call). */
  readonly bytes: number;
  readonly medianMs: number;
  /** `bytes` over the median time, in 10^9 bytes per second. */
  readonly gbPerS: number;
}

async function median(reps: number, run: () => Promise<number>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) times.push(await run());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Times `body` from its start to the end of the GPU work it submitted. */
async function timed(ctx: ScanContext, body: () => Promise<void> | void): Promise<number> {
  const start = performance.now();
  await body();
  await ctx.device.queue.onSubmittedWorkDone();
  return performance.now() - start;
}

/**
 * Measures uploads and read-backs of `elements` u32 (default 2^24, 64 MiB): Dawn's `writeBuffer`
 * (into a resident buffer, into a new one, and a new buffer mapped at creation),
 * and a mapped `MAP_READ` buffer (with and without copying the mapping out, which a caller must do
 * to keep the data past `unmap`), the project's `uploadArray` and `encodeReadback`, and `scan` on
 * host data beside the same scan on resident buffers (its GPU work alone).
 *
 * @example
 * ```ts
 * for (const row of await measureTransfers(ctx)) console.log(row.what, row.gbPerS.toFixed(1), 'GB/s');
 * ```
 */
export async function measureTransfers(ctx: ScanContext, elements = 2 ** 24, reps = 7): Promise<TransferRow[]> {
  const device = ctx.device;
  const bytes = 4 * elements;
  const data = Uint32Array.from({ length: elements }, (_, i) => (i * 2654435761) >>> 0);
  const usage = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;
  const resident = device.createBuffer({ size: bytes, usage });
  const output = device.createBuffer({ size: bytes, usage });
  const staging = device.createBuffer({ size: bytes, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  device.queue.writeBuffer(resident, 0, data);
  const rows: TransferRow[] = [];
  const row = (what: string, moved: number, ms: number) => rows.push({ what, bytes: moved, medianMs: ms, gbPerS: moved / ms / 1e6 });

  /** Dawn's read-back: copy into the mappable buffer, map it, optionally copy the mapping out. */
  const rawRead = (copyOut: boolean) =>
    timed(ctx, async () => {
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(resident, 0, staging, 0, bytes);
      device.queue.submit([encoder.finish()]);
      await staging.mapAsync(0x0001 /* GPUMapMode.READ */);
      const range = staging.getMappedRange();
      if (copyOut) range.slice(0);
      staging.unmap();
    });
  try {
    row('raw writeBuffer', bytes, await median(reps, () => timed(ctx, () => device.queue.writeBuffer(resident, 0, data))));
    row(
      'raw createBuffer + writeBuffer (a new buffer)',
      bytes,
      await median(reps, () =>
        timed(ctx, () => {
          const fresh = device.createBuffer({ size: bytes, usage });
          device.queue.writeBuffer(fresh, 0, data);
          fresh.destroy();
        }),
      ),
    );
    row(
      'raw createBuffer mappedAtCreation + set',
      bytes,
      await median(reps, () =>
        timed(ctx, () => {
          const fresh = device.createBuffer({ size: bytes, usage, mappedAtCreation: true });
          new Uint32Array(fresh.getMappedRange()).set(data);
          fresh.unmap();
          fresh.destroy();
        }),
      ),
    );
    const writer = device.createBuffer({ size: bytes, usage: BufferUsage.MAP_WRITE | BufferUsage.COPY_SRC });
    try {
      row(
        'raw MAP_WRITE staging reused: map, set, copy',
        bytes,
        await median(reps, () =>
          timed(ctx, async () => {
            await writer.mapAsync(0x0002 /* GPUMapMode.WRITE */);
            new Uint32Array(writer.getMappedRange()).set(data);
            writer.unmap();
            const encoder = device.createCommandEncoder();
            encoder.copyBufferToBuffer(writer, 0, resident, 0, bytes);
            device.queue.submit([encoder.finish()]);
          }),
        ),
      );
    } finally {
      writer.destroy();
    }
    const reused = new Uint32Array(elements);
    row(
      'raw mapAsync read, mapping copied into a reused array',
      bytes,
      await median(reps, () =>
        timed(ctx, async () => {
          const encoder = device.createCommandEncoder();
          encoder.copyBufferToBuffer(resident, 0, staging, 0, bytes);
          device.queue.submit([encoder.finish()]);
          await staging.mapAsync(0x0001 /* GPUMapMode.READ */);
          reused.set(new Uint32Array(staging.getMappedRange()));
          staging.unmap();
        }),
      ),
    );
    row(
      'host only: a new array of this size, written',
      bytes,
      await median(reps, async () => {
        const start = performance.now();
        new Uint32Array(elements).fill(1);
        return performance.now() - start;
      }),
    );
    row(
      'host only: copy into a reused array',
      bytes,
      await median(reps, async () => {
        const start = performance.now();
        reused.set(data);
        return performance.now() - start;
      }),
    );
    row('raw mapAsync read, mapping read in place', bytes, await median(reps, () => rawRead(false)));
    row('raw mapAsync read, mapping copied out', bytes, await median(reps, () => rawRead(true)));
    row(
      'uploadArray (every array-level upload)',
      bytes,
      await median(reps, () => timed(ctx, () => uploadArray(ctx, data, 'upload').destroy())),
    );
    row(
      'encodeReadback (every array-level read-back)',
      bytes,
      await median(reps, () =>
        timed(ctx, async () => {
          const encoder = device.createCommandEncoder();
          const read = encodeReadback(ctx, encoder, resident, 0, bytes);
          device.queue.submit([encoder.finish()]);
          await read();
        }),
      ),
    );
    row(
      'scan on host data (upload, scan, read-back)',
      2 * bytes,
      await median(reps, () => timed(ctx, () => scan(ctx, data).then(() => undefined))),
    );
    const plan = createScanPlan(ctx, { type: 'u32' });
    try {
      const gpuOnly = await median(reps, () =>
        timed(ctx, () => {
          const encoder = device.createCommandEncoder();
          plan.encode(encoder, { input: resident, output, count: elements });
          device.queue.submit([encoder.finish()]);
        }),
      );
      row('scan on resident buffers (GPU work alone)', 2 * bytes, gpuOnly);
    } finally {
      plan.destroy();
    }
  } finally {
    for (const b of [resident, output, staging]) b.destroy();
  }
  return rows;
}
