"""Every search of a default ``bid``, replayed one at a time: the solver's work on real bids,
counted in positions (free of the machine's timing noise), and the slowest searches named.

    .venv/bin/python tools/replay_bid.py HAND [HAND ...] [--seed 0] [--slowest 3]
        [--jobs-dir DIR]

For each hand, the default analysis (``analyze(hand, seed=...)``, classic Boston, both
threads) is run once with the solver's batch entry point wrapped, to record every search it
asks for (deal and job row); the record is kept in ``--jobs-dir`` (default: a temporary
folder) so a second run, e.g. from a worktree of another commit, replays the same searches.
The replay solves them serially in one workspace (a 2^22-entry table, as a bid's worker)
and prints the trick-boundary positions entered (``stats().positions``), the time and a checksum of
the answers (equal checksums: the same answers). The searches a bid asks for depend only on
its answers, so every commit records the same ones.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time


def record(hand: str, seed: int, path: str) -> None:
    """Run the default analysis of ``hand`` and save every solver job it asks for."""
    import numpy as np

    from boston_sim import solver
    from boston_sim.analysis import analyze

    hands, jobs = [], []
    orig = solver.solve_jobs

    def wrapped(h, j, deadline=None, progress=None):
        hands.append(np.array(h))
        jobs.append(np.array(j))
        return orig(h, j, deadline, progress)

    solver.solve_jobs = wrapped
    try:
        analyze(hand, seed=seed)
    finally:
        solver.solve_jobs = orig
    np.savez(path, hands=np.concatenate(hands), jobs=np.concatenate(jobs))


def replay(hands, jobs, slowest: int) -> tuple[int, float, int, list]:
    """Solve the recorded jobs serially: (positions, seconds, checksum, slowest jobs)."""
    import numpy as np

    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import new_workspace, run_jobs

    lanes = to_lanes(hands)
    ws = new_workspace(22)
    out = np.empty(len(jobs), np.int8)
    rows = []
    chk = 0
    positions = 0
    t0 = time.perf_counter()
    for i in range(len(jobs)):
        ws.reset_stats()
        t = time.perf_counter()
        out[i] = run_jobs(lanes[i:i + 1], jobs[i:i + 1], ws)[0]
        searched = ws.stats().positions
        rows.append((searched, time.perf_counter() - t, i))
        positions += searched
        chk = (chk * 31 + int(out[i])) % 1_000_003
    dt = time.perf_counter() - t0
    return positions, dt, chk, sorted(rows, reverse=True)[:slowest]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hands", nargs="+", help="13-card hands, e.g. KQ4.842.T93.AJ72")
    ap.add_argument("--seed", type=int, default=0, help="the bid's seed (default 0, as bid's)")
    ap.add_argument("--slowest", type=int, default=0, help="list this many slowest searches")
    ap.add_argument("--jobs-dir", default=None, help="where the recorded searches are kept")
    args = ap.parse_args()

    import numpy as np

    from boston_sim.cards import format_deal

    folder = args.jobs_dir or tempfile.mkdtemp(prefix="replay_bid_")
    os.makedirs(folder, exist_ok=True)
    print(f"nproc {os.cpu_count()}, replay on 1 thread, seed {args.seed}, jobs in {folder}")
    paths = [os.path.join(folder, f"{hand}_{args.seed}.npz") for hand in args.hands]
    for hand, path in zip(args.hands, paths, strict=False):
        if not os.path.exists(path):
            record(hand, args.seed, path)
    total = 0
    for hand, path in zip(args.hands, paths, strict=False):
        data = np.load(path)
        positions, dt, chk, slow = replay(data["hands"], data["jobs"], args.slowest)
        total += positions
        print(f"{hand:22s} {len(data['jobs']):5d} searches  positions {positions / 1e6:8.2f} M  "
              f"time {dt:7.2f} s  checksum {chk}", flush=True)
        for pos, t, i in slow:
            print(f"    {pos / 1e6:7.2f} M {t:6.2f} s  job {data['jobs'][i].tolist()}  "
                  f"{format_deal(data['hands'][i])}")
    print(f"all {len(args.hands)} hands: positions {total / 1e6:.2f} M")


if __name__ == "__main__":
    main()
