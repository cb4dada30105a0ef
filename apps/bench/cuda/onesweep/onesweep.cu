// A CUDA C++ port of the WebGPU onesweep radix sort (packages/sort), a diagnostic tool for issue 32:
// is the ~2.6 ms per digit pass at 2^28 keys the structure of our pass, or what Dawn makes of it?
//
// The kernels mirror the generated WGSL of commit 5d169f8 1:1 (onesweep-none.wgsl, onesweep-move.wgsl,
// histogram.wgsl, digit-scan.wgsl as dump-wgsl.ts writes them; since 261988d the WGSL's tile offsets
// are what RANK_FIXUP_SPLIT=1 does here), specialized as on an NVIDIA GPU: u32 keys ascending, 8-bit digits,
// subgroups of 32, workgroups of 256 (8 subgroups), 13 keys per invocation (tiles of 3328),
// look-back window 8, maxSpin 64, packed statuses (2-bit flag, 30-bit count).
// Phase names and numbers are the WGSL's (after Onesweep, Adinets & Merrill 2022).
//
// Template switches:
//   Values    key–value (onesweep-move.wgsl) or keys only (onesweep-none.wgsl)
//   Robust    adds what Dawn's translation adds: every storage/workgroup index clamped to its
//             array, and all workgroup memory zeroed at entry, then a barrier
//   StopAfter phase ablation of one digit pass (see PHASES below and README.md)
//
// Experiment knobs (preprocessor, -DNAME=VALUE; the defaults are the faithful port, unchanged code):
//   RANK_MATCH        0: 8 __ballot_sync per key, as the WGSL (default)
//                     1: __match_any_sync(digit): hardware match, not expressible in WGSL (a ceiling)
//   RANK_COUNTER      0: the first peer lane atomicAdds the subgroup's shared counter (default)
//                     1: CUB's way: the highest peer lane loads and stores the warp-private counter
//                        (plain RMW), __syncwarp, the prior shuffled from it (see rank_key below)
//   RANK_FIXUP_SPLIT  0: the rank fix-up gathers wg_digit[d] + counters[group*256+d] (default)
//                     1: the digit owners fold wg_digit[d] into their counters column after the
//                        tile-offset scan, so the fix-up gathers counters[group*256+d] only
//   MIN_BLOCKS        0: __launch_bounds__(WG) on the pass (default); N > 0: __launch_bounds__(WG, N),
//                        i.e. registers capped at 65536 / (N * WG) (N = 4 at WG 256: 64 registers)
//   KEYS_PER_THREAD   E, keys per invocation (default 13); the tile is WG_SIZE * E keys
//   WG_SIZE           invocations per workgroup of the pass (default 256; a multiple of 32, >= 256:
//                     invocations >= 256 own no digit); groups = WG_SIZE / 32
//   RANK_BITS         how each of the 8 ballots tests its bit of the digit (the WGSL's `ballotBits`):
//                     0: ((d >> b) & 1) != 0 and `bit ? bal : ~bal` (default; WGSL 'shift')
//                     1: the bit spread by a sign shift, m = (int)(d << (31 - b)) >> 31, ballot of
//                        m != 0, peers &= ~(bal ^ m) (WGSL 'sign')
//                     2: as 1 but m from (d & mask_b) with the masks in constant memory, which
//                        nvcc cannot fold back into a shift (not in the WGSL: 8 masks do not fit
//                        its parameter block)
//                     3: CUB's MatchAny: inline PTX and/setp/vote/@!p not (not expressible in WGSL)
//   PAD_LAST          0: every phase tests each key's index against the count (default)
//                     1: a partial tile is padded with the key that sorts last (0xffffffff here),
//                        whose digit is the largest of every pass: rank, fix-up and staging test
//                        nothing, the early counts take the padding back out (WGSL `padLast`)
// Everything (tile, counters, stage, groups, tile count, status areas) is sized from these; the
// histogram and the digit scan do not change. The host prints the knobs and the pass's registers
// and workgroups/SM of the build.
//
// Build: nvcc -arch=sm_90 -O3 -lineinfo -std=c++17 -o onesweep onesweep.cu

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

// The phase ablation returns early from inside the kernel; the code after such a return is
// instantiated but unreachable, which is intended.
#pragma nv_diag_suppress 128

#define CUDA_CHECK(x)                                                                              \
  do {                                                                                             \
    cudaError_t err_ = (x);                                                                        \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__,      \
                   __LINE__, cudaGetErrorString(err_));                                            \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// ---- Experiment knobs (see the head of this file and README.md "Experiments") ---------------------
#ifndef RANK_MATCH
#define RANK_MATCH 0
#endif
#ifndef RANK_COUNTER
#define RANK_COUNTER 0
#endif
#ifndef RANK_FIXUP_SPLIT
#define RANK_FIXUP_SPLIT 0
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 0
#endif
#ifndef KEYS_PER_THREAD
#define KEYS_PER_THREAD 13
#endif
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef RANK_BITS
#define RANK_BITS 0
#endif
#ifndef PAD_LAST
#define PAD_LAST 0
#endif
#define ONESWEEP_STR2(x) #x
#define ONESWEEP_STR(x) ONESWEEP_STR2(x)
#define ONESWEEP_CONFIG                                                                            \
  "RANK_MATCH=" ONESWEEP_STR(RANK_MATCH) " RANK_COUNTER=" ONESWEEP_STR(RANK_COUNTER)             \
  " RANK_FIXUP_SPLIT=" ONESWEEP_STR(RANK_FIXUP_SPLIT) " MIN_BLOCKS=" ONESWEEP_STR(MIN_BLOCKS)    \
  " KEYS_PER_THREAD=" ONESWEEP_STR(KEYS_PER_THREAD) " WG_SIZE=" ONESWEEP_STR(WG_SIZE)          \
  " RANK_BITS=" ONESWEEP_STR(RANK_BITS) " PAD_LAST=" ONESWEEP_STR(PAD_LAST)

