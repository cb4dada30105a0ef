"""CUDA library baselines for the bench, written as a bench report (schema scan-bench/1).

Runs where PyTorch and CuPy exist (the lent GPU has both), in the same device call as the bench, so
that every ratio compares two numbers from one machine state. Each line of the report is a baseline
of one bench primitive at one size, timed with CUDA events (median of --runs after --warmup), with
the bench's bytes model (apps/bench/src/metrics.ts) for GB/s, a copy of the same size in the same
process for ×copy, and a check of the result (a wrong baseline is worse than none: it becomes a
"failed" line, never a time).

  primitive          library call                                   data
  copy               y.copy_(x)                                     int32 (the ×copy reference)
  scan               torch.cumsum(x, dtype=int32)   (CUB scan)      int32, wraps like u32
  reduce             torch.sum(x)                   (CUB reduce)    f32 integers in [0, 1024)
  sort               cupy.sort (CUB radix, keys only), torch.sort   u32 / int32 keys
                     with --sort-keys u64: cupy.sort on uint64 (series type u64), torch.sort on
                     int64 (i64); u16: cupy.sort on uint16 (u16), torch.sort on int16 (i16)
  sort-pairs         torch.sort(stable=True) with its int64 indices int32 keys
                     with --value-widths 16: torch.sort(stable=True) of int32 keys, then
                     index_select of an (n, 4) int32 tensor (16-byte rows) by the returned
                     indices; both timed, as one case (valueWidth 16)
  segmented-reduce   torch.segment_reduce(x, 'sum', lengths)        f32 small integers, random
                                                                    lengths of mean 16, 256, 4096
  pack               torch.masked_select (CUB select, bool mask)    int32, density 0.5
  spmv, spmv-t       cuSPARSE A @ x, A.T @ x (cupyx.scipy.sparse)   the bench's SpMV suite
  sparse-add         cuSPARSE csrgeam A + 2A, A + B (B = A perturbed, the same suite
                     σ = 10), Aᵀ + Bᵀ (csr2csc timed / untimed)
  tridiag            cuSPARSE gtsv2StridedBatch (cupyx.cusparse)    diagonally dominant, n × batch

Usage on the lent GPU:
  python3 apps/bench/baselines/cuda.py [--sizes 20,24,28] [--only scan,sort,...] [--matrices ...]
                                       [--commit SHA] [--out FILE]
Writes the report to --out (default: stdout) and a one-line summary per case to stderr.
"""
import argparse
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys

# This file is named cuda.py, and Python puts its folder first on the path: CuPy's own
# `import cuda.pathfinder` (the cuda-python package) would then find this file instead.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

try:
    import torch  # noqa: E402
    TORCH_MISSING = None
except ImportError as error:  # --help still works; measuring says why it cannot
    torch = None
    TORCH_MISSING = f"PyTorch did not import: {error}"

try:
    import cupy as cp  # noqa: E402
    import cupyx.scipy.sparse as cpx  # noqa: E402
    CUPY_MISSING = None
except ImportError as error:  # the baselines that need CuPy become "skipped" lines saying why
    cp = None
    cpx = None
    CUPY_MISSING = f"CuPy did not import: {error}"

SCHEMA = "scan-bench/1"
WORD = 4
RADIX_PASSES = 4  # the bench's sort model: 8-bit digits of 32-bit keys
PRIMITIVES = ["copy", "scan", "reduce", "sort", "sort-pairs", "segmented-reduce", "pack", "spmv", "spmv-t", "sparse-add", "tridiag"]
SEGMENT_MEANS = [16, 256, 4096]
TRIDIAG_SHAPES = [(1024, 4096), (2048, 2048)]  # (unknowns per system, systems)


