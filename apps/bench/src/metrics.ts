/** Bytes per element of every type the bench measures (u32, i32, f32, and u32 flags; the tcu inputs are f16). */
const WORD = 4;

/** Bytes of n bit-packed head flags: ⌈n/32⌉ words, n/8 when n is a multiple of 32. */
function headBitBytes(n: number): number {
  return WORD * Math.ceil(n / 32);
}

/** Bits of one digit of the one-sweep radix sort the bytes model assumes (`'radix'`: 8-bit digits). */
export const RADIX_DIGIT_BITS = 8;

/**
 * Scatter passes of an LSD radix sort of 32-bit keys with {@link RADIX_DIGIT_BITS}-bit digits: 4.
 *
 * @example
 * ```ts
 * radixPasses(); // 4
 * radixPasses(16); // 2
 * ```
 */
export function radixPasses(keyBits = 32): number {
  return Math.ceil(keyBits / RADIX_DIGIT_BITS);
}

/**
 * The primitives of the bytes model below. A new primitive's module may compute its bytes itself
 * (its workload's `bytes`) rather than add a line here.
 */
export type BytesModel =
  | 'scan'
  | 'reduce'
  | 'enumerate'
  | 'distribute'
  | 'split'
  | 'pack'
  | 'segmented-scan'
  | 'segmented-reduce'
  | 'sort'
  | 'sort-pairs'
  | 'segmented-sort'
  | 'tridiag-cr'
  | 'tridiag-pcr'
  | 'tridiag-cr-pcr'
  | 'tridiag-partition'
  | 'water-adi-step'
  | 'tcu-reduce'
  | 'tcu-scan'
  | 'spmv'
  | 'spmv-t'
  | 'spmm'
  | 'hisparse-spmv'
  | 'hisparse-spmv-t'
  | 'hisparse-add'
  | 'copy'
  | 'read-only';

/**
 * The bytes a primitive must move at least — what GB/s is computed over:
 *
 * | primitive        | bytes                  | why                                                  |
 * | ---------------- | ---------------------- | ---------------------------------------------------- |
 * | scan             | 2·n·4                  | read the input once, write the output once           |
 * | reduce           | n·4                    | read the input once (the 4-byte result is noise)     |
 * | enumerate        | 2·n·4                  | read the u32 flags, write the u32 counts             |
 * | distribute       | n·4 + 4                | write the output, read one element                   |
 * | split            | 2·n·4 + n·f            | read data and flags, write the data                  |
 * | pack             | n·4 + n·f + kept·4     | read data and flags, write the kept elements         |
 * | segmented-scan   | 2·n·4 + n/8            | read data and bit-packed head flags, write output    |
 * | segmented-reduce | n·4 + n/8 + segments·4 | read data and head bits, write one value per segment |
 * | sort             | 9·n·4                  | one-sweep radix model: read the keys for the histograms, then 4 passes (8-bit digits) each read and write them |
 * | sort-pairs       | 17·n·4                 | the same with u32 values read and written in each pass: n·4 + 4·2·(n·4 + n·4) |
 * | segmented-sort   | 9·n·4 + n/8            | the sort model plus reading the head bits once                       |
 * | tridiag-*        | 5·n·4                  | read a, b, c, d and write x (n unknowns in all)      |
 * | water-adi-step   | 27·n·4                 | one ADI step of n cells, pass by pass (water.ts)     |
 * | tcu-reduce       | 2·n + segments·4       | read the f16 input, write one f32 per segment        |
 * | tcu-scan         | 2·n + n·4              | read the f16 input, write the f32 prefix sums        |
 * | spmv, spmv-t, spmm | 8·n + 4·extra        | read values and column indices of the n nonzeros once, x once, write y once |
 * | hisparse-spmv, hisparse-spmv-t | 8·n + 4·extra | the CSR model of the same product (not the HiSparse pool's bytes), so GB/s and ×copy compare with the spmv cases as time ratios |
 * | hisparse-add     | 3·8·n                  | C = A + 2A in the CSR model of cuSPARSE csrgeam (`baselines/cuda.py`'s `sparse-add`): read A's and B's values and column indices, write C's (n = A's CSR nnz; C has as many). Not the HiSparse pools' words, so GB/s compares with csrgeam as a time ratio |
 * | copy             | 2·n·4                  | read and write every element                         |
 * | read-only        | n·4                    | read every element                                   |
 *
 * `f` (`flagBytes`) is 4 for u32 flags and 1 for u8 flags. `extra` is the number of 1-flags for pack and the number of segments for segmented-reduce and
 * tcu-reduce, and for the SpMV cases (n = nnz) the vector words k·(len x + len y) (`spmvVectorWords`:
 * the x read once and y written once, per column; `rowPtr` is not counted). n/8 stands for the ⌈n/32⌉ words of head bits. The tcu inputs are f16 (2 bytes each).
 * The sorts count the traffic of a bandwidth-bound LSD radix sort of 32-bit keys with 8-bit digits
 * (Adinets & Merrill's one-sweep: one histogram pass, then one scatter pass per digit), whatever the
 * algorithm: `split-radix` (one split per bit) moves far more, but stating every sort over the same
 * bytes makes GB/s and ×copy time ratios between algorithms. ×copy = 1 means the sort ran as fast
 * as 4.5 copies of the keys (sort) or 8.5 (sort-pairs).
 *
 * @example
 * ```ts
 * bytesMoved('scan', 1 << 20); // 8388608
 * bytesMoved('pack', 1000, 500); // 10000
 * bytesMoved('segmented-reduce', 1024, 64); // 4096 + 128 + 256 = 4480
 * bytesMoved('tcu-reduce', 1024, 4); // 2048 + 16 = 2064
 * bytesMoved('sort', 1024); // 4096 + 4 · 8192 = 36864
 * bytesMoved('spmv', 5, 6); // 8·5 + 4·6 = 64
 * bytesMoved('hisparse-add', 5); // 3·8·5 = 120
 * ```
 */