// ---- The WGSL's constants ------------------------------------------------------------------------
constexpr unsigned WG = WG_SIZE;       // workgroup size (256)
constexpr unsigned SG = 32;            // subgroup size (NVIDIA)
constexpr unsigned GROUPS = WG / SG;   // 8 subgroups
constexpr unsigned E = KEYS_PER_THREAD;  // keys per invocation (13)
constexpr unsigned TILE = WG * E;      // 3328
constexpr unsigned RADIX = 256;
constexpr unsigned STATUS_BASE = 64;   // the ticket line in front of a pass's statuses (words)
constexpr unsigned FLAG_NOT_READY = 0, FLAG_AGGREGATE = 1, FLAG_INCLUSIVE = 2;
constexpr unsigned LOOKBACK_WINDOW = 8;
constexpr unsigned MAX_SPIN = 64;
constexpr unsigned FULL = 0xffffffffu;
constexpr bool PAD = PAD_LAST != 0;    // padLast: partial tiles padded with the last key
// Histogram: 256 invocations × 16 keys, grid-stride, at most 2048 workgroups (radix-config.ts).
constexpr unsigned HIST_WG = 256, HIST_E = 16, HIST_CHUNK = HIST_WG * HIST_E;
constexpr unsigned MAX_HISTOGRAM_WORKGROUPS = 2048;
// The `digits` range of the status scratch (radix-recipe.ts DIGITS_BYTES): 4 × 256 histogram words,
// then at DIGIT_STARTS_WORD the 4 × 256 digit starts. The passes' look-back areas follow it.
constexpr unsigned DIGIT_STARTS_WORD = 4 * RADIX;
constexpr unsigned DIGITS_WORDS = DIGIT_STARTS_WORD + 4 * RADIX;
constexpr unsigned PASSES = 4;
static_assert(WG % SG == 0 && WG >= RADIX && WG <= 1024, "WG_SIZE: a multiple of 32 in [256, 1024]");
static_assert(E >= 1, "KEYS_PER_THREAD >= 1");

// Phase ablation of the digit pass (StopAfter). Every variant runs the prologue (tile ticket,
// subgroup ticket, counter clear) and the phases up to and including the named one, then sinks
// a value that depends on all the work into a store the compiler cannot prove dead.
enum : int {
  STOP_LOAD = 1,      // 1 load
  STOP_EARLY = 2,     // + 2 early counts and their AGGREGATE/INCLUSIVE publish (real status writes)
  STOP_RANK = 3,      // + 3 rank (warp multi-split, shared counters)
  STOP_OFFSETS = 4,   // + 4 tile offsets (per-digit group scan, workgroup scan, rank fix-up)
  STOP_LOOKBACK = 5,  // + 5 look-back, 6 fallback, INCLUSIVE publish, scatter bases
  STOP_STAGE = 6,     // + 7a staging of the keys in shared memory and the targets (no global writes)
  STOP_FULL = 7,      // the whole pass (7b global scatter; values too with Values)
};
static const char* phase_name(int s) {
  switch (s) {
    case 1: return "load";
    case 2: return "early_counts";
    case 3: return "rank";
    case 4: return "tile_offsets";
    case 5: return "lookback";
    case 6: return "stage";
    default: return "full";
  }
}

// Index clamp as Dawn/Tint's robustness transform does it (min(i, length - 1)); a no-op unless Robust.
template <bool Robust>
__device__ __forceinline__ unsigned cl(unsigned i, unsigned len) {
  if constexpr (Robust) return min(i, len - 1u);
  else return i;
}

// ---- The histogram pass (histogram.wgsl) ---------------------------------------------------------
struct HistParams {
  const unsigned* keys;
  unsigned* digits;   // the digits range of the status scratch (DIGITS_WORDS words)
  unsigned count;
  unsigned tiles;     // workgroups dispatched: the grid stride
  unsigned dispatch_x;
  unsigned keys_len;  // binding lengths in words (Robust clamps)
};

template <bool Robust>
__global__ void __launch_bounds__(HIST_WG) radix_histogram(HistParams p) {
  __shared__ unsigned counts[4 * RADIX];
  const unsigned lid = threadIdx.x;
  // The WGSL relies on zero-initialized workgroup memory here (it never clears `counts`): the
  // zeroing loop Dawn adds is part of the faithful port too.
  for (unsigned i = lid; i < 4 * RADIX; i += HIST_WG) counts[i] = 0;
  __syncthreads();
  const unsigned w = blockIdx.x + blockIdx.y * p.dispatch_x;
  if (w >= p.tiles) return;
  const unsigned n = p.count;
  // Grid stride: workgroup w counts chunks w, w + tiles, … of 4096 keys, consecutive invocations on
  // consecutive keys.
  for (unsigned base = w * HIST_CHUNK; base < n; base += p.tiles * HIST_CHUNK) {
    // All loads first (independent, in flight together), then the counting.
    unsigned k[HIST_E];
#pragma unroll
    for (unsigned j = 0; j < HIST_E; j++) k[j] = p.keys[cl<Robust>(min(base + j * HIST_WG + lid, n - 1u), p.keys_len)];
#pragma unroll
    for (unsigned j = 0; j < HIST_E; j++) {
      if (base + j * HIST_WG + lid < n) {
        atomicAdd(&counts[cl<Robust>(0u + ((k[j] >> 0) & 255u), 4 * RADIX)], 1u);
        atomicAdd(&counts[cl<Robust>(256u + ((k[j] >> 8) & 255u), 4 * RADIX)], 1u);
        atomicAdd(&counts[cl<Robust>(512u + ((k[j] >> 16) & 255u), 4 * RADIX)], 1u);
        atomicAdd(&counts[cl<Robust>(768u + ((k[j] >> 24) & 255u), 4 * RADIX)], 1u);
      }
    }
  }
  __syncthreads();
  for (unsigned i = lid; i < 4 * RADIX; i += HIST_WG) {
    const unsigned c = counts[cl<Robust>(i, 4 * RADIX)];
    if (c > 0u) atomicAdd(&p.digits[cl<Robust>(i, DIGITS_WORDS)], c);
  }
}

// ---- The digit scan (radix-histogram.ts digitScanKernel): one workgroup, Kogge–Stone per pass -----
template <bool Robust>
__global__ void __launch_bounds__(RADIX) digit_scan(unsigned* digits, unsigned passes) {
  __shared__ unsigned buf[RADIX];
  const unsigned d = threadIdx.x;
  if constexpr (Robust) {
    buf[d] = 0;
    __syncthreads();
  }
  for (unsigned p = 0; p < passes; p++) {
    const unsigned own = digits[cl<Robust>(p * RADIX + d, DIGITS_WORDS)];
    unsigned inc = own;
    for (unsigned step = 1; step < RADIX; step <<= 1) {
      buf[cl<Robust>(d, RADIX)] = inc;
      __syncthreads();
      if (d >= step) inc += buf[cl<Robust>(d - step, RADIX)];
      __syncthreads();
    }
    digits[cl<Robust>(DIGIT_STARTS_WORD + p * RADIX + d, DIGITS_WORDS)] = inc - own;
  }
}

// ---- The one-sweep digit pass (onesweep-none.wgsl / onesweep-move.wgsl) --------------------------
struct PassParams {
  const unsigned* keys_in;
  unsigned* keys_out;
  const unsigned* values_in;
  unsigned* values_out;
  unsigned* status;         // the look-back areas (the status scratch past the digits range)
  const unsigned* digits;   // the digits range
  // The WGSL's Params (a uniform block there, kernel parameters here: both constant-bank reads).
  unsigned count;
  unsigned shift;
  unsigned mask;
  unsigned digit_starts;
  unsigned status_base;
  // Binding lengths in words: what Dawn passes for arrayLength (Robust clamps; see lookback_read).
  unsigned keys_len;
  unsigned status_len;
  unsigned digits_len;
  // Ablation sink: a value the kernel cannot know, so the sink stores stay live (and never happen).
  unsigned sentinel;
};

