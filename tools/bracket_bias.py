"""The double-dummy bias per rung family: the bracket over random hands, pooled.

    .venv/bin/python tools/bracket_bias.py --random 12 --seed 21 --rules boston_foster \\
        --out boston21.jsonl
    .venv/bin/python tools/bracket_bias.py --random 8 --seed 22 --rules solo_whist_foster \\
        --turnup H2 -o proposal=priced --out solo22.jsonl
    .venv/bin/python tools/bracket_bias.py --pool boston21.jsonl solo22.jsonl

Deals hands as ``benchmarks/bench_bid.py --random`` does (with ``--turnup``, a hand that holds
that card gets the next deuce as its turn-up; with ``--no-honours``, only hands without an
ace, king, queen or jack are kept: misère-like hands), runs the default analysis with the
bracket on each (the contending rungs only, or with ``--rungs`` the rungs named, whether they
contend or not: spreads seldom do) and writes one JSON line per hand to ``--out`` (a rerun
skips the hands already there). ``--pool`` reads such files and pools, per rule set (named
rungs apart) and rung family (trick rungs by target, misères, spreads, pair contracts), each
figure's shift from double-dummy: the deal-weighted mean of the per-hand
mean differences in EV net, with the SE of that mean (deals of one hand are independent
given the hand, and hands are independent).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_bid import deal_hands  # noqa: E402

from boston_sim.cards import format_hand, parse_card, parse_hand  # noqa: E402

HONOURS = "AKQJ"
FIGURE_NAMES = ("blind_lead", "declarer_single_dummy", "defence_single_dummy", "single_dummy")


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


def honourless_hands(n: int, seed: int) -> list[str]:
    """``n`` random hands with no ace, king, queen or jack: uniform among such hands
    (13 cards drawn from the 36 cards ten down to two)."""
    from boston_sim.cards import card_mask

    rng = random.Random(seed)
    low = [card_mask(s, r) for s in range(4) for r in range(10, 1, -1)]
    return [format_hand(sum(rng.sample(low, 13))) for _ in range(n)]


def _named_rungs(ids: list[str]):
    """A stand-in for ``bracket.contending`` that keeps the chosen rows of the rungs ``ids``."""

    def rows_of(rows, recommended, runner_up):
        return [r for r in rows if r["rung"] in ids and r["chosen"] and r["priced"]
                and not r["outcome_of"]]

    return rows_of


def hand_record(i: int, hand: str, args) -> dict:
    """One hand's analysis with the bracket: its contending (or named) rungs' shifts from
    double-dummy."""
    from boston_sim.analysis import analyze, bracket

    if args.rungs:
        bracket.contending = _named_rungs(args.rungs.split(","))

    options = tuple(tuple(o.split("=", 1)) for o in args.option)
    t = time.perf_counter()
    a = analyze(hand, seed=i, rules=args.rules, turnup=_turnup(hand, args.turnup),
                options=options, bracket=True)
    rungs = {}
    for rid, figs in a.bracket.rungs.items():
        rungs[rid] = {"family": family(a.rules.rung(rid)),
                      **{f: {k: figs[f][k] for k in ("ev_diff", "ev_diff_se", "deals")}
                         for f in FIGURE_NAMES}}
    return {"rules": args.rules, "options": list(args.option), "rungs_named": args.rungs,
            "no_honours": args.no_honours, "seed": args.seed, "index": i,
            "hand": hand, "recommended": a.recommended, "rungs": rungs,
            "seconds": round(time.perf_counter() - t, 1)}


def pooled(values: list[tuple[float, float, int]]) -> tuple[float, float, int]:
    """Deal-weighted mean of per-hand means, with the SE of that mean from the per-hand SEs."""
    n = sum(k for _, _, k in values)
    if n == 0:
        return math.nan, math.nan, 0
    mean = sum(m * k for m, _, k in values) / n
    var = sum((k * s) ** 2 for _, s, k in values if not math.isnan(s)) / n ** 2
    return mean, math.sqrt(var), n


def pool(paths: list[str]) -> dict:
    """Per (rules, family, figure): the pooled shift, its SE, deals and hands."""
    by: dict[tuple[str, str, str], list[tuple[float, float, int]]] = defaultdict(list)
    hands: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        for line in Path(path).read_text().splitlines():
            rec = json.loads(line)
            # named rungs on chosen hands are a different population from contending ones
            label = rec["rules"] + (", named rungs" if rec.get("rungs_named") else "")
            hands[label].add(rec["hand"])
            for r in rec["rungs"].values():
                for f in FIGURE_NAMES:
                    st = r[f]
                    by[(label, r["family"], f)].append(
                        (st["ev_diff"], st["ev_diff_se"], st["deals"]))
    table = {}
    for (rules, fam, f), v in sorted(by.items()):
        mean, se, deals = pooled(v)
        table.setdefault((rules, fam), {"rungs": len(v)})[f] = (mean, se, deals)
    return {"table": table, "hands": {k: len(v) for k, v in hands.items()}}


def print_pool(paths: list[str]) -> None:
    """The pooled table in Markdown, one row per rule set and rung family."""
    out = pool(paths)
    print("hands per rule set: " + ", ".join(f"{k} {v}" for k, v in out["hands"].items()))
    print("| rules | rung family | " + " | ".join(f.replace("_", " ") for f in FIGURE_NAMES)
          + " | rungs | deals |")
    print("|---|---|" + "---:|" * (len(FIGURE_NAMES) + 2))
    for (rules, fam), row in out["table"].items():
        cells = [f"{row[f][0]:+.1f} ± {row[f][1]:.1f}" for f in FIGURE_NAMES]
        print(f"| {rules} | {fam} | " + " | ".join(cells)
              + f" | {row['rungs']} | {row[FIGURE_NAMES[0]][2]} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--random", type=int, default=12)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--rules", default="boston_foster")
    ap.add_argument("--turnup", default=None)
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--no-honours", action="store_true",
                    help="only hands without an ace, king, queen or jack")
    ap.add_argument("--rungs", help="bracket these rung ids (comma-separated), contending or not")
    ap.add_argument("--out", help="append one JSON line per hand; hands already there are skipped")
    ap.add_argument("--pool", nargs="+", metavar="JSONL", help="pool these files and print")
    args = ap.parse_args()
    if args.pool:
        print_pool(args.pool)
        return
    if not args.out:
        ap.error("--out FILE is needed (or --pool FILES)")
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["index"] for line in out.read_text().splitlines()}
    deal = honourless_hands if args.no_honours else deal_hands
    hands = deal(args.random, args.seed)
    for i, hand in enumerate(hands):
        if i in done:
            continue
        rec = hand_record(i, hand, args)
        with out.open("a") as fh:
            fh.write(json.dumps(rec) + "\n")
        print(f"{i + 1}/{len(hands)} {hand} {rec['recommended']} {list(rec['rungs'])} "
              f"{rec['seconds']} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
