"""Solver benchmark: boston-sim against DDS (via endplay), one thread each, same deals.

    .venv/bin/python benchmarks/bench_solver.py [--deals 100] [--seed 1] [--trump S] [--leader E]
                                                 [--rounds 3] [--no-dds] [--no-startup]
                                                 [--solo-deals N]

Prints, per deal, median and mean milliseconds for
* 2 v 2 (N-S against E-W, as in bridge), one trump, fixed leader: boston-sim and DDS
  (``solve_board`` with one thread, best card only), the ratio DDS-time / our-time, and
  whether every answer agreed. The two solvers take turns deal by deal (which one goes first
  alternates), so a change in the machine's speed during the run hits both alike; with
  ``--rounds R`` every deal is solved R times by each, in R passes over the deals, and its
  time is the least of them (the noise of a shared machine only ever adds time; DDS never
  sees the same deal twice in a row, so it cannot reuse its table);
* 1 v 3 (N alone, N on lead) per strain, and a full set: four suits + NT + misère
  (``at_most 0`` in NT), as the Monte Carlo analysis asks;
* the first-call compile time (fresh NUMBA_CACHE_DIR) and the warm start-up (import + first
  solve with the cache present), each in a subprocess.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

STRAINS = ("S", "H", "D", "C", "NT")


def summary(ms: list[float]) -> str:
    return (
        f"median {statistics.median(ms):8.2f} ms  mean {statistics.fmean(ms):8.2f} ms  "
        f"max {max(ms):8.1f} ms"
    )


def time_ours(lanes: np.ndarray, fn) -> tuple[list[float], list]:
    ms, res = [], []
    for i in range(lanes.shape[0]):
        t0 = time.perf_counter()
        res.append(fn(lanes[i].copy()))
        ms.append(1000 * (time.perf_counter() - t0))
    return ms, res


def dds_solver(trump: int, leader: int):
    """A function deal (uint64[4]) -> (milliseconds, DDS tricks of N-S with ``leader`` on
    lead); one thread."""
    import endplay._dds as _dds
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal, Denom, Player

    from boston_sim.cards import format_deal

    _dds.SetMaxThreads(1)
    denom = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt][trump]

    def run(deal: np.ndarray) -> tuple[float, int]:
        d = Deal(format_deal(deal))
        d.first = Player(leader)
        d.trump = denom
        t0 = time.perf_counter()
        sb = solve_board(d, SolveMode.OptimalOne)
        ms = 1000 * (time.perf_counter() - t0)
        best = max(score for _, score in sb)
        return ms, (best if leader in (0, 2) else 13 - best)

    return run


def side_by_side(deals: np.ndarray, lanes: np.ndarray, ours, theirs, rounds: int):
    """Per deal, the least time of ``rounds`` solves by each of ``ours`` (lanes -> tricks)
    and ``theirs`` (deal -> (ms, tricks), or None), taking turns deal by deal; and the
    answers."""
    m = deals.shape[0]
    ms = [float("inf")] * m
    dms = [float("inf")] * m
    res = [0] * m
    dres = [0] * m
    for _ in range(rounds):
        for i in range(m):
            for who in ((0, 1) if i % 2 == 0 else (1, 0)):
                if who == 0:
                    t0 = time.perf_counter()
                    res[i] = ours(lanes[i].copy())
                    ms[i] = min(ms[i], 1000 * (time.perf_counter() - t0))
                elif theirs is not None:
                    t, dres[i] = theirs(deals[i])
                    dms[i] = min(dms[i], t)
    return ms, res, dms, dres


def startup(cache_dir: str) -> float:
    """Seconds for a fresh process to import the solver and solve one deal."""
    code = (
        "import time; t=time.perf_counter()\n"
        "import numpy as np\n"
        "from boston_sim.solver import solve_batch, solve_batch_target, solve\n"
        "d = np.array([[0x7ffc, 0x7ffc<<16, 0x7ffc<<32, 0x7ffc<<48]], dtype=np.uint64)\n"
        "solve_batch(d, 0, 0, 5); solve_batch(d, 4, 0, 1, mode='min');"
        " solve_batch_target(d, 4, 0, 1, 'exactly', 1)\n"
        "solve('N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432',"
        " 'NT', 'N', 'N')\n"
        "print(time.perf_counter()-t)\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, NUMBA_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--solo-deals", type=int, default=None, help="deals for the 1 v 3 part")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trump", default="S")
    ap.add_argument("--leader", default="E")
    ap.add_argument("--rounds", type=int, default=3,
                    help="solves of each 2 v 2 deal by each solver; its time is the least")
    ap.add_argument("--no-dds", action="store_true")
    ap.add_argument("--no-startup", action="store_true")
    ap.add_argument("--no-misere", action="store_true",
                    help="skip the misère figures (some deals take minutes, see PERFORMANCE.md)")
    args = ap.parse_args()

    if not args.no_startup:
        with tempfile.TemporaryDirectory() as cache:
            cold = startup(cache)
            warm = startup(cache)
        print(f"first call, empty numba cache (compile): {cold:7.2f} s")
        print(f"warm start-up (import + first solves, cache present): {warm:7.2f} s")

    import numba

    from boston_sim.cards import parse_compass, parse_strain
    from boston_sim.config import SOLVER_TT_BITS
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import ask_lanes, benchmark_deals, new_workspace, solve_lanes

    numba.set_num_threads(1)
    trump = parse_strain(args.trump)
    leader = parse_compass(args.leader)
    deals = benchmark_deals(args.deals, args.seed)
    lanes = to_lanes(deals)
    ws = new_workspace(SOLVER_TT_BITS)
    # compile / load both kernels outside the timings
    solve_lanes(lanes[0].copy(), trump, leader, 5, ws)
    ask_lanes(lanes[0].copy(), 4, 0, 0b0001, ws, kind="at_most", target=0)

    print(f"nproc {os.cpu_count()}, numba threads 1, {args.deals} deals, seed {args.seed}, "
          f"least of {args.rounds} rounds")
    ms, ours, dms, theirs = side_by_side(
        deals, lanes, lambda hl: solve_lanes(hl, trump, leader, 0b0101, ws),
        None if args.no_dds else dds_solver(trump, leader), max(1, args.rounds))
    print(f"2v2 N-S, trump {args.trump}, {args.leader} leads  boston-sim: {summary(ms)}")
    if not args.no_dds:
        print(f"2v2 N-S, trump {args.trump}, {args.leader} leads  DDS       : {summary(dms)}")
        agree = sum(int(a) == int(b) for a, b in zip(ours, theirs, strict=False))
        print(f"agreement {agree}/{len(ours)}")
        print(
            f"ratio DDS/ours: median {statistics.median(dms) / statistics.median(ms):.2f}, "
            f"mean {statistics.fmean(dms) / statistics.fmean(ms):.2f}"
        )

    solo = lanes[: args.solo_deals] if args.solo_deals else lanes
    total = np.zeros(solo.shape[0])
    for t, name in enumerate(STRAINS):
        ms, _ = time_ours(solo, lambda hl, t=t: solve_lanes(hl, t, 0, 0b0001, ws))
        total += ms
        print(f"1v3 N alone, N leads, {name:2}: {summary(ms)}")
    print(f"1v3 four suits + NT: {summary(list(total))}")
    if args.no_misere:
        return
    ms, _ = time_ours(solo, lambda hl: ask_lanes(hl, 4, 0, 0b0001, ws, kind="at_most", target=0))
    print(f"1v3 misère (at_most 0, NT) : {summary(ms)}")
    total += ms
    print(f"1v3 full set (4 suits + NT + misère): {summary(list(total))}")


if __name__ == "__main__":
    main()