// Workgroup memory in the WGSL's declaration order, one struct so the layout is that order.
struct OnesweepShared {
  unsigned wg_tile;
  unsigned digit_stall;        // atomic in the WGSL
  unsigned digit_stall_seen;
  unsigned group_ticket;       // atomic
  unsigned counters[GROUPS * RADIX];   // per group and digit; reused by the fallback (atomic)
  unsigned wg_digit[RADIX];            // the tile's digit starts, then the scatter bases
  unsigned early_counts[RADIX];        // the tile's keys per digit (atomic)
  unsigned wg_group_total[GROUPS];
  unsigned stage[TILE];
};
static_assert(sizeof(OnesweepShared) == 4 * (4 + GROUPS * RADIX + RADIX + RADIX + GROUPS + TILE), "layout");
static_assert(sizeof(OnesweepShared) <= 48 * 1024, "static shared memory over 48 KiB: lower E or WG_SIZE");

__device__ __forceinline__ unsigned digit_of(const PassParams& p, unsigned k) { return (k >> p.shift) & p.mask; }

// Status words: WGSL atomicLoad/atomicStore on storage are relaxed, device scope (Vulkan memory
// model); the packed word carries its own payload, so no acquire/release is needed.
__device__ __forceinline__ unsigned status_load(unsigned* w) {
  return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*w).load(cuda::memory_order_relaxed);
}
__device__ __forceinline__ void status_store(unsigned* w, unsigned v) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*w).store(v, cuda::memory_order_relaxed);
}
__device__ __forceinline__ unsigned status_index(const PassParams& p, unsigned t, unsigned chain) {
  return p.status_base + STATUS_BASE + t * RADIX + chain;  // u32 arithmetic, wraps as in WGSL
}
template <bool Robust>
__device__ __forceinline__ void digit_publish(const PassParams& p, unsigned t, unsigned chain, unsigned flag, unsigned value) {
  status_store(&p.status[cl<Robust>(status_index(p, t, chain), p.status_len)], (flag << 30) | (value & 0x3fffffffu));
}
template <bool Robust>
__device__ __forceinline__ void digit_offer(const PassParams& p, unsigned t, unsigned chain, unsigned value) {
  atomicMax(&p.status[cl<Robust>(status_index(p, t, chain), p.status_len)], (FLAG_AGGREGATE << 30) | (value & 0x3fffffffu));
}

#if RANK_BITS == 2
// The ballots' bit masks, read from constant memory (RANK_BITS 2): a __constant__ may be written by
// the host, so nvcc keeps the and with a mask instead of rewriting it as a shift.
__constant__ unsigned RANK_BIT_MASKS[8] = {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u};
#endif

// (before, total, leader lane) of digit d among the lanes of this subgroup: 8 ballots, one per bit
// (RANK_MATCH 1: one __match_any_sync). The leader is the lowest peer lane (RANK_COUNTER 1: the
// highest, as CUB).
__device__ __forceinline__ void match_digit(unsigned d, unsigned lane, unsigned live, unsigned& before,
                                            unsigned& total, unsigned& leader) {
#if RANK_MATCH
  // Hardware match (sm_70+): the lanes holding the same digit. Every lane is live here (`live` is
  // the full mask), so no masking is needed. WGSL has no equivalent: this is a ceiling only.
  (void)live;
  const unsigned peers = __match_any_sync(FULL, d);
#else
  unsigned peers = live;
#pragma unroll
  for (unsigned b = 0; b < 8; b++) {
#if RANK_BITS == 0
    const bool bit = ((d >> b) & 1u) != 0u;
    const unsigned bal = __ballot_sync(FULL, bit);
    peers &= bit ? bal : ~bal;
#elif RANK_BITS == 1 || RANK_BITS == 2
#if RANK_BITS == 1
    const unsigned m = static_cast<unsigned>(static_cast<int>(d << (31u - b)) >> 31);
#else
    const unsigned m = (d & RANK_BIT_MASKS[b]) != 0u ? FULL : 0u;
#endif
    const unsigned bal = __ballot_sync(FULL, m != 0u);
    peers &= ~(bal ^ m);
#else
    // CUB's MatchAny (util_ptx.cuh): the and/setp stay as written, so ptxas loads 7 bits of the
    // digit into predicates with one R2P and complements each ballot under its predicate.
    unsigned bal;
    asm("{ .reg .pred p; .reg .u32 t; and.b32 t, %1, %2; setp.ne.u32 p, t, 0;"
        " vote.sync.ballot.b32 %0, p, 0xffffffff; @!p not.b32 %0, %0; }"
        : "=r"(bal)
        : "r"(d), "r"(1u << b));
    peers &= bal;
#endif
  }
#endif
  const unsigned below = (1u << lane) - 1u;
  before = __popc(peers & below);
  total = __popc(peers);
#if RANK_COUNTER
  leader = 31 - __clz(peers);  // the highest peer lane (CUB: WARP_THREADS - 1 - clz)
#else
  leader = __ffs(peers) - 1;  // firstTrailingBit
#endif
}

// subgroupInclusiveAdd as a shuffle ladder (what NVIDIA's drivers emit for it, more or less).
__device__ __forceinline__ unsigned subgroup_inclusive_add(unsigned x, unsigned lane) {
#pragma unroll
  for (unsigned o = 1; o < SG; o <<= 1) {
    const unsigned y = __shfl_up_sync(FULL, x, o);
    if (lane >= o) x += y;
  }
  return x;
}

// Exclusive sum of x over the workgroup (every invocation calls it), in (group, lane) order.
template <bool Robust>
__device__ __forceinline__ unsigned workgroup_exclusive(OnesweepShared& S, unsigned x, unsigned group, unsigned lane) {
  const unsigned inc = subgroup_inclusive_add(x, lane);
  const unsigned up = __shfl_up_sync(FULL, inc, 1);
  const unsigned exc = lane > 0 ? up : 0u;
  if (lane == SG - 1) S.wg_group_total[cl<Robust>(group, GROUPS)] = inc;
  __syncthreads();
  unsigned before = 0;
  for (unsigned g = 0; g < group; g++) before += S.wg_group_total[cl<Robust>(g, GROUPS)];
  __syncthreads();
  return before + exc;
}

