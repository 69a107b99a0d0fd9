"""Where our 2 v 2 search trees are larger than DDS's: trick-boundary positions, deal by deal.

    .venv/bin/python tools/dds_gap.py [--deals 20] [--seed 1] [--trump S] [--top 6]
    .venv/bin/python tools/dds_gap.py --pv "N:AQ5.AJ7643..T632 ..." [--trump S]

N-S against E-W, E on lead, one thread each, as in ``benchmarks/bench_solver.py`` (the same seed
gives the same deals). Both counts are the trick boundaries a search enters: ours is the
workspace's ``stats().positions``, DDS's
is ``futureTricks.nodes`` (its ``trickNodes``). The first form lists the deals with the largest
gap; ``--pv`` follows DDS's principal variation of one deal and, at every trick boundary,
solves the rest of the deal afresh with both, to show at which depth the gap opens.

DDS keeps its table from one ``SolveBoard`` call to the next when the deal is the same with
cards played, so a sub-position solved right after its parent costs it almost nothing; an
unrelated deal is solved in between to make every count a fresh solve.
"""

from __future__ import annotations

import argparse
import sys

STRAINS = ("S", "H", "D", "C", "NT")
NS = 0b0101
FLUSH = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


class Pair:
    """Both solvers on one thread, each solving every position afresh: ``ours`` and
    ``dds_ns`` give N-S's tricks and the trick-boundary positions entered."""

    def __init__(self, trump: int) -> None:
        import endplay._dds as _dds
        import numba
        import numpy as np

        from boston_sim.solver import kernels

        numba.set_num_threads(1)
        _dds.SetMaxThreads(1)
        self.K = kernels
        self.trump = trump
        self.ws = kernels.new_workspace()
        self.hl = np.empty(16, dtype=np.int64)

    def ours(self, pbn: str, leader: int) -> tuple[int, int]:
        from boston_sim.cards import parse_deal
        from boston_sim.solver import to_lanes

        self.hl[:] = to_lanes(parse_deal(pbn)[None, :])[0]
        self.ws.reset_stats()
        v = self.K.solve_lanes(self.hl, self.trump, leader, NS, self.ws)
        return v, self.ws.stats().positions

    def dds(self, deal) -> tuple[object, int, int]:
        """DDS on an endplay ``Deal`` (at a trick boundary or inside a trick): one optimal
        card, the tricks it gives the side to play, and DDS's positions."""
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom

        flush = Deal(FLUSH)
        flush.trump = Denom.hearts
        solve_board(flush, SolveMode.OptimalOne)  # another deal: DDS starts afresh
        sb = solve_board(deal, SolveMode.OptimalOne)
        card, tricks = max(sb, key=lambda c: c[1])
        return card, int(tricks), int(sb._data.nodes)

    def dds_ns(self, deal) -> tuple[int, int]:
        """N-S tricks from a trick boundary, and DDS's positions."""
        from endplay.types import Player

        _, tricks, nodes = self.dds(deal)
        left = len(deal[Player.north])
        return (tricks if int(deal.first) in (0, 2) else left - tricks), nodes

    def deal(self, pbn: str, leader: int):
        from endplay.types import Deal, Denom, Player

        d = Deal(pbn)
        d.first = Player(leader)
        d.trump = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt][self.trump]
        return d


def per_deal(args: argparse.Namespace, pair: Pair) -> None:
    from boston_sim.cards import format_deal

    rows = []
    for i, hands in enumerate(pair.K.benchmark_deals(args.deals, args.seed)):
        pbn = format_deal(hands)
        v, ours = pair.ours(pbn, 1)
        w, theirs = pair.dds_ns(pair.deal(pbn, 1))
        if v != w:
            sys.exit(f"deal {i}: we say {v}, DDS {w}")
        rows.append((ours - theirs, ours, theirs, v, i, pbn))
    tot_o = sum(r[1] for r in rows)
    tot_d = sum(r[2] for r in rows)
    print(f"{args.deals} deals, seed {args.seed}, trump {STRAINS[pair.trump]}, E leads: "
          f"positions ours {tot_o}, DDS {tot_d}, ratio {tot_o / tot_d:.2f}")
    for _, ours, theirs, v, i, pbn in sorted(rows, reverse=True)[: args.top]:
        print(f"  deal {i:3d}: ours {ours:8d}  DDS {theirs:7d}  x{ours / max(theirs, 1):5.1f}  "
              f"N-S {v:2d}  {pbn}")


def along_pv(args: argparse.Namespace, pair: Pair) -> None:
    from endplay.types import Player

    d = pair.deal(args.pv, 1)
    print(f"{args.pv}, trump {STRAINS[pair.trump]}, E leads: DDS's principal variation")
    while len(d[Player.north]) > 0:
        pbn = d.to_pbn()
        v, ours = pair.ours(pbn, int(d.first))
        w, theirs = pair.dds_ns(d)
        if v != w:
            sys.exit(f"{pbn}: we say {v}, DDS {w}")
        print(f"  {len(d[Player.north]):2d} left, {'NESW'[int(d.first)]} leads: N-S {v:2d}  ours "
              f"{ours:8d}  DDS {theirs:7d}  x{ours / max(theirs, 1):5.1f}  {pbn}")
        for _ in range(4):  # the trick as DDS plays it: each seat's best card
            d.play(pair.dds(d)[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trump", default="S", choices=STRAINS)
    ap.add_argument("--top", type=int, default=6, help="deals listed (largest gap first)")
    ap.add_argument("--pv", metavar="DEAL", help="follow this deal's principal variation")
    args = ap.parse_args()
    pair = Pair(STRAINS.index(args.trump))
    if args.pv:
        along_pv(args, pair)
    else:
        per_deal(args, pair)


if __name__ == "__main__":
    main()