def head_bit_bytes(n):
    return 4 * ((n + 31) // 32)


def sort_bytes(n, key_bytes, value_bytes=0):
    """The bench's one-sweep model at any key width (8-bit digits, so key_bytes passes): read the keys
    once for the histograms, then each pass reads and writes the keys and the values. For 4-byte keys
    it is bytes_moved("sort") (no values) and bytes_moved("sort-pairs") (4-byte values)."""
    return n * key_bytes + key_bytes * 2 * (n * key_bytes + n * value_bytes)


def bytes_moved(primitive, n, extra=0):
    """The bench's bytes model (apps/bench/src/metrics.ts), so GB/s and ×copy compare like for like."""
    return {
        "copy": 2 * n * WORD,
        "scan": 2 * n * WORD,
        "reduce": n * WORD,
        "sort": n * WORD + RADIX_PASSES * 2 * n * WORD,
        "sort-pairs": n * WORD + RADIX_PASSES * 2 * (2 * n * WORD),
        "segmented-reduce": n * WORD + head_bit_bytes(n) + extra * WORD,
        "pack": n * WORD + n * WORD + extra * WORD,
        "spmv": 8 * n + extra * WORD,
        "spmv-t": 8 * n + extra * WORD,
        "sparse-add": 3 * 8 * n,  # read A and B (values and indices), write C (~ the same nnz each)
        "tridiag": 5 * n * WORD,
    }[primitive]


def timed(fn, runs, warmup, setup=None):
    """Milliseconds of `fn` per run (CUDA events); `setup` runs untimed before each run."""
    for _ in range(warmup):
        if setup:
            setup()
        fn()
    samples = []
    for _ in range(runs):
        if setup:
            setup()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end))
    return samples


def measurement(samples, moved, n):
    ordered = sorted(samples)
    mid = len(ordered) // 2
    median = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
    return {
        "runs": len(samples),
        "medianMs": median,
        "minMs": ordered[0],
        "maxMs": ordered[-1],
        "meanMs": sum(samples) / len(samples),
        "samplesMs": samples,
        "bytes": moved,
        "gbps": moved / median / 1e6 if median > 0 else None,
        "gelemsPerS": n / median / 1e6 if median > 0 else None,
    }