// One walk of the look-back for one digit chain (phase 5, and again after each fallback step).
template <bool Robust>
__device__ __forceinline__ void lookback_walk(const PassParams& p, unsigned chain, unsigned& left,
                                              unsigned& prefix, bool& done) {
  unsigned spins = 0;
  for (;;) {
    // A window of 8 predecessors read at once (independent loads, one latency), then consumed
    // nearest first: AGGREGATEs add up until an INCLUSIVE ends the walk or a NOT_READY stops this
    // step. The loads are unconditional (a read past tile 0 is discarded), so they go out together.
    // A read past tile 0 wraps to an out-of-range index, which the WGSL leaves to Dawn's bounds
    // clamp: the port clamps these reads the same way in every build (else it would fault).
    unsigned wflag[LOOKBACK_WINDOW], wbits[LOOKBACK_WINDOW];
#pragma unroll
    for (unsigned i = 0; i < LOOKBACK_WINDOW; i++) {
      const unsigned s = status_load(&p.status[min(status_index(p, left - 1u - i, chain), p.status_len - 1u)]);
      wflag[i] = i < left ? (s >> 30) : FLAG_INCLUSIVE;
      wbits[i] = i < left ? (s & 0x3fffffffu) : 0u;
    }
    unsigned consumed = 0;
#pragma unroll
    for (unsigned i = 0; i < LOOKBACK_WINDOW; i++) {
      if (wflag[i] == FLAG_NOT_READY) break;
      prefix = wbits[i] + prefix;
      if (wflag[i] == FLAG_INCLUSIVE) { done = true; break; }
      consumed++;
    }
    if (done) break;
    left -= consumed;
    if (consumed > 0) {
      spins = 0;
    } else {
      spins++;
      if (spins >= MAX_SPIN) break;
    }
  }
}

// The ablation sink: a store that depends on acc and (practically) never happens.
__device__ __forceinline__ void sink(const PassParams& p, unsigned acc, unsigned tile_start, unsigned lid) {
  if (acc == p.sentinel) p.keys_out[min(tile_start + lid, p.count - 1u)] = acc;
}

// An ablation's end: folds every per-key value of the phase reached (and `acc`) into one word and
// sinks it, so that the compiler keeps all of that phase's work.
__device__ __forceinline__ void sink_keys(const PassParams& p, const unsigned (&values)[E], unsigned acc, unsigned tile_start,
                                          unsigned lid) {
#pragma unroll
  for (unsigned j = 0; j < E; j++) acc ^= values[j] << (j & 7);
  sink(p, acc, tile_start, lid);
}

#if MIN_BLOCKS > 0
#define ONESWEEP_PASS_BOUNDS __launch_bounds__(WG, MIN_BLOCKS)
#else
#define ONESWEEP_PASS_BOUNDS __launch_bounds__(WG)
#endif

