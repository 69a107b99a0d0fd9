"""Benchmark of ``boston-sim bid``: samples per second over the full ladder of
classic Boston, time to a recommendation at the default settings with a cold and a warm
numba cache, and the speed-up from 1 to 2 threads.

    .venv/bin/python benchmarks/bench_bid.py                 # everything
    .venv/bin/python benchmarks/bench_bid.py --skip-cold     # only the in-process figures
    .venv/bin/python benchmarks/bench_bid.py --samples 100 --hands AJ64.KT3.Q852.K7
    .venv/bin/python benchmarks/bench_bid.py --typical 8 --skip-cold --samples 0   # typical hands

``--typical N`` deals N random hands (seeded) and times the warm default ``bid`` of each
(what "a typical hand" costs: median and spread); ``--samples 0`` skips the throughput part.

Cold = a fresh subprocess whose ``NUMBA_CACHE_DIR`` is a new empty directory (what a user
pays once after installing); warm = a fresh subprocess reusing that filled directory. Both
run the real command line (``boston-sim bid HAND --json``) and are timed from outside.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HANDS = ["AJ64.KT3.Q852.K7", "AKQT5.K82.A7.QJ3", "K9.QJ954.T82.A76"]


def cli_time(hand: str, cache_dir: str, extra: list[str]) -> tuple[float, dict]:
    """Wall time of one ``boston-sim bid`` process and its JSON output."""
    exe = ROOT / ".venv" / "bin" / "boston-sim"
    cmd = [str(exe) if exe.exists() else "boston-sim", "bid", hand, "--json", "--quiet", *extra]
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    t0 = time.perf_counter()
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    dt = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(f"bid failed: {res.stderr.strip()}")
    return dt, json.loads(res.stdout)


def in_process(hands: list[str], samples: int, threads: int, seed: int) -> dict:
    """Samples per second of analyze() on the full classic-Boston ladder (warm kernels)."""
    from boston_sim.analysis import analyze

    total_time = 0.0
    total_samples = 0
    per_hand = []
    for h in hands:
        t0 = time.perf_counter()
        a = analyze(h, samples=samples, seed=seed, threads=threads)
        dt = time.perf_counter() - t0
        total_time += dt
        total_samples += a.samples
        per_hand.append({"hand": h, "seconds": round(dt, 3), "solves": a.solves,
                         "recommended": a.recommended})
    return {"threads": threads, "samples_per_hand": samples,
            "samples_per_second": total_samples / total_time, "seconds": total_time,
            "per_hand": per_hand}


def typical_hands(n: int, seed: int, cache: str | None) -> dict:
    """Warm default ``bid`` (300 samples, both threads) of ``n`` random hands."""
    import random
    import statistics

    from boston_sim.analysis import ac_se
    from boston_sim.cards import card_mask, format_hand

    rng = random.Random(seed)
    deck = [card_mask(s, r) for s in range(4) for r in range(14, 1, -1)]
    hands = [format_hand(sum(rng.sample(deck, 13))) for _ in range(n)]
    own = cache or tempfile.mkdtemp(prefix="bench_bid_cache_")
    try:
        cli_time(hands[0], own, ["--samples", "4"])  # fill the cache (not timed)
        rows = []
        for h in hands:
            dt, d = cli_time(h, own, [])
            rated = [r for r in d["rungs"] if r["p_make_se"] is not None]
            # the plain SE is 0 where every sample agrees; the Agresti-Coull SE (what the
            # default mode's stopping rule uses) is not
            rows.append({"hand": h, "seconds": round(dt, 2), "recommended": d["recommended"],
                         "max_p_make_se": max(r["p_make_se"] for r in rated),
                         "max_p_make_se_ac": round(max(
                             ac_se(round(r["p_make"] * r["samples"]), r["samples"])
                             for r in rated), 4)})
            print(f"  ({len(rows)}/{n}) {h}: {dt:.1f} s", file=sys.stderr, flush=True)
    finally:
        if cache is None:
            shutil.rmtree(own, ignore_errors=True)
    secs = [r["seconds"] for r in rows]
    return {"hands": rows, "median_seconds": statistics.median(secs), "max_seconds": max(secs),
            "under_10s": sum(x < 10 for x in secs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", nargs="+", default=DEFAULT_HANDS)
    ap.add_argument("--samples", type=int, default=100, help="samples per hand (throughput)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-cold", action="store_true", help="skip the cold/warm CLI timings")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--typical", type=int, default=0,
                    help="time the warm default bid of this many random hands")
    ap.add_argument("--cache", default=None,
                    help="NUMBA_CACHE_DIR for the --typical runs (default: a filled temp dir)")
    args = ap.parse_args()

    out: dict = {"nproc": os.cpu_count(), "python": platform.python_version(),
                 "machine": platform.machine(), "started": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                         time.gmtime())}
    if not args.skip_cold:
        tmp = tempfile.mkdtemp(prefix="bench_bid_cache_")
        try:
            hand = args.hands[0]
            cold, d = cli_time(hand, tmp, [])
            warm, d2 = cli_time(hand, tmp, [])
            out["cli"] = {"hand": hand, "samples": d["samples"], "cold_seconds": round(cold, 2),
                          "warm_seconds": round(warm, 2), "recommended": d2["recommended"],
                          "max_p_make_se": max(r["p_make_se"] for r in d2["rungs"])}
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    if args.typical:
        out["typical"] = typical_hands(args.typical, args.seed, args.cache)

    runs = []
    if args.samples > 0:
        # warm the kernels of this process once (not timed)
        from boston_sim.analysis import analyze

        analyze(args.hands[0], samples=4, seed=0)
        runs = [in_process(args.hands, args.samples, t, args.seed) for t in (1, 2)]
        out["throughput"] = runs
        out["speedup_1_to_2"] = runs[1]["samples_per_second"] / runs[0]["samples_per_second"]

    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
        return
    print(f"nproc={out['nproc']} python={out['python']} {out['machine']} {out['started']}")
    if "cli" in out:
        c = out["cli"]
        print(f"bid {c['hand']} (default {c['samples']} samples): cold {c['cold_seconds']:.1f} s, "
              f"warm {c['warm_seconds']:.1f} s; max SE of P(make) {c['max_p_make_se']:.3f}; "
              f"recommended {c['recommended']}")
    for r in runs:
        print(f"threads={r['threads']}: {r['samples_per_second']:.1f} samples/s "
              f"({len(args.hands)} hands x {r['samples_per_hand']} samples in "
              f"{r['seconds']:.1f} s)")
        for ph in r["per_hand"]:
            print(f"    {ph['hand']}: {ph['seconds']:.2f} s, {ph['solves']} deal-solves, "
                  f"recommended {ph['recommended']}")
    if "typical" in out:
        t = out["typical"]
        for h in t["hands"]:
            print(f"typical {h['hand']}: warm bid {h['seconds']:.1f} s, recommended "
                  f"{h['recommended']}, max SE of P(make) {h['max_p_make_se']:.3f} "
                  f"(Agresti-Coull {h['max_p_make_se_ac']:.3f})")
        print(f"typical hands ({len(t['hands'])}): median {t['median_seconds']:.1f} s, "
              f"max {t['max_seconds']:.1f} s, under 10 s: {t['under_10s']}/{len(t['hands'])}")
    if runs:
        print(f"speed-up 1 -> 2 threads: {out['speedup_1_to_2']:.2f}x")


if __name__ == "__main__":
    main()