class Report:
    def __init__(self, args):
        self.args = args
        self.results = []
        self.copies = {}

    def case(self, primitive, n, library, type_, **fields):
        series = "/".join([primitive, library, type_] + [f"{k}={v}" for k, v in sorted(fields.items())])
        return {"id": f"{series}@{n}", "series": series, "primitive": primitive, "n": n, "type": type_, "baseline": library, **fields}

    def copy_of(self, n):
        """The copy baseline at n, measured once per size (int32, like the bench's u32 copy)."""
        if n not in self.copies:
            x = torch.randint(0, 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
            y = torch.empty_like(x)
            samples = timed(lambda: y.copy_(x), self.args.runs, self.args.warmup)
            self.copies[n] = measurement(samples, bytes_moved("copy", n), n)
            self.add(self.case("copy", n, "torch.copy_", "u32"), self.copies[n], 0, with_copy=False)
            del x, y
        return self.copies[n]

    def add(self, case, m, mismatches, extra=None, with_copy=True, copy_n=None):
        row = {"case": case, "status": "ok" if mismatches == 0 else "failed", "timer": "cuda-events"}
        if mismatches != 0:
            row["message"] = f"{mismatches} elements differ from the reference; not timed as a baseline"
        else:
            row["measurement"] = m
            if with_copy:
                copy = self.copy_of(copy_n or case["n"])
                row["copy"] = copy
                if m["gbps"] and copy["gbps"]:
                    row["ratioCopy"] = m["gbps"] / copy["gbps"]
        row["verification"] = {"gpuMismatches": mismatches, "cpuCompared": False}
        if extra:
            row.update(extra)
        self.results.append(row)
        ratio = f"  {row['ratioCopy']:.2f}x copy" if "ratioCopy" in row else ""
        ms = f"{m['medianMs']:.3f} ms" if mismatches == 0 else "FAILED"
        print(f"{case['id']:<60} {ms}{ratio}", file=sys.stderr, flush=True)

    def skip(self, case, why):
        self.results.append({"case": case, "status": "skipped", "message": why})
        print(f"{case['id']:<60} skipped: {why}", file=sys.stderr, flush=True)


def run_scan(report, n):
    x = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
    y = torch.empty_like(x)
    m = measurement(timed(lambda: torch.cumsum(x, 0, dtype=torch.int32, out=y), report.args.runs, report.args.warmup), bytes_moved("scan", n), n)
    want = torch.cumsum(x.to(torch.int64), 0).remainder(2**32)
    got = y.to(torch.int64).remainder(2**32)
    report.add(report.case("scan", n, "torch.cumsum", "u32", inclusive=True), m, int((got != want).sum()))


def run_reduce(report, n):
    x = torch.randint(0, 1024, (n,), device="cuda").to(torch.float32)
    holder = {}
    m = measurement(timed(lambda: holder.__setitem__("r", torch.sum(x)), report.args.runs, report.args.warmup), bytes_moved("reduce", n), n)
    want = x.double().sum().item()  # exact: integers below 2^53
    wrong = int(abs(holder["r"].item() - want) > 1e-5 * want)
    report.add(report.case("reduce", n, "torch.sum", "f32"), m, wrong)


def descents(keys):
    return int((keys[1:] < keys[:-1]).sum()) if keys.numel() > 1 else 0


def run_sort(report, n):
    bits = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
    total = int(bits.to(torch.int64).sum())
    holder = {}
    m = measurement(timed(lambda: holder.__setitem__("r", torch.sort(bits)), report.args.runs, report.args.warmup), bytes_moved("sort", n), n)
    keys = holder["r"].values
    report.add(report.case("sort", n, "torch.sort", "i32"), m, descents(keys) + int(int(keys.to(torch.int64).sum()) != total))
    m = measurement(timed(lambda: holder.__setitem__("r", torch.sort(bits, stable=True)), report.args.runs, report.args.warmup), bytes_moved("sort-pairs", n), n)
    keys, idx = holder["r"].values, holder["r"].indices
    wrong = descents(keys) + int((bits[idx] != keys).sum())
    report.add(report.case("sort-pairs", n, "torch.sort(stable)", "i32", valueType="i64"), m, wrong)
    if cp is None:
        report.skip(report.case("sort", n, "cupy.sort", "u32"), CUPY_MISSING)
        return
    u = cp.asarray(bits).view(cp.uint32)
    m = measurement(timed(lambda: holder.__setitem__("c", cp.sort(u)), report.args.runs, report.args.warmup), bytes_moved("sort", n), n)
    keys = torch.as_tensor(holder["c"].view(cp.int32), device="cuda").to(torch.int64).remainder(2**32)
    report.add(report.case("sort", n, "cupy.sort", "u32"), m, descents(keys) + int(int(keys.sum()) != int(u.astype(cp.uint64).sum())))


SORT_KEY_TYPES = ["u32", "u64", "u16"]
SORT_VALUE_WIDTHS = [4, 16]


def run_sort_wide(report, n, key_type):
    """cupy.sort (CUB radix, keys only) on uint64 / uint16 and torch.sort on int64 / int16 keys, every bit random."""
    key_bytes = {"u64": 8, "u16": 2}[key_type]
    signed = {"u64": torch.int64, "u16": torch.int16}[key_type]
    info = torch.iinfo(signed)
    bits = torch.randint(info.min, info.max, (n,), dtype=signed, device="cuda")
    # The same multiset, exactly: integer sums of the low and high 32-bit halves (int16: of the keys) in int64.
    def sums(a):
        a = a.to(torch.int64)
        return (int((a & 0xFFFFFFFF).sum()), int((a >> 32).sum()))

    total = sums(bits)
    holder = {}
    moved = sort_bytes(n, key_bytes)
    m = measurement(timed(lambda: holder.__setitem__("r", torch.sort(bits)), report.args.runs, report.args.warmup), moved, n)
    keys = holder["r"].values
    i_type = "i" + key_type[1:]
    report.add(report.case("sort", n, "torch.sort", i_type), m, descents(keys) + int(sums(keys) != total))
    if cp is None:
        report.skip(report.case("sort", n, "cupy.sort", key_type), CUPY_MISSING)
        return
    u = cp.asarray(bits).view({"u64": cp.uint64, "u16": cp.uint16}[key_type])
    m = measurement(timed(lambda: holder.__setitem__("c", cp.sort(u)), report.args.runs, report.args.warmup), moved, n)
    out = holder["c"]
    wrong = int((out[1:] < out[:-1]).sum()) if n > 1 else 0
    # The same multiset: sums of the low and high 32-bit halves (u64) or of the keys (u16), exact in uint64 arithmetic.
    if key_type == "u64":
        halves = lambda a: (int((a & cp.uint64(0xFFFFFFFF)).sum()), int((a >> cp.uint64(32)).sum()))  # noqa: E731
        wrong += int(halves(out) != halves(u))
    else:
        wrong += int(int(out.astype(cp.uint64).sum()) != int(u.astype(cp.uint64).sum()))
    report.add(report.case("sort", n, "cupy.sort", key_type), m, wrong)


def run_sort_pairs_wide(report, n, value_width):
    """u32-range int32 keys with value_width-byte values: torch.sort(stable=True) of the keys, then
    index_select of the (n, value_width / 4) int32 values by the indices, timed together. Each value
    row holds its input position and a function of it, so the check sees where every row came from."""
    words = value_width // 4
    bits = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
    pos = torch.arange(n, dtype=torch.int32, device="cuda")
    values = torch.stack([pos] + [pos ^ (0x5BD1E995 * (j + 1) & 0x7FFFFFFF) for j in range(words - 1)], dim=1).contiguous()
    holder = {}

    def run():
        r = torch.sort(bits, stable=True)
        holder["k"] = r.values
        holder["v"] = values.index_select(0, r.indices)

    m = measurement(timed(run, report.args.runs, report.args.warmup), sort_bytes(n, 4, value_width), n)
    keys, got = holder["k"], holder["v"]
    src = got[:, 0].to(torch.int64)
    wrong = descents(keys) + int((bits[src] != keys).sum()) + int((values[src] != got).any(dim=1).sum())
    # Stable: equal keys keep their input order.
    same = keys[1:] == keys[:-1]
    wrong += int((same & (src[1:] < src[:-1])).sum())
    report.add(report.case("sort-pairs", n, "torch.sort(stable)+index_select", "i32", valueType=f"i32x{words}", valueWidth=value_width), m, wrong)


def run_segmented_reduce(report, n, mean):
    # Random segment lengths: each element starts a segment with probability 1/mean.
    heads = torch.rand(n, device="cuda") < 1.0 / mean
    heads[0] = True
    starts = torch.nonzero(heads).flatten()
    lengths = torch.diff(torch.cat([starts, torch.tensor([n], device="cuda")]))
    x = torch.randint(-8, 8, (n,), device="cuda").to(torch.float32)  # sums stay exact
    holder = {}
    m = measurement(
        timed(lambda: holder.__setitem__("r", torch.segment_reduce(x, "sum", lengths=lengths)), report.args.runs, report.args.warmup),
        bytes_moved("segmented-reduce", n, lengths.numel()),
        n,
    )
    ids = torch.repeat_interleave(torch.arange(lengths.numel(), device="cuda"), lengths)
    want = torch.zeros(lengths.numel(), device="cuda").index_add_(0, ids, x)
    report.add(report.case("segmented-reduce", n, "torch.segment_reduce", "f32", segmentMean=mean), m, int((holder["r"] != want).sum()), {"segments": lengths.numel()})


def run_pack(report, n):
    x = torch.randint(0, 2**31 - 1, (n,), dtype=torch.int32, device="cuda")
    mask = torch.rand(n, device="cuda") < 0.5
    holder = {}
    kept = int(mask.sum())
    m = measurement(timed(lambda: holder.__setitem__("r", torch.masked_select(x, mask)), report.args.runs, report.args.warmup), n * WORD + n + kept * WORD, n)
    got = holder["r"]
    wrong = abs(got.numel() - kept) + (int((got != x[mask]).sum()) if got.numel() == kept else 0)
    report.add(report.case("pack", n, "torch.masked_select", "u32", density=0.5, flagType="bool"), m, wrong, {"ones": kept})


def load_spmv_suite():
    """The bench's matrix suite as apps/bench/cuda/spmv.py builds it with CuPy."""
    path = os.path.join(_HERE, "..", "cuda", "spmv.py")
    spec = importlib.util.spec_from_file_location("bench_cuda_spmv", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_sparse(report, suite, name):
    a = suite.build(name)
    nnz = int(a.nnz)
    rows, cols = a.shape
    x = cp.random.uniform(-1, 1, cols, dtype=cp.float32)
    xt = cp.random.uniform(-1, 1, rows, dtype=cp.float32)
    at = a.T  # the transposed view, made untimed as in apps/bench/cuda/spmv.py
    a64 = a.astype(cp.float64)
    holder = {}
    magnitude = abs(a64)
    for primitive, product, op64, vec, length_in, length_out in (
        ("spmv", lambda: a @ x, a64, x, cols, rows),
        ("spmv-t", lambda: at @ xt, a64.T, xt, rows, cols),
    ):
        samples = timed(lambda: holder.__setitem__("y", product()), report.args.runs, report.args.warmup)
        m = measurement(samples, bytes_moved(primitive, nnz, length_in + length_out), nnz)
        ref = lambda: op64 @ vec.astype(cp.float64)  # noqa: E731
        # The f32 error of a row's sum is bounded by its terms' magnitudes (op(|A|)·|x|).
        bound = 1e-4 * ((magnitude if primitive == "spmv" else magnitude.T) @ abs(vec.astype(cp.float64)) + 1e-30)
        wrong = int((abs(holder["y"].astype(cp.float64) - ref()) > bound).sum())
        info = {"matrix": {"name": name, "rows": rows, "cols": cols, "nnz": nnz, "k": 1, "algorithm": "cusparse"}}
        info["gflops"] = 2 * nnz / m["medianMs"] / 1e6
        report.add(report.case(primitive, nnz, "cusparse", "f32", matrix=name), m, wrong, info)
    run_sparse_add(report, suite, name, a, a64, holder)


def run_sparse_add(report, suite, name, a, a64, holder):
    """csrgeam on the CSR pairs of the bench's hisparse-add (field `add`): A + 2A; A + B with B the
    perturbed A (HiSparse's workload: the bench's own B for the host-made families, else the same
    definition drawn with CuPy, see cuda/spmv.py); Aᵀ + Bᵀ with the transposes (csr2csc of A and B)
    inside the timing (`transposition=timed`) and made before it (`transposition=untimed`). Each C
    is checked by C·x against the f64 sum of the operands' products."""
    rows, cols = a.shape
    nnz = int(a.nnz)
    b2 = a * 2
    b = suite.operand_b(name, a)
    b64 = b.astype(cp.float64)
    at, bt = a.T.tocsr(), b.T.tocsr()  # untimed, for transposition=untimed
    magnitude = abs(a64) + abs(b64)
    x = cp.random.uniform(-1, 1, cols, dtype=cp.float32)
    xt = cp.random.uniform(-1, 1, rows, dtype=cp.float32)
    variants = (
        ({"add": "a+2a"}, lambda: a + b2, b2, a64 * 3, abs(a64) * 3, x),
        ({"add": "a+b"}, lambda: a + b, b, a64 + b64, magnitude, x),
        ({"add": "at+bt", "transposition": "timed"}, lambda: a.T.tocsr() + b.T.tocsr(), b, (a64 + b64).T.tocsr(), magnitude.T.tocsr(), xt),
        ({"add": "at+bt", "transposition": "untimed"}, lambda: at + bt, b, (a64 + b64).T.tocsr(), magnitude.T.tocsr(), xt),
    )
    for fields, fn, operand, exact, size, vec in variants:
        samples = timed(lambda: holder.__setitem__("c", fn()), report.args.runs, report.args.warmup)
        c = holder.pop("c")
        c.sum_duplicates()
        nnz_b, nnz_c = int(operand.nnz), int(c.nnz)
        # A + 2A: the csrgeam model 3·8·nnz(A) as before; otherwise read A and B, write C.
        moved = bytes_moved("sparse-add", nnz) if fields["add"] == "a+2a" else 8 * (nnz + nnz_b + nnz_c)
        m = measurement(samples, moved, nnz)
        v64 = vec.astype(cp.float64)
        wrong = int((abs((c @ vec).astype(cp.float64) - exact @ v64) > 1e-4 * (size @ abs(v64)) + 1e-30).sum())
        info = {"matrix": {"name": name, "rows": rows, "cols": cols, "nnz": nnz, "k": 1, "algorithm": "csrgeam"}}
        report.add(report.case("sparse-add", nnz, "cusparse.csrgeam", "f32", matrix=name, **fields), m, wrong, info)
        del c
    del b2, b, b64, at, bt, magnitude


def run_tridiag(report, unknowns, systems):
    """cuSPARSE's batched solver through CuPy's low-level bindings (CuPy has no high-level wrapper)."""
    total = unknowns * systems
    case = report.case("tridiag", total, "cusparse.gtsv2StridedBatch", "f32", unknowns=unknowns)
    try:
        from cupy_backends.cuda.libs import cusparse as lib

        handle = cp.cuda.device.get_cusparse_handle()
        size_of_buffer = lib.sgtsv2StridedBatch_bufferSizeExt
        solve_batch = lib.sgtsv2StridedBatch
    except (ImportError, AttributeError) as error:
        report.skip(case, f"no cuSPARSE gtsv2StridedBatch binding in this CuPy: {error}")
        return
    dl = cp.random.uniform(-1, 1, total, dtype=cp.float32)
    du = cp.random.uniform(-1, 1, total, dtype=cp.float32)
    d = cp.random.uniform(3, 4, total, dtype=cp.float32)
    dl.reshape(systems, unknowns)[:, 0] = 0
    du.reshape(systems, unknowns)[:, -1] = 0
    rhs = cp.random.uniform(-1, 1, total, dtype=cp.float32)
    x = cp.empty_like(rhs)
    args = (handle, unknowns, dl.data.ptr, d.data.ptr, du.data.ptr, x.data.ptr, systems, unknowns)
    work = cp.empty(size_of_buffer(*args), dtype=cp.uint8)

    def solve():
        x[...] = rhs  # gtsv2 overwrites the right-hand side with the solution (the copy is timed too)
        solve_batch(*args, work.data.ptr)

    m = measurement(timed(solve, report.args.runs, report.args.warmup), bytes_moved("tridiag", total), total)
    xs = x.reshape(systems, unknowns).astype(cp.float64)
    r = d.reshape(systems, unknowns) * xs - rhs.reshape(systems, unknowns)
    r[:, 1:] += dl.reshape(systems, unknowns)[:, 1:] * xs[:, :-1]
    r[:, :-1] += du.reshape(systems, unknowns)[:, :-1] * xs[:, 1:]
    report.add(case, m, int((abs(r) > 1e-4).sum()))


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="20,24,28", help="log2 of the element counts (default 20,24,28)")
    parser.add_argument("--only", default=",".join(PRIMITIVES), help=f"comma-separated primitives of {PRIMITIVES}")
    parser.add_argument("--matrices", default="poisson2d-2048,biased-1M,biased-16M,powerlaw-4M,uniform-4M,banded-4M,stencil27-100,geometric-1M,rmat-2^20")
    parser.add_argument("--sort-keys", default="u32", help=f"sort key types of {SORT_KEY_TYPES} (default u32: cupy.sort u32, torch.sort i32)")
    parser.add_argument("--value-widths", default="4", help=f"sort-pairs value widths in bytes of {SORT_VALUE_WIDTHS} (default 4: torch.sort(stable) and its indices)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--commit", default=None)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    sizes = [2 ** int(s) for s in args.sizes.split(",")]
    only = set(args.only.split(","))
    unknown = only - set(PRIMITIVES)
    if unknown:
        parser.error(f"--only: unknown primitives {sorted(unknown)}")
    sort_keys = [k for k in args.sort_keys.split(",") if k]
    if set(sort_keys) - set(SORT_KEY_TYPES):
        parser.error(f"--sort-keys: unknown key types {sorted(set(sort_keys) - set(SORT_KEY_TYPES))} (expected {SORT_KEY_TYPES})")
    try:
        value_widths = [int(w) for w in args.value_widths.split(",") if w]
    except ValueError:
        parser.error(f"--value-widths: expected numbers of {SORT_VALUE_WIDTHS}, got {args.value_widths}")
    if set(value_widths) - set(SORT_VALUE_WIDTHS):
        parser.error(f"--value-widths: unsupported widths {sorted(set(value_widths) - set(SORT_VALUE_WIDTHS))} (expected {SORT_VALUE_WIDTHS})")
    if torch is None:
        print(f"cuda.py: {TORCH_MISSING}; the CUDA baselines need PyTorch with CUDA (the lent GPU machine has it). Nothing measured.", file=sys.stderr)
        sys.exit(2)
    torch.manual_seed(1)
    if cp is not None:
        cp.random.seed(1)
    report = Report(args)
    for n in sizes:
        if "copy" in only:
            report.copy_of(n)
        if "scan" in only:
            run_scan(report, n)
        if "reduce" in only:
            run_reduce(report, n)
        if ("sort" in only and "u32" in sort_keys) or ("sort-pairs" in only and 4 in value_widths):
            run_sort(report, n)
        if "sort" in only:
            for key_type in sort_keys:
                if key_type != "u32":
                    run_sort_wide(report, n, key_type)
                    torch.cuda.empty_cache()
        if "sort-pairs" in only:
            for width in value_widths:
                if width != 4:
                    run_sort_pairs_wide(report, n, width)
                    torch.cuda.empty_cache()
        if "segmented-reduce" in only:
            for mean in SEGMENT_MEANS:
                run_segmented_reduce(report, n, mean)
        if "pack" in only:
            run_pack(report, n)
        torch.cuda.empty_cache()
    if only & {"spmv", "spmv-t", "sparse-add"}:
        if cp is None:
            report.skip(report.case("spmv", 0, "cusparse", "f32"), CUPY_MISSING)
        else:
            suite = load_spmv_suite()
            for name in args.matrices.split(","):
                run_sparse(report, suite, name)
                cp.get_default_memory_pool().free_all_blocks()
    if "tridiag" in only:
        for unknowns, systems in TRIDIAG_SHAPES:
            if cp is None:
                report.skip(report.case("tridiag", unknowns * systems, "cusparse.gtsv2StridedBatch", "f32", unknowns=unknowns), CUPY_MISSING)
            else:
                run_tridiag(report, unknowns, systems)
    props = torch.cuda.get_device_properties(0)
    doc = {
        "schema": SCHEMA,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "commit": args.commit or git_commit(),
        "host": {"node": None, "python": platform.python_version(), "platform": sys.platform, "arch": platform.machine()},
        "options": {"sizes": sizes, "runs": args.runs, "warmup": args.warmup, "seed": 1, "density": 0.5, "timeoutS": 0,
                    "only": sorted(only), "sortKeys": sort_keys, "valueWidths": value_widths, "segmentMeans": SEGMENT_MEANS, "matrices": args.matrices.split(",")},
        "device": {
            "adapter": {"vendor": "nvidia", "architecture": f"sm_{props.major}{props.minor}", "description": props.name,
                        "device": f"CUDA {torch.version.cuda}, torch {torch.__version__}" + (f", CuPy {cp.__version__}" if cp is not None else "")},
            "features": {}, "limits": {},
        },
        "baseline": "cuda",
        "results": report.results,
    }
    text = json.dumps(doc, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    failed = [r for r in report.results if r["status"] == "failed"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