template <bool Values, bool Robust, int StopAfter>
__global__ void ONESWEEP_PASS_BOUNDS onesweep_pass(PassParams p) {
  __shared__ OnesweepShared S;
  const unsigned lid = threadIdx.x;           // local_invocation_index
  const unsigned sg_lane = lid % SG;          // subgroup_invocation_id
  if constexpr (Robust) {
    // Dawn zero-initializes all workgroup memory at entry, then a barrier.
    unsigned* words = reinterpret_cast<unsigned*>(&S);
    for (unsigned i = lid; i < sizeof(OnesweepShared) / 4; i += WG) words[i] = 0;
    __syncthreads();
  }
  // Tiles go out in the order workgroups start (a ticket), so a tile's predecessors have started.
  if (lid == 0) {
    if constexpr (!Robust) {
      // The WGSL relies on zero-initialized workgroup memory for these two atomics (the faithful
      // port zeroes just them; the robust build zeroes everything above).
      S.group_ticket = 0;
      S.digit_stall = 0;
    }
    S.wg_tile = atomicAdd(&p.status[cl<Robust>(p.status_base, p.status_len)], 1u);
  }
  // workgroupUniformLoad: barrier, load, barrier (Tint's lowering).
  __syncthreads();
  const unsigned tile = S.wg_tile;
  __syncthreads();
  const unsigned n = p.count;
  if (tile * TILE >= n) return;
  // subgroupElect + atomicAdd + subgroupBroadcastFirst: subgroups number themselves in the order
  // they get here (the WGSL does not assume a subgroup holds consecutive invocations).
  unsigned ticket = 0;
  if (sg_lane == 0) ticket = atomicAdd(&S.group_ticket, 1u);
  const unsigned group = __shfl_sync(FULL, ticket, 0);
  const unsigned lane = sg_lane;
  const unsigned gsize = SG;
  for (unsigned i = lid; i < GROUPS * RADIX; i += WG) S.counters[cl<Robust>(i, GROUPS * RADIX)] = 0;
  for (unsigned i = lid; i < RADIX; i += WG) S.early_counts[cl<Robust>(i, RADIX)] = 0;
  __syncthreads();
  const unsigned tile_start = tile * TILE;
  const unsigned valid = min(TILE, n - tile_start);

  // 1. Load: E keys per lane, strided by the group size (coalesced).
  const unsigned base = tile_start + group * gsize * E;
  unsigned keys[E];
  if (base + E * gsize <= n) {
#pragma unroll
    for (unsigned j = 0; j < E; j++) keys[j] = p.keys_in[cl<Robust>(base + j * gsize + lane, p.keys_len)];
  } else {
#pragma unroll
    for (unsigned j = 0; j < E; j++) {
      const unsigned k = p.keys_in[cl<Robust>(min(base + j * gsize + lane, n - 1u), p.keys_len)];
      keys[j] = PAD && base + j * gsize + lane >= n ? FULL : k;
    }
  }
  if constexpr (StopAfter == STOP_LOAD) {
    sink_keys(p, keys, 0u, tile_start, lid);
    return;
  }

  // 2. Early counts (Onesweep's): the tile's digit counts, published at once as AGGREGATE (tile 0:
  // INCLUSIVE) so that successors waiting in their look-back need not wait for this tile's ranking.
  // Invocation `me` owns digit me, numbered in (group, lane) order: the order of phase 4's scan.
  const unsigned me = group * gsize + lane;
#pragma unroll
  for (unsigned j = 0; j < E; j++) {
    if (PAD || base + j * gsize + lane < n) atomicAdd(&S.early_counts[cl<Robust>(digit_of(p, keys[j]), RADIX)], 1u);
  }
  __syncthreads();
  unsigned real = 0;
  {
    const unsigned d = me;
    if (d < RADIX) {
      // With PAD the padding was counted as the largest digit: take it back out.
      real = S.early_counts[cl<Robust>(d, RADIX)] - (PAD && d == p.mask ? TILE - valid : 0u);
      digit_publish<Robust>(p, tile, d, tile == 0u ? FLAG_INCLUSIVE : FLAG_AGGREGATE, real);
    }
  }
  if constexpr (StopAfter == STOP_EARLY) return;  // the status stores are the output

  // 3. Rank: each key's rank among its group's keys of the same digit, in (j, lane) order. Padding
  // (past n) ranks as the largest digit, so it falls at the tail of the tile.
  unsigned ranks[E];
  const unsigned live = __ballot_sync(FULL, true);
#pragma unroll
  for (unsigned j = 0; j < E; j++) {
    const unsigned d = PAD || base + j * gsize + lane < n ? digit_of(p, keys[j]) : p.mask;
    unsigned before, total, leader;
    match_digit(d, lane, live, before, total, leader);
    unsigned prior = 0;
#if RANK_COUNTER
    // CUB's way (BlockRadixRankMatch): the counter row is private to this subgroup and, within one
    // key j, each digit has exactly one leader, so a plain load + store cannot race inside j. The
    // __syncwarp orders this j's stores before the next j's loads by other lanes of the subgroup
    // (independent thread scheduling: __shfl_sync alone does not order shared memory).
    // In WGSL this would be a non-atomic read-modify-write of a subgroup-private workgroup array.
    // WGSL has no subgroup-scope barrier; the only barrier that orders workgroup memory is
    // workgroupBarrier (whole workgroup, one per key: too dear), so a faithful WGSL version would be
    // a data race by the WGSL memory model (or relaxed atomicLoad/atomicStore, which are race-free
    // but still unordered between lanes across j) and would rely on the subgroup running in
    // lock-step, which the spec does not promise.
    if (lane == leader) {
      const unsigned at = cl<Robust>(group * RADIX + d, GROUPS * RADIX);
      prior = S.counters[at];
      S.counters[at] = prior + total;
    }
    __syncwarp();
#else
    if (before == 0u) prior = atomicAdd(&S.counters[cl<Robust>(group * RADIX + d, GROUPS * RADIX)], total);
#endif
    ranks[j] = __shfl_sync(FULL, prior, leader) + before;
  }
  __syncthreads();
  if constexpr (StopAfter == STOP_RANK) {
    sink_keys(p, ranks, 0u, tile_start, lid);
    return;
  }

  // 4. Tile offsets: per digit, scan the groups' counts (group order), then the digit totals
  // (padding included: it is the tail of the largest digit).
#if RANK_FIXUP_SPLIT
  // The digit owner sums its column of counters (reads only), takes the tile start of its digit from
  // the workgroup scan, then writes the column once as start + (exclusive prefix over the groups),
  // so the fix-up gathers one word per key. wg_digit[d] still gets the start: the scatter bases
  // (after the look-back) subtract it.
  unsigned own_total = 0;
  {
    const unsigned d = me;
    if (d < RADIX) {
#pragma unroll
      for (unsigned g = 0; g < GROUPS; g++) own_total += S.counters[cl<Robust>(g * RADIX + d, GROUPS * RADIX)];
    }
  }
  const unsigned start = workgroup_exclusive<Robust>(S, own_total, group, lane);
  {
    const unsigned d = me;
    if (d < RADIX) {
      unsigned running = start;
#pragma unroll
      for (unsigned g = 0; g < GROUPS; g++) {
        const unsigned c = S.counters[cl<Robust>(g * RADIX + d, GROUPS * RADIX)];
        S.counters[cl<Robust>(g * RADIX + d, GROUPS * RADIX)] = running;
        running += c;
      }
      S.wg_digit[cl<Robust>(d, RADIX)] = start;
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < E; j++) {
    const unsigned d = PAD || base + j * gsize + lane < n ? digit_of(p, keys[j]) : p.mask;
    ranks[j] += S.counters[cl<Robust>(group * RADIX + d, GROUPS * RADIX)];
  }
#else
  unsigned counts = 0;
  unsigned own_total = 0;
  {
    const unsigned d = me;
    unsigned running = 0;
    if (d < RADIX) {
#pragma unroll
      for (unsigned g = 0; g < GROUPS; g++) {
        const unsigned c = S.counters[cl<Robust>(g * RADIX + d, GROUPS * RADIX)];
        S.counters[cl<Robust>(g * RADIX + d, GROUPS * RADIX)] = running;
        running += c;
      }
    }
    counts = running;
    own_total += running;
  }
  unsigned start = workgroup_exclusive<Robust>(S, own_total, group, lane);
  {
    const unsigned d = me;
    if (d < RADIX) {
      S.wg_digit[cl<Robust>(d, RADIX)] = start;
      start += counts;
    }
  }
  __syncthreads();
#pragma unroll
  for (unsigned j = 0; j < E; j++) {
    const unsigned d = PAD || base + j * gsize + lane < n ? digit_of(p, keys[j]) : p.mask;
    ranks[j] += S.wg_digit[cl<Robust>(d, RADIX)] + S.counters[cl<Robust>(group * RADIX + d, GROUPS * RADIX)];
  }
#endif
  __syncthreads();
  if constexpr (StopAfter == STOP_OFFSETS) {
    sink_keys(p, ranks, 0u, tile_start, lid);
    return;
  }

  // 5. Look-back over the digit counts of the predecessors, one digit per invocation.
  unsigned digit_left = tile;
  unsigned digit_prefix = 0;
  bool digit_done = !(tile > 0u && me < RADIX);
  if (!digit_done) {
    lookback_walk<Robust>(p, me, digit_left, digit_prefix, digit_done);
    if (digit_done) digit_publish<Robust>(p, tile, me, FLAG_INCLUSIVE, digit_prefix + real);
  }
  // 6. Fallback: the whole workgroup counts the digits of a stalled tile from its keys.
  for (;;) {
    // Is a chain stuck on a predecessor (stall = that tile + 1)?
    if (!digit_done) atomicMax(&S.digit_stall, digit_left);
    __syncthreads();
    if (lid == 0) {
      S.digit_stall_seen = S.digit_stall;
      S.digit_stall = 0;
    }
    __syncthreads();  // workgroupUniformLoad: barrier, load, barrier
    const unsigned stall = S.digit_stall_seen;
    __syncthreads();
    if (stall == 0u) break;
    const unsigned stalled = stall - 1u;
    for (unsigned i = lid; i < RADIX; i += WG) S.counters[cl<Robust>(i, GROUPS * RADIX)] = 0;
    __syncthreads();
    for (unsigned j = 0; j < E; j++) {
      const unsigned e = stalled * TILE + j * WG + lid;
      if (e < n) atomicAdd(&S.counters[cl<Robust>(digit_of(p, p.keys_in[cl<Robust>(e, p.keys_len)]), GROUPS * RADIX)], 1u);
    }
    __syncthreads();
    // The chains stuck there take its aggregate and walk on.
    if (!digit_done && digit_left == stall) {
      const unsigned digit_found = S.counters[cl<Robust>(me, GROUPS * RADIX)];
      digit_prefix = digit_found + digit_prefix;
      digit_left = stalled;
      digit_offer<Robust>(p, stalled, me, digit_found);
    }
    if (!digit_done) {
      lookback_walk<Robust>(p, me, digit_left, digit_prefix, digit_done);
      if (digit_done) digit_publish<Robust>(p, tile, me, FLAG_INCLUSIVE, digit_prefix + real);
    }
  }

  // The scatter base of each digit: its global start, plus the predecessors' keys of that digit,
  // minus its start in the tile.
  {
    const unsigned d = me;
    if (d < RADIX) {
      S.wg_digit[cl<Robust>(d, RADIX)] =
          p.digits[cl<Robust>(p.digit_starts + d, p.digits_len)] + digit_prefix - S.wg_digit[cl<Robust>(d, RADIX)];
    }
  }
  if constexpr (StopAfter == STOP_LOOKBACK) {
    sink_keys(p, ranks, digit_prefix, tile_start, lid);
    return;
  }

  // 7. Scatter: stage the keys in digit order, then write runs out.
#pragma unroll
  for (unsigned j = 0; j < E; j++) {
    if (PAD || base + j * gsize + lane < n) S.stage[cl<Robust>(ranks[j], TILE)] = keys[j];
  }
  __syncthreads();
  unsigned targets[E];
#pragma unroll
  for (unsigned j = 0; j < E; j++) {
    targets[j] = 0;
    const unsigned pp = j * WG + lid;
    if (pp < valid) {
      const unsigned k = S.stage[cl<Robust>(pp, TILE)];
      targets[j] = S.wg_digit[cl<Robust>(digit_of(p, k), RADIX)] + pp;
      if constexpr (StopAfter == STOP_STAGE) targets[j] ^= k;
      else p.keys_out[cl<Robust>(targets[j], p.keys_len)] = k;
    }
  }
  if constexpr (StopAfter == STOP_STAGE) {
    sink_keys(p, targets, 0u, tile_start, lid);
    return;
  }
  if constexpr (Values) {
    // Values go the same way: staged at the keys' ranks, written to the keys' targets.
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < E; j++) {
      const unsigned e = base + j * gsize + lane;
      if (e < n) S.stage[cl<Robust>(ranks[j], TILE)] = p.values_in[cl<Robust>(e, p.keys_len)];
    }
    __syncthreads();
#pragma unroll
    for (unsigned j = 0; j < E; j++) {
      const unsigned pp = j * WG + lid;
      if (pp < valid) p.values_out[cl<Robust>(targets[j], p.keys_len)] = S.stage[cl<Robust>(pp, TILE)];
    }
  }
}

