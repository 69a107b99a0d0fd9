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
"""

from __future__ import annotations

import argparse
import os
import platform
import threading
import time

from boston_sim.analysis import analyze, rounds
from boston_sim.solver import _pool

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


def timed(hand: str, threads: int, samples: int | None) -> tuple[float, dict, float]:
    """Wall seconds, the analysis and the workers' busy share."""
    _busy[0] = 0.0
    t0 = time.perf_counter()
    a = analyze(hand, samples=samples, seed=0, threads=threads)
    dt = time.perf_counter() - t0
    return dt, a.to_dict(), _busy[0] / (threads * dt)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hand", default="AJT.Q3.QJT973.K4")
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    ap.add_argument("--default", nargs="*", default=[], metavar="HAND")
    args = ap.parse_args()
    counts = [t for t in args.threads if t <= (os.cpu_count() or 1)]
    print(f"nproc {os.cpu_count()}, python {platform.python_version()}, {platform.machine()}, "
          f"{platform.processor() or 'cpu?'}")
    t0 = time.perf_counter()
    analyze(args.hand, samples=4, seed=1, threads=max(counts))  # compile or load the kernels
    print(f"first call (compile or cache load): {time.perf_counter() - t0:.1f} s")
    base = None
    ref = None
    print(f"bid {args.hand} --samples {args.samples}")
    print("threads  seconds  speed-up  efficiency")
    for t in counts:
        dt, d, _ = timed(args.hand, t, args.samples)
        ref = ref or d
        same = "" if d == ref else "  RESULTS DIFFER"
        base = base or dt * counts[0]
        print(f"{t:7d}  {dt:7.2f}  {base / dt:8.2f}  {base / dt / t:10.2f}{same}", flush=True)
    for hand in args.default:
        lo, hi = min(counts), max(counts)
        t_lo, d_lo, _ = timed(hand, lo, None)
        t_hi, d_hi, b_hi = timed(hand, hi, None)
        rounds.LOOK_AHEAD = False
        t_wait, d_wait, b_wait = timed(hand, hi, None)
        rounds.LOOK_AHEAD = True
        same = "same numbers" if d_lo == d_hi == d_wait else "RESULTS DIFFER"
        print(f"default bid {hand}: {lo} threads {t_lo:.2f} s, {hi} threads {t_hi:.2f} s "
              f"({t_lo / t_hi:.2f}x, busy {b_hi:.2f}; without the look-ahead {t_wait:.2f} s, "
              f"busy {b_wait:.2f}), {d_hi['samples']} deals, {d_hi['recommended']}, {same}",
              flush=True)


if __name__ == "__main__":
    main()
