"""Where the solver's workers wait during a bid: each worker's waits for work, by why it
found none and by what the caller was doing meanwhile.

    .venv/bin/python benchmarks/bench_idle.py T9532.642.53.742 AK8.KT73.KQ932.9
    .venv/bin/python benchmarks/bench_idle.py AJT.Q3.QJT973.K4 --samples 150
    NUMBA_NUM_THREADS=16 .venv/bin/python benchmarks/bench_idle.py --threads 16 HAND ...

A worker waits when no ticket has jobs left to start ("nothing") or when the only ones are
jobs run ahead and its share of them is taken ("held back": the caller at work keeps a
core). The caller is scoring a round ("score"), in a batch ("batch": waiting for answers,
or handing jobs over), asking a round's questions ("questions"), or elsewhere ("other":
drawing deals, building jobs, the answer's last steps). Shares are of the workers' time
(threads x wall), each hand timed once in-process on warm kernels and tables faulted in.
"unused": the share of the nodes searched that no batch used (jobs run ahead that no round
took, searches given up).
"""

from __future__ import annotations

import argparse
import collections
import threading
import time

import numba
import numpy as np

from boston_sim.analysis import analyze, api, rounds, solving
from boston_sim.solver import _pool, _the_pool, reset_work_counters, work_counters

_waits: list[tuple[float, float, str]] = []  # a worker's wait: start, end, why
_phases: list[tuple[float, float, int, str]] = []  # the caller's: start, end, depth, name
_depth = [0]
_why = threading.local()
STEP = 0.0005  # seconds: the time grid on which waits meet the caller's phases


def _spy_pick(pick):
    def run(self):
        t = pick(self)
        if t is None:
            live = any(o.counter[_pool._NEXT] < o.m for o in self._tickets)
            _why.reason = "held back" if live else "nothing"
        return t
    return run


def _spy_wait(wait):
    def run(self, timeout=None):
        if not threading.current_thread().name.startswith("boston-sim-solver"):
            return wait(self, timeout)
        t0 = time.perf_counter()
        try:
            return wait(self, timeout)
        finally:
            _waits.append((t0, time.perf_counter(), getattr(_why, "reason", "?")))
    return run


def _in_phase(fn, name: str):
    def run(*args, **kwargs):
        t0 = time.perf_counter()
        _depth[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _depth[0] -= 1
            _phases.append((t0, time.perf_counter(), _depth[0], name))
    return run


def _attribute(t0: float, t1: float) -> collections.Counter:
    """Worker-seconds of waiting by (why, the caller's innermost phase) within ``t0 .. t1``."""
    n = int((t1 - t0) / STEP) + 1
    phase = np.full(n, "other", dtype=object)
    for a, b, _, name in sorted(_phases, key=lambda p: p[2]):  # inner phases last
        phase[max(0, int((a - t0) / STEP)) : max(0, int((b - t0) / STEP))] = name
    out: collections.Counter = collections.Counter()
    for a, b, why in _waits:
        lo, hi = max(0, int((a - t0) / STEP)), min(n, int((b - t0) / STEP))
        for name, k in collections.Counter(phase[lo:hi]).items():
            out[(why, name)] += k * STEP
    return out


_used = [0]  # nodes of the jobs whose answers a batch used


def _spy_used() -> None:
    """Sum the nodes of every job a batch used (run in it, or run ahead and taken): the work
    counters' nodes beyond them went to jobs run ahead that no round took, or given up."""
    learn = solving.JobCosts.learn

    def spy(self, key, jobs, answers, nodes):
        _used[0] += int(nodes[answers != -1].sum())
        return learn(self, key, jobs, answers, nodes)

    solving.JobCosts.learn = spy


def _spy() -> None:
    _spy_used()
    _pool.Pool._pick = _spy_pick(_pool.Pool._pick)
    threading.Condition.wait = _spy_wait(threading.Condition.wait)
    solving._Batch.run = _in_phase(solving._Batch.run, "batch")
    solving.Solver._ask = _in_phase(solving.Solver._ask, "questions")
    evaluate = api.evaluate
    api.evaluate = _in_phase(evaluate, "score")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hands", nargs="+", metavar="HAND")
    ap.add_argument("--samples", type=int, default=None, help="a fixed bid of this many deals")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers-per-round", type=float, default=rounds.WORKERS_PER_ROUND_AHEAD,
                    help="the look-ahead reaches one round further per this many workers "
                         f"(default {rounds.WORKERS_PER_ROUND_AHEAD}; as many as --threads: "
                         "one round)")
    args = ap.parse_args()
    rounds.WORKERS_PER_ROUND_AHEAD = args.workers_per_round
    _spy()
    analyze(args.hands[0], samples=4, seed=1, threads=args.threads)  # kernels, pool
    total: collections.Counter = collections.Counter()
    worker_time = 0.0
    total_nodes = [0, 0]  # the work counters' nodes, and those no batch used
    for hand in args.hands:
        numba.set_num_threads(args.threads)
        for table in _the_pool().ws[:2]:
            table.fill(0)  # fault the tables in (zero is an empty table)
        _waits.clear()
        _phases.clear()
        reset_work_counters()
        _used[0] = 0
        t0 = time.perf_counter()
        analyze(hand, samples=args.samples, seed=0, threads=args.threads)
        t1 = time.perf_counter()
        nodes = work_counters().nodes
        spare = 1 - _used[0] / nodes if nodes else 0.0
        total_nodes[:] = [total_nodes[0] + nodes, total_nodes[1] + nodes - _used[0]]
        shares = _attribute(t0, t1)
        total.update(shares)
        worker_time += args.threads * (t1 - t0)
        idle = sum(shares.values()) / (args.threads * (t1 - t0))
        print(f"{hand:20s} {t1 - t0:6.2f} s  idle {idle:5.1%}  unused {spare:5.1%}  " + "  ".join(
            f"{why}/{phase} {v / (args.threads * (t1 - t0)):.1%}"
            for (why, phase), v in shares.most_common(4)), flush=True)
    print(f"all: idle {sum(total.values()) / worker_time:.1%}  "
          f"unused {total_nodes[1] / max(1, total_nodes[0]):.1%}  " + "  ".join(
        f"{why}/{phase} {v / worker_time:.2%}" for (why, phase), v in total.most_common()))


if __name__ == "__main__":
    main()
