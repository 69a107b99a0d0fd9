"""Thread scaling of a bid: the same analysis with 1, 2, 4, ... solver threads.

    .venv/bin/python benchmarks/bench_threads.py                       # fixed 300 deals
    .venv/bin/python benchmarks/bench_threads.py --threads 1 2 --default 962.42.A3.KJT962

A fixed ``--samples`` bid does the same searches whatever the thread count (results are
identical: checked here), so its time ratio is the parallel speed-up of the solver batches.
``--default HAND ...`` also times the default (adaptive) bid of each hand at the smallest and
the largest thread count: there the rounds' synchronisation points show. Each is timed with
the next round's jobs started ahead (``rounds.LOOK_AHEAD``, the default) and without, at the
largest count (the same numbers: checked), with the share of the workers' time spent in the
job kernel ("busy"; the rest they wait for work: a round's end, the scoring between rounds).
``--repeat K`` times every run K times, interleaved (two-thread times on a shared host vary
from run to run), and prints the medians. A changed number is reported as RESULTS DIFFER.
``--batch-only`` also times the fixed bid's largest batch of searches handed to
``solve_jobs`` alone (no pilots, no scoring): the parallel speed-up of the kernel itself,
with the kernel's summed time per thread count. ``--ceiling`` also times that batch in one
single-thread process alone and in two such processes side by side, interleaved: what two
cores of this machine give when nothing is shared but the hardware (two batches in the time
of one, at best), the ceiling of any thread count's speed-up here.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numba
import numpy as np

from boston_sim import solver
from boston_sim.analysis import analyze, rounds, solving
from boston_sim.solver import _pool, _the_pool

_busy = [0.0]
_lock = threading.Lock()


def _timed_kernel(kernel):
    """``kernel`` adding the seconds each call of it takes to ``_busy``."""
    def run(*args):
        t0 = time.perf_counter()
        try:
            return kernel(*args)
        finally:
            with _lock:
                _busy[0] += time.perf_counter() - t0
    return run


# every pool made from here on times its workers' kernel calls (the busy share)
_pool_init = _pool.Pool.__init__
_pool.Pool.__init__ = lambda self, n, ws, kernel, claim: _pool_init(  # type: ignore[method-assign]
    self, n, ws, _timed_kernel(kernel), claim)


def _touch_tables(threads: int) -> None:
    """Fault in every page of the pool's tables for ``threads`` workers. A new thread count
    makes a new pool, whose fresh pages the kernel zeroes on first touch (0.1-1.5 s of system
    time on this VM, by its free huge pages): a one-off cost of a process, not of a thread count."""
    numba.set_num_threads(threads)
    for table in _the_pool().ws[:2]:
        table.fill(0)  # zero is an empty table (``_driver.new_workspace``)


def timed(hand: str, threads: int, samples: int | None) -> tuple[float, dict, float]:
    """Wall seconds, the analysis and the workers' busy share (tables faulted in first)."""
    _touch_tables(threads)
    _busy[0] = 0.0
    t0 = time.perf_counter()
    a = analyze(hand, samples=samples, seed=0, threads=threads)
    dt = time.perf_counter() - t0
    return dt, a.to_dict(), _busy[0] / (threads * dt)


def largest_batch(hand: str, samples: int) -> tuple:
    """The deals and job rows of the largest batch a fixed ``samples`` bid of ``hand`` runs."""
    seen = []
    arrays = solving._Batch.arrays

    def keep(self, *args):
        hands, jobs = arrays(self, *args)
        seen.append((hands.copy(), jobs.copy()))
        return hands, jobs

    solving._Batch.arrays = keep
    try:
        analyze(hand, samples=samples, seed=0, threads=1)
    finally:
        solving._Batch.arrays = arrays
    return max(seen, key=lambda b: len(b[0]))


def batch_only(hand: str, samples: int, counts: list[int], repeat: int) -> None:
    """Median wall time and summed kernel time of the largest batch alone, per thread count."""
    hands, jobs = largest_batch(hand, samples)
    times: dict[int, list[tuple[float, float]]] = {t: [] for t in counts}
    for _ in range(repeat):
        for t in counts:
            _touch_tables(t)
            _busy[0] = 0.0
            t0 = time.perf_counter()
            solver.solve_jobs(hands, jobs)
            times[t].append((time.perf_counter() - t0, _busy[0]))
    print(f"its largest batch alone ({len(jobs)} searches through solve_jobs)"
          + (f", medians of {repeat}" if repeat > 1 else ""))
    print("threads  seconds  speed-up  kernel-sum")
    base = statistics.median(w for w, _ in times[counts[0]]) * counts[0]
    for t in counts:
        dt = statistics.median(w for w, _ in times[t])
        print(f"{t:7d}  {dt:7.2f}  {base / dt:8.2f}  "
              f"{statistics.median(k for _, k in times[t]):10.2f}", flush=True)


def solo(path: str) -> None:
    """The ``--ceiling`` child: load a batch, warm up on one thread, say "ready", wait for a
    line on stdin, time the batch and print its seconds."""
    with np.load(path) as saved:
        hands, jobs = saved["hands"], saved["jobs"]
    _touch_tables(1)
    solver.solve_jobs(hands[:20], jobs[:20])
    print("ready", flush=True)
    sys.stdin.readline()
    t0 = time.perf_counter()
    solver.solve_jobs(hands, jobs)
    print(f"{time.perf_counter() - t0:.4f}", flush=True)


