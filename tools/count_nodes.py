"""Search-tree size of the solver on fixed random deals: the figure that tells whether a
solver change helped, free of the machine's timing noise.

    .venv/bin/python tools/count_nodes.py [--deals2 10] [--deals1 20] [--seed 1]

Groups (one thread, one workspace with a 2^22-entry table, as a bid's worker):
* ``2v2``: N-S against E-W, E on lead, spades and no trump, value (MTD as ``solve``);
* ``1v3max``: N alone, N on lead, each of the four suits and no trump, value;
* ``misere``: N alone, N on lead, no trump, "at most 0 tricks" (the misère question).

Prints per group the trick-boundary positions entered and the expanded nodes (the
workspace's ``stats()``), the time, and a checksum of the answers (equal checksums: the same
answers).
To compare two commits, run the script from a worktree of each. The deals are those of
``benchmarks/bench_solver.py`` (``kernels.benchmark_deals``: the same seed, the same deals).
"""

from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals2", type=int, default=10, help="deals of the 2 v 2 group")
    ap.add_argument("--deals1", type=int, default=20, help="deals of the 1 v 3 groups")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    import numba

    numba.set_num_threads(1)
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import ask_lanes, benchmark_deals, new_workspace, solve_lanes

    ws = new_workspace(22)
    lanes = to_lanes(benchmark_deals(max(args.deals2, args.deals1, 1), args.seed))

    def run(i: int, trump: int, leader: int, side: int, misere: bool) -> int:
        hl = lanes[i].copy()
        if misere:
            return ask_lanes(hl, trump, leader, side, ws, kind="at_most", target=0)
        return solve_lanes(hl, trump, leader, side, ws)

    run(0, 0, 1, 5, False)  # compile / load the kernels outside the timings
    run(0, 4, 0, 1, True)
    groups = [
        ("2v2", [(i, t, 1, 0b0101, False) for t in (0, 4) for i in range(args.deals2)]),
        ("1v3max", [(i, t, 0, 0b0001, False) for t in range(5) for i in range(args.deals1)]),
        ("misere", [(i, 4, 0, 0b0001, True) for i in range(args.deals1)]),
    ]
    print(f"nproc {os.cpu_count()}, numba threads 1, seed {args.seed}")
    for name, jobs in groups:
        ws.reset_stats()
        chk = 0
        t0 = time.perf_counter()
        for job in jobs:
            chk = (chk * 31 + run(*job)) & 0xFFFFFFFF
        dt = time.perf_counter() - t0
        nodes, positions = ws.stats()
        print(f"{name:7s} positions {positions / 1e6:7.2f} M  nodes {nodes / 1e6:7.2f} M  "
              f"time {dt:6.2f} s  checksum {chk}  (positions {positions}, nodes {nodes})",
              flush=True)


if __name__ == "__main__":
    main()
