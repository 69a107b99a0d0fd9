"""Batch throughput: hands per minute at a fixed number of samples, with 1 and 2 local workers.

    .venv/bin/python benchmarks/bench_batch.py [--hands 12] [--samples 100] [--rules boston_foster]
                                            [--workers 1 2] [--seed 0] [--json]

Each configuration runs ``boston_sim.batch.run_batch`` on the same generated file of random
hands (seeded, so every run analyses the same hands with the same seeds) into a fresh
temporary directory. Before timing, one untimed hand is analysed in this process so that the
numba cache is warm on disk; worker processes still pay their own start-up (imports, cache
load), which is part of what a user waits for, so it is included in the timing.

Prints one line per worker count: wall seconds, hands per minute, and the speed-up over the
first configuration. Results of the runs are compared byte for byte (they must be identical).

``--overhead`` replaces the analysis by :func:`_no_analysis` (rows of constants, no sampling,
no solving) to measure what the batch machinery itself costs per hand: reading, process
start-up and messaging, one fsynced write per hand, the final sort and the summary. Its
figures are NOT analysis throughput.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path


def _random_hands(n: int, seed: int) -> list[str]:
    import numpy as np

    from boston_sim.cards import FULL_DECK, cards_of, format_hand

    deck = np.array(cards_of(FULL_DECK))
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        mask = 0
        for c in rng.choice(deck, size=13, replace=False):
            mask |= 1 << int(c)
        out.append(format_hand(mask))
    return out


def _no_analysis(job):  # type: ignore[no-untyped-def]
    """Overhead mode: the rows a 7-rung ladder would produce, filled with constants."""
    from boston_sim.batch import HandResult

    s = job.settings
    rows = [{"hand_id": job.index, "label": job.label, "rules": s.rules_id, "seat": s.seat,
             "hand": job.hand, "rung": f"r{k}", "name": f"rung {k}", "rank": k, "trump": "S",
             "p_make": 0.5, "p_make_se": 0.05, "mean_tricks": 6.0, "ev_per_adversary": 1.0,
             "ev_per_adversary_se": 0.1, "ev_net": 3.0, "ev_net_se": 0.3, "p_loss_gt": 0.4,
             "cvar5": -30.0, "recommended": k == 0, "n_rungs": 7, "samples": 0,
             "seed": s.seed, "runner_up": "r1", "diff_se": 0.2} for k in range(7)]
    return HandResult(job.index, job.line, rows=rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--rules", default="boston_foster")
    ap.add_argument("--turnup", default=None, help="turn-up card (solo_whist_foster, russian)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--overhead", action="store_true",
                    help="no analysis: measure the batch machinery only")
    args = ap.parse_args()

    from boston_sim.analysis import analyze
    from boston_sim.batch import run_batch

    hands = _random_hands(args.hands, args.seed)
    t = time.perf_counter()
    if not args.overhead:
        analyze(hands[0], rules=args.rules, samples=2, seed=0, turnup=args.turnup)
    warm = time.perf_counter() - t
    kwargs = {"fn": _no_analysis} if args.overhead else {}

    results = []
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "hands.txt"
        src.write_text("".join(f"{h}\n" for h in hands), encoding="utf-8")
        first_bytes = None
        for w in args.workers:
            out = Path(d) / f"w{w}.csv"
            t = time.perf_counter()
            s = run_batch(src, out, rules=args.rules, samples=args.samples, seed=args.seed,
                          workers=w, turnup=args.turnup, **kwargs)
            dt = time.perf_counter() - t
            data = out.read_bytes()
            same = first_bytes is None or data == first_bytes
            first_bytes = first_bytes or data
            results.append({"workers": w, "seconds": round(dt, 2),
                            "hands_per_minute": round(60 * s.analysed / dt, 2),
                            "failed": s.failed, "identical_to_first": same})
    base = results[0]["seconds"]
    for r in results:
        r["speedup"] = round(base / r["seconds"], 2)
    info = {"hands": args.hands, "samples": args.samples, "rules": args.rules,
            "mode": "overhead only (no analysis)" if args.overhead else "analysis",
            "nproc": os.cpu_count(), "load_avg_1min": round(os.getloadavg()[0], 2),
            "warm_up_seconds": round(warm, 2), "runs": results}
    if args.json:
        print(json.dumps(info, indent=2))
        return
    print(f"[{info['mode']}] {args.hands} hands x {args.samples} samples, {args.rules}, "
          f"nproc {os.cpu_count()}, "
          f"load {info['load_avg_1min']} (warm-up {warm:.1f} s)")
    for r in results:
        print(f"  workers {r['workers']}: {r['seconds']:8.2f} s  {r['hands_per_minute']:8.2f} "
              f"hands/min  speed-up {r['speedup']:.2f}  identical {r['identical_to_first']}"
              f"  failed {r['failed']}")


if __name__ == "__main__":
    main()
