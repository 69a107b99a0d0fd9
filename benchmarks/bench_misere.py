"""Misère proofs benchmark: the yes/no question "can the lone declarer take no trick?" on
random completions of misère-like hands, deal by deal, with node counts and times.

    .venv/bin/python benchmarks/bench_misere.py [--deals 20] [--seed 1] [--hand H ...]
                                                [--tt-bits 22] [--quiet] [--json FILE]

For each hand (default: the four below) the project's ``Sampler`` (declarer N, the given
seed) draws the deals; each is asked as a misère rung asks it: N alone at no trump, eldest
(N, dealer W) on lead, ``at_most 0`` (``kernels.ask_lanes``, one thread, one workspace).
Per deal: escape (no trick) or caught, the expanded nodes and the time. Per hand and over
all hands: escapes and catches apart, nodes and time in total, p50 and max per deal, and a
checksum of the answers (equal checksums: the same answers). Node counts are exact and do
not depend on the machine's load; times do. ``--json`` writes the per-deal figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

DEFAULT_HANDS = ("T9532.642.53.742", ".T5.J9854.JT9752", "Q9732.KT76.74.A3",
                 "97432.7.763.QT52")
NO_TRUMP = 4
NORTH = 0
CHECKSUM_MULT = 31
CHECKSUM_MASK = 0xFFFFFFFF


def _summary(label: str, rows: list[dict]) -> str:
    if not rows:
        return f"  {label}:   0 deals"
    nodes = [r["nodes"] for r in rows]
    secs = [r["seconds"] for r in rows]
    return (f"  {label}: {len(rows):3d} deals  nodes {sum(nodes):14,d} "
            f"(p50 {statistics.median(nodes):12,.0f}, max {max(nodes):12,d})  "
            f"time {sum(secs):8.2f} s (p50 {statistics.median(secs):7.3f}, "
            f"max {max(secs):7.3f})")


def _report(rows: list[dict]) -> None:
    for esc, label in ((True, "escapes"), (False, "catches")):
        print(_summary(label, [r for r in rows if r["escape"] is esc]))
    print(_summary("all    ", rows))
    chk = 0
    for r in rows:
        chk = (chk * CHECKSUM_MULT + int(r["escape"])) & CHECKSUM_MASK
    print(f"  checksum {chk}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=20, help="deals per hand")
    ap.add_argument("--seed", type=int, default=1, help="the sampler's seed")
    ap.add_argument("--hand", action="append", help="a declarer hand (repeatable)")
    ap.add_argument("--tt-bits", type=int, default=22, help="log2 of the table's entries")
    ap.add_argument("--quiet", action="store_true", help="totals only")
    ap.add_argument("--json", help="write the per-deal figures to this file")
    args = ap.parse_args()

    import numba

    numba.set_num_threads(1)
    from boston_sim.analysis.plan import leader_seat
    from boston_sim.cards import format_deal, parse_hand
    from boston_sim.sampler import Sampler
    from boston_sim.solver import to_lanes
    from boston_sim.solver.kernels import ask_lanes, new_workspace

    leader = leader_seat("eldest", NORTH)
    side = 1 << NORTH
    ws = new_workspace(args.tt_bits)
    warm = to_lanes(Sampler(hand=parse_hand(DEFAULT_HANDS[0]), declarer=NORTH, seed=0)
                    .draw(1).deals)
    ask_lanes(warm[0].copy(), NO_TRUMP, leader, side, ws, kind="at_most", target=0)  # compile
    print(f"declarer N alone, NT, leader {'NESW'[leader]}, seed {args.seed}, "
          f"{args.deals} deals per hand, table 2^{args.tt_bits}")
    everything = []
    for hand in args.hand or DEFAULT_HANDS:
        deals = Sampler(hand=parse_hand(hand), declarer=NORTH, seed=args.seed).draw(
            args.deals).deals
        lanes = to_lanes(deals)
        rows = []
        print(f"\n{hand}")
        for i in range(len(deals)):
            ws.reset_stats()
            t0 = time.perf_counter()
            ans = ask_lanes(lanes[i].copy(), NO_TRUMP, leader, side, ws, kind="at_most",
                            target=0)
            dt = time.perf_counter() - t0
            nodes = int(ws.stats().nodes)
            row = {"hand": hand, "deal": format_deal(deals[i]), "escape": ans == 1,
                   "nodes": nodes, "seconds": dt}
            rows.append(row)
            if not args.quiet:
                print(f"  {i:3d} {'escape' if ans == 1 else 'caught'}  nodes {nodes:12,d}  "
                      f"{dt:8.3f} s  {row['deal']}", flush=True)
        _report(rows)
        everything += rows
    print("\nall hands")
    _report(everything)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(everything, f, indent=1)


if __name__ == "__main__":
    main()