// ---- Host ----------------------------------------------------------------------------------------
using PassFn = void (*)(PassParams);
using HistFn = void (*)(HistParams);
using ScanFn = void (*)(unsigned*, unsigned);

template <bool Robust>
static PassFn pass_keys(int stop) {
  switch (stop) {
    case 1: return onesweep_pass<false, Robust, 1>;
    case 2: return onesweep_pass<false, Robust, 2>;
    case 3: return onesweep_pass<false, Robust, 3>;
    case 4: return onesweep_pass<false, Robust, 4>;
    case 5: return onesweep_pass<false, Robust, 5>;
    case 6: return onesweep_pass<false, Robust, 6>;
    default: return onesweep_pass<false, Robust, 7>;
  }
}
static PassFn pass_fn(bool values, bool robust, int stop) {
  if (values && stop == STOP_FULL) return robust ? onesweep_pass<true, true, 7> : onesweep_pass<true, false, 7>;
  return robust ? pass_keys<true>(stop) : pass_keys<false>(stop);  // stages before 7 never touch values
}

static unsigned tiles_of(unsigned n) { return (n + TILE - 1) / TILE; }
static size_t pass_words(unsigned n) { return STATUS_BASE + size_t(tiles_of(n)) * RADIX; }  // sortStatusBytes / 4

struct Sorter {
  unsigned n = 0;
  bool values = false;
  bool robust = false;
  unsigned *keys = nullptr, *alt = nullptr, *vals = nullptr, *alt_vals = nullptr;
  unsigned* scratch = nullptr;  // digits range, then PASSES look-back areas (one clear per sort)
  size_t scratch_words = 0;

  void alloc(unsigned n_, bool values_) {
    n = n_;
    values = values_;
    CUDA_CHECK(cudaMalloc(&keys, size_t(n) * 4));
    CUDA_CHECK(cudaMalloc(&alt, size_t(n) * 4));
    if (values) {
      CUDA_CHECK(cudaMalloc(&vals, size_t(n) * 4));
      CUDA_CHECK(cudaMalloc(&alt_vals, size_t(n) * 4));
    }
    scratch_words = DIGITS_WORDS + PASSES * pass_words(n);
    CUDA_CHECK(cudaMalloc(&scratch, scratch_words * 4));
  }
  void release() {
    cudaFree(keys); cudaFree(alt); cudaFree(vals); cudaFree(alt_vals); cudaFree(scratch);
    keys = alt = vals = alt_vals = scratch = nullptr;
  }
  unsigned hist_workgroups() const { return std::min((n + HIST_CHUNK - 1) / HIST_CHUNK, MAX_HISTOGRAM_WORKGROUPS); }
  PassParams pass_params(unsigned pass) const {
    const bool from_caller = pass % 2 == 0;
    PassParams p{};
    p.keys_in = from_caller ? keys : alt;
    p.keys_out = from_caller ? alt : keys;
    p.values_in = from_caller ? vals : alt_vals;
    p.values_out = from_caller ? alt_vals : vals;
    p.status = scratch + DIGITS_WORDS;
    p.digits = scratch;
    p.count = n;
    p.shift = 8 * pass;
    p.mask = 255;
    p.digit_starts = DIGIT_STARTS_WORD + pass * RADIX;
    p.status_base = unsigned(pass * pass_words(n));
    p.keys_len = n;
    p.status_len = unsigned(PASSES * pass_words(n));
    p.digits_len = DIGITS_WORDS;
    p.sentinel = 0x9e3779b9u;
    return p;
  }
  void clear(cudaStream_t s) const { CUDA_CHECK(cudaMemsetAsync(scratch, 0, scratch_words * 4, s)); }
  void histogram(cudaStream_t s) const {
    HistParams h{keys, scratch, n, hist_workgroups(), hist_workgroups(), n};
    HistFn f = robust ? radix_histogram<true> : radix_histogram<false>;
    f<<<hist_workgroups(), HIST_WG, 0, s>>>(h);
    CUDA_CHECK(cudaGetLastError());
  }
  void scan(cudaStream_t s) const {
    ScanFn f = robust ? digit_scan<true> : digit_scan<false>;
    f<<<1, RADIX, 0, s>>>(scratch, PASSES);
    CUDA_CHECK(cudaGetLastError());
  }
  void pass(unsigned i, cudaStream_t s, int stop = STOP_FULL) const {
    pass_fn(values, robust, stop)<<<tiles_of(n), WG, 0, s>>>(pass_params(i));
    CUDA_CHECK(cudaGetLastError());
  }
  // The plan's dispatch order: one clear, histogram, digit scan, 4 passes (keys → alt → keys …).
  // ev (optional): 8 events recorded before the clear and after each step.
  void sort(cudaStream_t s, cudaEvent_t* ev = nullptr) const {
    if (ev) CUDA_CHECK(cudaEventRecord(ev[0], s));
    clear(s);
    if (ev) CUDA_CHECK(cudaEventRecord(ev[1], s));
    histogram(s);
    if (ev) CUDA_CHECK(cudaEventRecord(ev[2], s));
    scan(s);
    if (ev) CUDA_CHECK(cudaEventRecord(ev[3], s));
    for (unsigned i = 0; i < PASSES; i++) {
      pass(i, s);
      if (ev) CUDA_CHECK(cudaEventRecord(ev[4 + i], s));
    }
  }
};

