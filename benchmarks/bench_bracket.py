"""Benchmark of ``bid --bracket``: what the double-dummy bracket costs, per figure.

    .venv/bin/python benchmarks/bench_bracket.py --random 8 --seed 11
    .venv/bin/python benchmarks/bench_bracket.py --random 8 --seed 11 --deals 12 --layouts 8

Deals ``--random N`` hands with ``--seed S`` (the rule of ``bench_bid.py --random``), and for
each runs the warm default analysis with the bracket (in-process, after a warm-up call that
is not timed), then prints: the analysis's own time, the bracket's time, and per figure its
seconds and positions solved per replayed deal (the figures share a table of solved
positions, so a position solved for one figure is free for the next). The double-dummy
figure re-solves the deals the analysis solved: its cost is the reference for the others.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_bid import WARM_UP, deal_hands  # noqa: E402

from boston_sim.analysis import analyze  # noqa: E402
from boston_sim.analysis.bracket import FIGURES  # noqa: E402


def one(hand: str, args: argparse.Namespace) -> dict:
    """The warm default analysis of ``hand`` with the bracket: times and per-figure costs."""
    t0 = time.perf_counter()
    a = analyze(hand, seed=0, bracket=True, bracket_deals=args.deals,
                bracket_layouts=args.layouts, threads=args.threads)
    total = time.perf_counter() - t0
    br = a.bracket
    per = {f: {"seconds": sum(c[f]["seconds"] for c in br.cost.values()),
               "solves": sum(c[f]["solves"] for c in br.cost.values())} for f in FIGURES}
    deals = max(1, br.deals * len(br.rungs))
    return {"hand": hand, "recommended": a.recommended, "total_s": total,
            "bracket_s": br.elapsed, "analysis_s": total - br.elapsed, "rungs": list(br.rungs),
            "deals": br.deals, "changes": br.changes_recommendation,
            "per_deal": {f: {"seconds": v["seconds"] / deals, "solves": v["solves"] / deals}
                         for f, v in per.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--random", type=int, default=8, help="hands to deal")
    ap.add_argument("--seed", type=int, default=11, help="seed of the hands")
    ap.add_argument("--deals", type=int, default=None, help="--bracket-deals (default: its)")
    ap.add_argument("--layouts", type=int, default=None, help="--bracket-layouts")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args()
    analyze(WARM_UP[0], samples=WARM_UP[1], bracket=True, bracket_deals=1, bracket_layouts=2)
    rows = []
    for hand in deal_hands(args.random, args.seed):
        rows.append(one(hand, args))
        if not args.json:
            r = rows[-1]
            print(f"{r['hand']:<20} {r['recommended'] or '-':<13} analysis {r['analysis_s']:6.1f} s"
                  f"  bracket {r['bracket_s']:6.1f} s  rungs {len(r['rungs'])}  "
                  f"changes {'yes' if r['changes'] else 'no'}", flush=True)
    meta = {"machine": platform.platform(), "cpus": os.cpu_count(),
            "python": sys.version.split()[0], "seed": args.seed, "hands": args.random}
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows}, indent=1))
        return
    totals = [r["total_s"] for r in rows]
    print(f"bid --bracket total: median {statistics.median(totals):.1f} s, "
          f"max {max(totals):.1f} s over {len(rows)} hands ({meta['machine']}, "
          f"{meta['cpus']} cpus)")
    print(f"{'figure':<24}{'s / deal':>10}{'solves / deal':>15}{'x double-dummy':>16}")
    ref = statistics.mean(r["per_deal"]["double_dummy"]["seconds"] for r in rows) or 1e-9
    for f in FIGURES:
        s = statistics.mean(r["per_deal"][f]["seconds"] for r in rows)
        n = statistics.mean(r["per_deal"][f]["solves"] for r in rows)
        print(f"{f:<24}{s:>10.2f}{n:>15.0f}{s / ref:>16.1f}")


if __name__ == "__main__":
    main()
