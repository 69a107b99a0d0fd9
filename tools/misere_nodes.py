"""Misère proofs, deal by deal: the yes/no question "can the lone declarer take no trick?"
on sampled deals of misère-like hands, with the expanded nodes each search needs.

    .venv/bin/python tools/misere_nodes.py [--deals 20] [--seed 1] [--hand T9532.642.53.742]
                                           [--tt-bits 22] [--quiet]

For each hand (default: ``T9532.642.53.742`` and ``.T5.J9854.JT9752``) the project's
``Sampler`` (declarer N, the given seed) draws the deals; each is asked as a misère rung asks
it: N alone at no trump, eldest (N, dealer W) on lead, ``at_most 0`` (``kernels.ask_lanes``,
one thread, one workspace whose table starts empty each search). Per deal it prints whether
the declarer escapes (takes no trick) or is caught, whether ``solver.sure_misere`` settles it
without a search (the analysis then asks nothing; the search is still run and counted here),
the expanded nodes, the trick-boundary positions and the time. Then per hand the totals of
escapes and catches separately, and a checksum of the answers (equal checksums: the same
answers). Node counts are exact and do not depend on the machine's load; times do.
"""

from __future__ import annotations

import argparse
import time

DEFAULT_HANDS = ("T9532.642.53.742", ".T5.J9854.JT9752")
NO_TRUMP = 4
NORTH = 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=20, help="deals per hand")
    ap.add_argument("--seed", type=int, default=1, help="the sampler's seed")
    ap.add_argument("--hand", action="append", help="a declarer hand (repeatable)")
    ap.add_argument("--tt-bits", type=int, default=22, help="log2 of the table's entries")
    ap.add_argument("--quiet", action="store_true", help="totals only")
    args = ap.parse_args()

    import numba

    numba.set_num_threads(1)
    from boston_sim.analysis.plan import leader_seat
    from boston_sim.cards import format_deal, parse_hand
    from boston_sim.sampler import Sampler
    from boston_sim.solver import sure_misere, to_lanes
    from boston_sim.solver.kernels import ask_lanes, new_workspace

    leader = leader_seat("eldest", NORTH)
    side = 1 << NORTH
    ws = new_workspace(args.tt_bits)
    warm = to_lanes(Sampler(hand=parse_hand(DEFAULT_HANDS[0]), declarer=NORTH, seed=0).draw(1)
                    .deals)
    ask_lanes(warm[0].copy(), NO_TRUMP, leader, side, ws, kind="at_most", target=0)  # compile
    print(f"declarer N alone, NT, leader {'NESW'[leader]}, seed {args.seed}, "
          f"{args.deals} deals per hand, table 2^{args.tt_bits}")
    grand = {True: [0, 0, 0.0], False: [0, 0, 0.0]}
    for hand in args.hand or DEFAULT_HANDS:
        deals = Sampler(hand=parse_hand(hand), declarer=NORTH, seed=args.seed).draw(
            args.deals).deals
        sure = sure_misere(deals, side, leader)
        lanes = to_lanes(deals)
        tot = {True: [0, 0, 0.0], False: [0, 0, 0.0]}
        chk = 0
        print(f"\n{hand}")
        for i in range(len(deals)):
            ws.reset_stats()
            t0 = time.perf_counter()
            ans = ask_lanes(lanes[i].copy(), NO_TRUMP, leader, side, ws, kind="at_most",
                            target=0)
            dt = time.perf_counter() - t0
            nodes, _ = ws.stats()
            esc = ans == 1
            chk = (chk * 31 + ans) & 0xFFFFFFFF
            for t in (tot[esc], grand[esc]):
                t[0] += 1
                t[1] += nodes
                t[2] += dt
            if not args.quiet:
                print(f"  {i:3d} {'escape' if esc else 'caught'}{' sure' if sure[i] else '     '}"
                      f"  nodes {nodes:12,d}  {dt:8.3f} s  {format_deal(deals[i])}", flush=True)
        for esc in (True, False):
            n, nodes, dt = tot[esc]
            print(f"  {'escapes' if esc else 'catches'}: {n:3d} deals  nodes {nodes:14,d}  "
                  f"time {dt:8.2f} s")
        print(f"  checksum {chk}", flush=True)
    print()
    for esc in (True, False):
        n, nodes, dt = grand[esc]
        print(f"all {'escapes' if esc else 'catches'}: {n:3d} deals  nodes {nodes:14,d}  "
              f"time {dt:8.2f} s")


if __name__ == "__main__":
    main()