// CPU reference: a stable LSD radix sort of (key, original index).
static void cpu_sort(const std::vector<unsigned>& in, std::vector<unsigned>& keys, std::vector<unsigned>& idx) {
  const size_t n = in.size();
  keys = in;
  idx.resize(n);
  for (size_t i = 0; i < n; i++) idx[i] = unsigned(i);
  std::vector<unsigned> k2(n), i2(n);
  for (unsigned shift = 0; shift < 32; shift += 8) {
    size_t count[257] = {0};
    for (size_t i = 0; i < n; i++) count[((keys[i] >> shift) & 255) + 1]++;
    for (int d = 0; d < 256; d++) count[d + 1] += count[d];
    for (size_t i = 0; i < n; i++) {
      const size_t at = count[(keys[i] >> shift) & 255]++;
      k2[at] = keys[i];
      i2[at] = idx[i];
    }
    keys.swap(k2);
    idx.swap(i2);
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Options {
  std::vector<unsigned> sizes;
  bool values = false;
  bool check = false;
  bool ablate = false;
  bool no_sort = false;  // with --ablate: skip the full-sort timing
  int reps = 20;
  int warmup = 5;
  std::vector<std::string> variants{"faithful"};
  std::vector<int> stops{1, 2, 3, 4, 5, 6, 7};
  uint64_t seed = 1;
};

static std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= s.size()) {
    const size_t comma = s.find(',', at);
    const std::string item = s.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

static void usage() {
  std::puts(
      "onesweep [--log2n 16,20,24,28] [--n 65539,1000003] [--values] [--check] [--reps 20] [--warmup 5]\n"
      "         [--variant faithful|robust|both] [--ablate] [--stops 1,..,7] [--no-sort] [--seed 1]\n"
      "  --log2n/--n  sizes (lists); --values key-value sort (values = original indices)\n"
      "  --check      compare with a CPU stable radix sort (keys, and values: stability)\n"
      "  --ablate     also time one digit pass (pass 0) stopped after each phase (--stops: which;\n"
      "               1 load, 2 early counts, 3 rank, 4 tile offsets, 5 look-back, 6 stage, 7 full)\n"
      "  --no-sort    skip the full sorts (with --ablate: only the pass variants run)\n"
      "  --reps/--warmup  timed repetitions / untimed warm-up sorts (back to back)\n"
      "Prints a table and JSON lines (lines starting with '{').");
}

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) { usage(); std::exit(2); }
      return argv[++i];
    };
    if (a == "--log2n") { for (auto& s : split(next())) o.sizes.push_back(1u << std::stoi(s)); }
    else if (a == "--n") { for (auto& s : split(next())) o.sizes.push_back(unsigned(std::stoul(s))); }
    else if (a == "--values") o.values = true;
    else if (a == "--check") o.check = true;
    else if (a == "--ablate") o.ablate = true;
    else if (a == "--no-sort") o.no_sort = true;
    else if (a == "--stops") {
      o.stops.clear();
      for (auto& v : split(next())) o.stops.push_back(std::min(7, std::max(1, std::stoi(v))));
    }
    else if (a == "--reps") o.reps = std::max(1, std::stoi(next()));
    else if (a == "--warmup") o.warmup = std::max(0, std::stoi(next()));
    else if (a == "--seed") o.seed = std::stoull(next());
    else if (a == "--variant") {
      const std::string v = next();
      if (v == "both") o.variants = {"faithful", "robust"};
      else if (v == "faithful" || v == "robust") o.variants = {v};
      else { usage(); return 2; }
    } else { usage(); return a == "--help" || a == "-h" ? 0 : 2; }
  }
  if (o.sizes.empty()) o.sizes = {1u << 16, 1u << 20, 1u << 24, 1u << 28};

  cudaDeviceProp prop{};
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  std::printf("# device: %s, %d SMs; tile %u keys, workgroups of %u\n", prop.name, prop.multiProcessorCount, TILE, WG);
  std::printf("# config: %s\n", ONESWEEP_CONFIG);
  {
    cudaFuncAttributes fa{};
    CUDA_CHECK(cudaFuncGetAttributes(&fa, pass_fn(o.values, false, STOP_FULL)));
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, pass_fn(o.values, false, STOP_FULL), WG, 0));
    std::printf("# onesweep_pass (faithful%s): %d registers, %zu B static shared, %d workgroups/SM\n",
                o.values ? ", values" : "", fa.numRegs, fa.sharedSizeBytes, blocks);
    CUDA_CHECK(cudaFuncGetAttributes(&fa, pass_fn(o.values, true, STOP_FULL)));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, pass_fn(o.values, true, STOP_FULL), WG, 0));
    std::printf("# onesweep_pass (robust%s):   %d registers, %zu B static shared, %d workgroups/SM\n",
                o.values ? ", values" : "", fa.numRegs, fa.sharedSizeBytes, blocks);
  }

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  int failures = 0;
  std::printf("%-9s %-6s %11s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s\n", "variant", "values", "n", "sort_ms",
              "Gkeys/s", "clear", "hist", "scan", "pass0", "pass1", "pass2", "pass3", "check");

  for (const unsigned n : o.sizes) {
    std::mt19937_64 rng(o.seed ^ (uint64_t(n) * 0x9e3779b97f4a7c15ull));
    std::vector<unsigned> input(n);
    for (auto& k : input) k = unsigned(rng());
    std::vector<unsigned> iota(n);
    for (unsigned i = 0; i < n; i++) iota[i] = i;
    std::vector<unsigned> ref_keys, ref_idx;
    if (o.check) cpu_sort(input, ref_keys, ref_idx);

    unsigned *pristine = nullptr, *pristine_vals = nullptr;
    CUDA_CHECK(cudaMalloc(&pristine, size_t(n) * 4));
    CUDA_CHECK(cudaMemcpy(pristine, input.data(), size_t(n) * 4, cudaMemcpyHostToDevice));
    if (o.values) {
      CUDA_CHECK(cudaMalloc(&pristine_vals, size_t(n) * 4));
      CUDA_CHECK(cudaMemcpy(pristine_vals, iota.data(), size_t(n) * 4, cudaMemcpyHostToDevice));
    }

    for (const std::string& variant : o.variants) {
      Sorter st;
      st.robust = variant == "robust";
      st.alloc(n, o.values);
      auto restore = [&]() {
        CUDA_CHECK(cudaMemcpyAsync(st.keys, pristine, size_t(n) * 4, cudaMemcpyDeviceToDevice, s));
        if (o.values) CUDA_CHECK(cudaMemcpyAsync(st.vals, pristine_vals, size_t(n) * 4, cudaMemcpyDeviceToDevice, s));
      };

      std::string check = "-";
      if (!o.no_sort || o.check) {
        // Correctness: one sort from the input.
        restore();
        st.sort(s);
        CUDA_CHECK(cudaStreamSynchronize(s));
        if (o.check) {
          std::vector<unsigned> out(n), outv;
          CUDA_CHECK(cudaMemcpy(out.data(), st.keys, size_t(n) * 4, cudaMemcpyDeviceToHost));
          bool ok = out == ref_keys;
          if (o.values) {
            outv.resize(n);
            CUDA_CHECK(cudaMemcpy(outv.data(), st.vals, size_t(n) * 4, cudaMemcpyDeviceToHost));
            ok = ok && outv == ref_idx;
          }
          if (!ok) {
            size_t bad = 0;
            while (bad < n && out[bad] == ref_keys[bad] && (!o.values || outv[bad] == ref_idx[bad])) bad++;
            std::fprintf(stderr, "MISMATCH %s n=%u at %zu: key %08x (want %08x)", variant.c_str(), n, bad,
                         bad < n ? out[bad] : 0u, bad < n ? ref_keys[bad] : 0u);
            if (o.values && bad < n) std::fprintf(stderr, " value %u (want %u)", outv[bad], ref_idx[bad]);
            std::fprintf(stderr, "\n");
            failures++;
          }
          check = ok ? "ok" : "FAIL";
        }
      }

      if (!o.no_sort) {
        // Timing: warm-up, then back-to-back sorts (the input restored before each, untimed).
        for (int w = 0; w < o.warmup; w++) { restore(); st.sort(s); }
        std::vector<cudaEvent_t> ev(size_t(o.reps) * 8);
        for (auto& e : ev) CUDA_CHECK(cudaEventCreate(&e));
        for (int r = 0; r < o.reps; r++) { restore(); st.sort(s, &ev[size_t(r) * 8]); }
        CUDA_CHECK(cudaStreamSynchronize(s));
        std::vector<double> total, step[7];
        for (int r = 0; r < o.reps; r++) {
          cudaEvent_t* e = &ev[size_t(r) * 8];
          float ms = 0;
          CUDA_CHECK(cudaEventElapsedTime(&ms, e[0], e[7]));
          total.push_back(ms);
          for (int k = 0; k < 7; k++) {
            CUDA_CHECK(cudaEventElapsedTime(&ms, e[k], e[k + 1]));
            step[k].push_back(ms);
          }
        }
        for (auto& e : ev) CUDA_CHECK(cudaEventDestroy(e));
        const double ms = median(total);
        double sm[7];
        for (int k = 0; k < 7; k++) sm[k] = median(step[k]);
        std::printf("%-9s %-6s %11u %9.4f %9.3f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %9.4f %6s\n", variant.c_str(),
                    o.values ? "yes" : "no", n, ms, n / ms / 1e6, sm[0], sm[1], sm[2], sm[3], sm[4], sm[5], sm[6],
                    check.c_str());
        std::printf(
            "{\"impl\":\"port\",\"variant\":\"%s\",\"values\":%s,\"n\":%u,\"reps\":%d,\"ms\":%.5f,\"min_ms\":%.5f,"
            "\"gkeys_per_s\":%.4f,\"check\":\"%s\",\"kernels_ms\":{\"clear\":%.5f,\"histogram\":%.5f,"
            "\"digit_scan\":%.5f,\"pass0\":%.5f,\"pass1\":%.5f,\"pass2\":%.5f,\"pass3\":%.5f}}\n",
            variant.c_str(), o.values ? "true" : "false", n, o.reps, ms, *std::min_element(total.begin(), total.end()),
            n / ms / 1e6, check.c_str(), sm[0], sm[1], sm[2], sm[3], sm[4], sm[5], sm[6]);
      } else if (o.check) {
        std::printf("%-9s %-6s %11u %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s\n", variant.c_str(), o.values ? "yes" : "no",
                    n, "-", "-", "-", "-", "-", "-", "-", "-", "-", check.c_str());
        std::printf("{\"impl\":\"port\",\"variant\":\"%s\",\"values\":%s,\"n\":%u,\"check\":\"%s\"}\n", variant.c_str(),
                    o.values ? "true" : "false", n, check.c_str());
      }

      if (o.ablate) {
        // One digit pass (pass 0: keys → alt) stopped after each phase; the digit starts come from
        // a histogram + scan run once, the pass's statuses are cleared (untimed) before each run.
        restore();
        st.clear(s);
        st.histogram(s);
        st.scan(s);
        const size_t area = pass_words(n) * 4;
        unsigned* status0 = st.scratch + DIGITS_WORDS;  // pass 0's area
        cudaEvent_t a, b;
        CUDA_CHECK(cudaEventCreate(&a));
        CUDA_CHECK(cudaEventCreate(&b));
        for (const int stop : o.stops) {
          std::vector<double> t;
          for (int r = 0; r < o.warmup + o.reps; r++) {
            CUDA_CHECK(cudaMemsetAsync(status0, 0, area, s));
            CUDA_CHECK(cudaEventRecord(a, s));
            st.pass(0, s, stop);
            CUDA_CHECK(cudaEventRecord(b, s));
            CUDA_CHECK(cudaEventSynchronize(b));
            float ms = 0;
            CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
            if (r >= o.warmup) t.push_back(ms);
          }
          const double ms = median(t);
          std::printf("#   ablation %-9s %-6s n=%u stop_after=%d %-13s %9.4f ms  %8.3f Gkeys/s\n", variant.c_str(),
                      o.values ? "values" : "keys", n, stop, phase_name(stop), ms, n / ms / 1e6);
          std::printf(
              "{\"impl\":\"port-pass\",\"variant\":\"%s\",\"values\":%s,\"n\":%u,\"stop_after\":%d,\"phase\":\"%s\","
              "\"reps\":%d,\"ms\":%.5f,\"gkeys_per_s\":%.4f}\n",
              variant.c_str(), o.values && stop == STOP_FULL ? "true" : "false", n, stop, phase_name(stop), o.reps, ms,
              n / ms / 1e6);
        }
        CUDA_CHECK(cudaEventDestroy(a));
        CUDA_CHECK(cudaEventDestroy(b));
      }
      CUDA_CHECK(cudaStreamSynchronize(s));
      st.release();
    }
    cudaFree(pristine);
    cudaFree(pristine_vals);
  }
  CUDA_CHECK(cudaStreamDestroy(s));
  if (failures) std::fprintf(stderr, "%d check(s) FAILED\n", failures);
  return failures ? 1 : 0;
}