def _side_by_side(path: str, k: int) -> list[float]:
    """Seconds of ``k`` single-thread processes each timing the batch at ``path``, started
    together once all are ready."""
    kids = [subprocess.Popen([sys.executable, __file__, "--solo", path], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True) for _ in range(k)]
    for kid in kids:
        if kid.stdout is None or kid.stdout.readline().strip() != "ready":
            raise SystemExit("a --solo process did not start")
    for kid in kids:
        if kid.stdin is not None:
            kid.stdin.write("go\n")
            kid.stdin.flush()
    out = [float(kid.communicate()[0]) for kid in kids]
    if any(kid.returncode for kid in kids):
        raise SystemExit("a --solo process failed")
    return out


def ceiling(hand: str, samples: int, repeat: int) -> None:
    """The machine's two-core ceiling on the largest batch: one process alone against two
    side by side (medians over ``repeat`` interleaved runs)."""
    hands, jobs = largest_batch(hand, samples)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "batch.npz")
        np.savez(path, hands=hands, jobs=jobs)
        alone, pair = [], []
        for _ in range(repeat):
            alone.append(_side_by_side(path, 1)[0])
            pair.append(statistics.mean(_side_by_side(path, 2)))
    a, p = statistics.median(alone), statistics.median(pair)
    each = ", ".join(f"{2 * x / y:.2f}" for x, y in zip(alone, pair, strict=True))
    print(f"its largest batch in single-thread processes: alone {a:.2f} s, two side by side "
          f"{p:.2f} s each: the two cores' ceiling {2 * a / p:.2f}x (each run {each})",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hand", default="AJT.Q3.QJT973.K4")
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--default", nargs="*", default=[], metavar="HAND")
    ap.add_argument("--repeat", type=int, default=1,
                    help="time each run this many times, interleaved; print medians")
    ap.add_argument("--batch-only", action="store_true",
                    help="also time the fixed bid's largest batch alone (solve_jobs)")
    ap.add_argument("--ceiling", action="store_true",
                    help="also time that batch in one and in two single-thread processes")
    ap.add_argument("--solo", metavar="NPZ", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.solo:
        solo(args.solo)
        return
    counts = [t for t in args.threads if t <= (os.cpu_count() or 1)]
    print(f"nproc {os.cpu_count()}, python {platform.python_version()}, {platform.machine()}, "
          f"{platform.processor() or 'cpu?'}")
    t0 = time.perf_counter()
    analyze(args.hand, samples=4, seed=1, threads=max(counts))  # compile or load the kernels
    print(f"first call (compile or cache load): {time.perf_counter() - t0:.1f} s")
    ref = None
    times: dict[int, list[float]] = {t: [] for t in counts}
    busy: dict[int, list[float]] = {t: [] for t in counts}
    for _ in range(args.repeat):  # interleaved: the host's drift falls on every count alike
        for t in counts:
            dt, d, b = timed(args.hand, t, args.samples)
            ref = ref or d
            if d != ref:
                print(f"{t} threads: RESULTS DIFFER", flush=True)
            times[t].append(dt)
            busy[t].append(b)
    print(f"bid {args.hand} --samples {args.samples}"
          + (f" (medians of {args.repeat})" if args.repeat > 1 else ""))
    print("threads  seconds  speed-up  efficiency  busy")
    base = statistics.median(times[counts[0]]) * counts[0]
    for t in counts:
        dt = statistics.median(times[t])
        print(f"{t:7d}  {dt:7.2f}  {base / dt:8.2f}  {base / dt / t:10.2f}  "
              f"{statistics.median(busy[t]):4.2f}", flush=True)
    if args.batch_only:
        batch_only(args.hand, args.samples, counts, args.repeat)
    if args.ceiling:
        ceiling(args.hand, args.samples, args.repeat)
    for hand in args.default:
        lo, hi = min(counts), max(counts)
        runs = []  # (1 thread, many, many without the look-ahead), interleaved on this host
        for _ in range(args.repeat):
            t_lo, d_lo, _ = timed(hand, lo, None)
            t_hi, d_hi, b_hi = timed(hand, hi, None)
            rounds.LOOK_AHEAD = False
            t_wait, d_wait, b_wait = timed(hand, hi, None)
            rounds.LOOK_AHEAD = True
            if not d_lo == d_hi == d_wait:
                print(f"default bid {hand}: RESULTS DIFFER", flush=True)
            runs.append((t_lo, t_hi, b_hi, t_wait, b_wait))
        t_lo, t_hi, b_hi, t_wait, b_wait = (statistics.median(c) for c in zip(*runs, strict=True))
        ratios = ", ".join(f"{r[0] / r[1]:.2f}" for r in runs)
        print(f"default bid {hand}: {lo} threads {t_lo:.2f} s, {hi} threads {t_hi:.2f} s "
              f"({t_lo / t_hi:.2f}x, busy {b_hi:.2f}; without the look-ahead {t_wait:.2f} s, "
              f"{t_lo / t_wait:.2f}x, busy {b_wait:.2f}), {d_hi['samples']} deals, "
              f"{d_hi['recommended']}" + (f"; medians of {len(runs)}, each run {ratios}x"
                                          if len(runs) > 1 else ""), flush=True)


if __name__ == "__main__":
    main()