export function bytesMoved(primitive: BytesModel, n: number, extra = 0, flagBytes = WORD): number {
  switch (primitive) {
    case 'scan':
    case 'enumerate':
    case 'copy':
      return 2 * n * WORD;
    case 'reduce':
    case 'read-only':
      return n * WORD;
    case 'distribute':
      return n * WORD + WORD;
    case 'split':
      return 2 * n * WORD + n * flagBytes;
    case 'pack':
      return n * WORD + n * flagBytes + extra * WORD;
    case 'segmented-scan':
      return 2 * n * WORD + headBitBytes(n);
    case 'segmented-reduce':
      return n * WORD + headBitBytes(n) + extra * WORD;
    case 'sort':
      return n * WORD + radixPasses() * 2 * n * WORD;
    case 'sort-pairs':
      return n * WORD + radixPasses() * 2 * (n * WORD + n * WORD);
    case 'segmented-sort':
      return n * WORD + radixPasses() * 2 * n * WORD + headBitBytes(n);
    case 'tridiag-cr':
    case 'tridiag-pcr':
    case 'tridiag-cr-pcr':
    case 'tridiag-partition':
      return 5 * n * WORD;
    case 'tcu-reduce':
      return 2 * n + extra * WORD;
    case 'tcu-scan':
      return 2 * n + n * WORD;
    case 'spmv':
    case 'spmv-t':
    case 'spmm':
    case 'hisparse-spmv':
    case 'hisparse-spmv-t':
      // A value (f32) and a column index (u32) per nonzero; the vectors' words come in `extra`.
      return 8 * n + extra * WORD;
    case 'hisparse-add':
      // A value (f32) and a column index (u32) per nonzero, read from A and from B, written to C.
      return 3 * 8 * n;
    case 'water-adi-step':
      // Row coefficients 3 reads + 4 writes, each solve 4 + 1, column coefficients 3 + 4, increment 2 + 1.
      return 27 * n * WORD;
  }
}

/**
 * The bytes the user-defined operator cases must move at least, over records of `recordBytes` bytes
 * (`op.bytes`: 4 for a u32, 8 for a vec2<f32> or a two-field record, 16 for a vec4<f32>):
 *
 * | primitive       | bytes             | why                                      |
 * | --------------- | ----------------- | ---------------------------------------- |
 * | operator-scan   | 2·n·recordBytes   | read every record once, write every one  |
 * | operator-reduce | n·recordBytes     | read every record once (the result is noise) |
 *
 * Their `×copy` (and `×read`) are GB/s ratios against the baselines over n u32 words in the same
 * process, so they compare bandwidths, not times (the copy moves 4/recordBytes of the bytes).
 *
 * @example
 * ```ts
 * recordBytesMoved('operator-scan', 1 << 20, 16); // 33554432: a vec4<f32> scan of 2^20 records
 * recordBytesMoved('operator-reduce', 1000, 8); // 8000
 * ```
 */
export function recordBytesMoved(primitive: 'operator-scan' | 'operator-reduce', n: number, recordBytes: number): number {
  return primitive === 'operator-scan' ? 2 * n * recordBytes : n * recordBytes;
}

/** Throughput of one timing. */
export interface Throughput {
  /** Gigabytes (1e9 bytes) per second over {@link bytesMoved}. */
  readonly gbps: number;
  /** Billions of input elements per second. */
  readonly gelemsPerS: number;
}

/**
 * GB/s and G elements/s of moving `bytes` and handling `n` elements in `ms` milliseconds.
 *
 * @example
 * ```ts
 * throughput(8e6, 1e6, 1); // { gbps: 8, gelemsPerS: 1 }
 * ```
 */
export function throughput(bytes: number, n: number, ms: number): Throughput {
  if (!(ms > 0)) return { gbps: Number.NaN, gelemsPerS: Number.NaN };
  return { gbps: bytes / ms / 1e6, gelemsPerS: n / ms / 1e6 };
}
