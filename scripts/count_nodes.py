"""Search-tree size of the solver on fixed random deals: the figure that tells whether a
solver change helped, free of the machine's timing noise.

    .venv/bin/python scripts/count_nodes.py [--deals2 10] [--deals1 20] [--seed 1]

Groups (one thread, one workspace with a 2^22-entry table, as a bid's worker):
* ``2v2``: N-S against E-W, E on lead, spades and no trump, value (MTD as ``solve``);
* ``1v3max``: N alone, N on lead, each of the four suits and no trump, value;
* ``misere``: N alone, N on lead, no trump, "at most 0 tricks" (the misère question).

Prints per group the trick-boundary positions entered (``P_TRICKS``), the expanded nodes
(``P_NODES``), the time, and a checksum of the answers (equal checksums: the same answers).
To compare two commits, run the script from a worktree of each. The deals are those of
``bench_solver.py`` (the same seed gives the same deals).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "scripts"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals2", type=int, default=10, help="deals of the 2 v 2 group")
    ap.add_argument("--deals1", type=int, default=20, help="deals of the 1 v 3 groups")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    import numba

    numba.set_num_threads(1)
    from bench_solver import random_deals

    from boston_sim.solver import _to_lanes
    from boston_sim.solver._driver import new_workspace, solve_question, solve_value
    from boston_sim.solver._search import P_NODES, P_TRICKS

    ws = new_workspace(22)
    P = ws[4]
    lanes = _to_lanes(random_deals(max(args.deals2, args.deals1, 1), args.seed))

    def run(i: int, trump: int, leader: int, side: int, misere: bool) -> int:
        hl = lanes[i].copy()
        if misere:
            return int(solve_question(hl, trump, leader, side, 1, 0, *ws))
        return int(solve_value(hl, trump, leader, side, 0, -1, *ws))

    run(0, 0, 1, 5, False)  # compile / load the kernels outside the timings
    run(0, 4, 0, 1, True)
    groups = [
        ("2v2", [(i, t, 1, 0b0101, False) for t in (0, 4) for i in range(args.deals2)]),
        ("1v3max", [(i, t, 0, 0b0001, False) for t in range(5) for i in range(args.deals1)]),
        ("misere", [(i, 4, 0, 0b0001, True) for i in range(args.deals1)]),
    ]
    print(f"nproc {os.cpu_count()}, numba threads 1, seed {args.seed}")
    for name, jobs in groups:
        P[P_TRICKS] = 0
        P[P_NODES] = 0
        chk = 0
        t0 = time.perf_counter()
        for job in jobs:
            chk = (chk * 31 + run(*job)) & 0xFFFFFFFF
        dt = time.perf_counter() - t0
        print(f"{name:7s} positions {P[P_TRICKS] / 1e6:7.2f} M  nodes {P[P_NODES] / 1e6:7.2f} M  "
              f"time {dt:6.2f} s  checksum {chk}", flush=True)


if __name__ == "__main__":
    main()
