"""The double-dummy bias per rung family: the bracket over random hands, pooled.

    .venv/bin/python tools/bracket_bias.py --random 12 --seed 21 --rules boston_foster
    .venv/bin/python tools/bracket_bias.py --random 8 --seed 22 --rules solo_whist_foster \\
        --turnup H2 --json > solo.json

Deals hands as ``benchmarks/bench_bid.py --random`` does (with ``--turnup``, a hand that holds
that card gets the next deuce as its turn-up), runs the default analysis with the
bracket on each (the contending rungs only) and pools, per rung family (trick rungs by
target, misères, spreads, pair contracts), each figure's shift from double-dummy: the mean of
the paired per-deal differences in P(make) and in EV net, with the SE of that mean over all
the deals replayed (deals of one hand are independent given the hand).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_bid import deal_hands  # noqa: E402

from boston_sim.analysis import analyze  # noqa: E402
from boston_sim.analysis.bracket import FIGURES  # noqa: E402
from boston_sim.cards import parse_card, parse_hand  # noqa: E402


def family(rung) -> str:
    """The rung's family in the bias table."""
    if rung.side == "pair":
        return "pair contracts"
    if rung.kind == "zero":
        return "spreads" if rung.exposed else "misères"
    return f"trick rungs, {rung.target}+" if rung.kind == "at_least" else "exactly-n rungs"


def _turnup(hand: str, wanted: str | None) -> str | None:
    """The turn-up card (the dealer's), or the next deuce when the hand holds it."""
    if wanted is None:
        return None
    mask = parse_hand(hand)
    for card in (wanted, "H2", "S2", "D2", "C2", "H3", "S3"):
        if not mask >> parse_card(card) & 1:
            return card
    return None


def pooled(values: list[tuple[float, float, int]]) -> tuple[float, float, int]:
    """Deal-weighted mean of per-hand means, with the SE of that mean from the per-hand SEs."""
    n = sum(k for _, _, k in values)
    if n == 0:
        return math.nan, math.nan, 0
    mean = sum(m * k for m, _, k in values) / n
    var = sum((k * s) ** 2 for _, s, k in values if not math.isnan(s)) / n ** 2
    return mean, math.sqrt(var), n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--random", type=int, default=12)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--rules", default="boston_foster")
    ap.add_argument("--turnup", default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    by: dict[tuple[str, str], list[tuple[float, float, int]]] = defaultdict(list)
    hands = deal_hands(args.random, args.seed)
    for i, hand in enumerate(hands):
        turnup = _turnup(hand, args.turnup)
        a = analyze(hand, seed=i, rules=args.rules, turnup=turnup, bracket=True)
        for rid, figs in a.bracket.rungs.items():
            fam = family(a.rules.rung(rid))
            for f in FIGURES[1:]:
                st = figs[f]
                by[(fam, f)].append((st["ev_diff"], st["ev_diff_se"], st["deals"]))
        print(f"{i + 1}/{len(hands)} {hand} {a.recommended} {list(a.bracket.rungs)}",
              file=sys.stderr, flush=True)
    table = {f"{fam} | {f}": dict(zip(("ev_shift", "ev_shift_se", "deals"), pooled(v),
                                      strict=True))
             for (fam, f), v in sorted(by.items())}
    if args.json:
        print(json.dumps({"rules": args.rules, "seed": args.seed, "hands": args.random,
                          "table": table}, indent=1))
        return
    print(f"| rung family | figure | EV shift vs double-dummy ({args.rules}) | deals |")
    print("|---|---|---|---|")
    for key, row in table.items():
        fam, f = key.split(" | ")
        print(f"| {fam} | {f.replace('_', ' ')} | {row['ev_shift']:+.1f} ± "
              f"{row['ev_shift_se']:.1f} | {row['deals']} |")


if __name__ == "__main__":
    main()
