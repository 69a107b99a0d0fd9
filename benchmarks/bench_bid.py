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

Hand sets (the speed goal's benchmark; these modes run alone, nothing else)::

    .venv/bin/python benchmarks/bench_bid.py --random 24 --seed 1 --max-seconds 60 --json > a.json
    .venv/bin/python benchmarks/bench_bid.py --named --max-seconds 120
    .venv/bin/python benchmarks/bench_bid.py --random 24 --seed 1 --compare a.json
    .venv/bin/python benchmarks/bench_bid.py --from-json b.json --compare a.json   # no run

``--random N --seed S`` deals N hands: hand i is ``random.Random(S).sample(deck, 13)``, the
i-th draw from one generator, the deck ordered S H D C and A down to 2 (the rule ``--typical``
uses; the hands are independent). ``--named``: the slow hands of the speed goal. Each is the
warm default ``bid`` (``analyze(hand, seed=0, seat=..., threads=...)``, in-process, after a
warm-up call not timed; the seat is eldest unless ``--seat``), so the solver's work counters
(``boston_sim.solver.work_counters``) give its expanded nodes and positions. Per hand: time,
recommendation, deal-solves, nodes; then p50 / p90 / max time and the count <= 10 s
(percentiles interpolate between ranks; a capped hand counts as infinitely slow).
``--max-seconds X`` runs each hand in a child process (``--one``, same warm-up) that is
killed X s after its warm-up: the hand prints as ``> X s`` and counts as over 10 s.
``--compare REF.json`` prints per-hand ratios (time, nodes) against an earlier ``--json``.
``--no-look-ahead`` scores each round before the next one's searches start (the same
numbers; the nodes then leave out the work run ahead that no round used).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HANDS = ["AJ64.KT3.Q852.K7", "AKQT5.K82.A7.QJ3", "K9.QJ954.T82.A76"]
# the speed goal's named hands: slow ones of the first survey, misère-like ones, two-suiters
NAMED_HANDS = ["962.42.A3.KJT962", "J74.872.AKQ863.5", "KT7.T73.K853.763", "KJ96.T7.T74.J843",
               "Q2.J62.K32.98643", "T9532.642.53.742", "AK8.KT73.KQ932.9", ".T5.J9854.JT9752",
               "32..QJT853.AK742"]
WARM_UP = ("AKQT5.K82.A7.QJ3", 2)  # a hand and samples: loads the kernels, costs little
GOAL_SECONDS = 10.0  # the speed goal: every hand within this


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


def deal_hands(n: int, seed: int) -> list[str]:
    """``n`` random 13-card hands: the i-th is the i-th ``random.Random(seed).sample`` of 13
    cards from the deck ordered S H D C, A down to 2."""
    from boston_sim.cards import card_mask, format_hand

    rng = random.Random(seed)
    deck = [card_mask(s, r) for s in range(4) for r in range(14, 1, -1)]
    return [format_hand(sum(rng.sample(deck, 13))) for _ in range(n)]


def typical_hands(n: int, seed: int, cache: str | None) -> dict:
    """Warm default ``bid`` (300 samples, both threads) of ``n`` random hands."""
    import statistics

    from boston_sim.analysis import ac_se

    hands = deal_hands(n, seed)
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


# --------------------------------------------------------------------------- hand sets


def warm_up(threads: int | None) -> None:
    """Load the solver's kernels into this process (not timed)."""
    from boston_sim.analysis import analyze

    analyze(WARM_UP[0], samples=WARM_UP[1], seed=0, threads=threads)


def measure(hand: str, seat: str, threads: int | None) -> dict:
    """One warm default ``bid`` of ``hand``, in this process: time and work."""
    from boston_sim.analysis import analyze
    from boston_sim.solver import reset_work_counters, work_counters

    reset_work_counters()
    t0 = time.perf_counter()
    a = analyze(hand, seed=0, seat=seat, threads=threads)
    dt = time.perf_counter() - t0
    work = work_counters()
    return {"hand": hand, "seat": seat, "seconds": round(dt, 3), "capped": False,
            "recommended": a.recommended, "samples": a.samples, "solves": a.solves,
            "nodes": work.nodes, "positions": work.positions, "jobs": work.jobs}


def measure_capped(hand: str, seat: str, threads: int | None, cap: float) -> dict:
    """``measure`` in a child process (``--one``), killed ``cap`` s after its warm-up."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", hand, "--seat", seat]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    from boston_sim.analysis import rounds

    if not rounds.LOOK_AHEAD:
        cmd.append("--no-look-ahead")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    ready = proc.stdout.readline().strip()
    if ready != "ready":
        proc.kill()
        raise SystemExit(f"bench child for {hand} failed before its warm-up ended")
    try:
        out, _ = proc.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return {"hand": hand, "seat": seat, "seconds": cap, "capped": True,
                "recommended": None, "samples": None, "solves": None, "nodes": None,
                "positions": None, "jobs": None}
    if proc.returncode != 0:
        raise SystemExit(f"bench child for {hand} failed (exit {proc.returncode})")
    return json.loads(out)


def one_hand(hand: str, seat: str, threads: int | None) -> None:
    """The child of ``measure_capped``: warm up, say ``ready``, print the measure as JSON."""
    warm_up(threads)
    print("ready", flush=True)
    print(json.dumps(measure(hand, seat, threads)), flush=True)


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile, interpolated between ranks (an infinite value stays infinite)."""
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    if math.isinf(xs[hi]):
        return math.inf
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarise(rows: list[dict]) -> dict:
    """p50 / p90 / max time (capped hands count as infinitely slow) and the count <= 10 s."""
    secs = [math.inf if r["capped"] else r["seconds"] for r in rows]
    done = [r for r in rows if not r["capped"]]

    def num(x: float) -> float | None:
        return None if math.isinf(x) else round(x, 2)

    return {"hands": len(rows), "p50_seconds": num(quantile(secs, 0.5)),
            "p90_seconds": num(quantile(secs, 0.9)), "max_seconds": num(max(secs)),
            "within_goal": sum(x <= GOAL_SECONDS for x in secs), "capped": len(rows) - len(done),
            "nodes": sum(r["nodes"] for r in done), "solves": sum(r["solves"] for r in done)}


def run_hand_set(hands: list[str], args: argparse.Namespace) -> dict:
    """Time the warm default ``bid`` of every hand (progress on stderr)."""
    if args.max_seconds is None:
        warm_up(args.threads)
    rows = []
    for i, h in enumerate(hands, 1):
        if args.max_seconds is None:
            rows.append(measure(h, args.seat, args.threads))
        else:
            rows.append(measure_capped(h, args.seat, args.threads, args.max_seconds))
        print(f"  ({i}/{len(hands)}) {format_row(rows[-1], args.max_seconds)}",
              file=sys.stderr, flush=True)
    return {"hands": rows, "summary": summarise(rows)}


def format_seconds(x: float | None, cap: float | None) -> str:
    return f"> {cap:g} s" if x is None else f"{x:.1f} s"


def format_row(r: dict, cap: float | None) -> str:
    if r["capped"]:
        return f"{r['hand']:<20} > {cap:g} s (capped)"
    return (f"{r['hand']:<20} {r['seconds']:6.1f} s  {r['recommended'] or '-':<10} "
            f"{r['solves']:>6} solves {r['nodes']:>13,} nodes")


def print_hand_set(out: dict) -> None:
    cap = out["meta"].get("max_seconds")
    for r in out["set"]["hands"]:
        print(format_row(r, cap))
    s = out["set"]["summary"]
    print(f"{s['hands']} hands: p50 {format_seconds(s['p50_seconds'], cap)}, "
          f"p90 {format_seconds(s['p90_seconds'], cap)}, "
          f"max {format_seconds(s['max_seconds'], cap)}; <= {GOAL_SECONDS:g} s: "
          f"{s['within_goal']}/{s['hands']}; capped {s['capped']}; "
          f"{s['solves']:,} solves, {s['nodes']:,} nodes (uncapped hands)")


def _ratio(new: float | None, old: float | None) -> float | None:
    return None if new is None or old is None or old == 0 else new / old


def compare(out: dict, ref: dict) -> dict:
    """Per-hand ratios new / reference of time and nodes (hands matched by hand and seat)."""
    old = {(r["hand"], r["seat"]): r for r in ref["set"]["hands"]}
    rows = []
    for r in out["set"]["hands"]:
        o = old.get((r["hand"], r["seat"]))
        if o is None:
            continue
        rows.append({"hand": r["hand"], "seat": r["seat"],
                     "time_ratio": None if r["capped"] or o["capped"]
                     else _ratio(r["seconds"], o["seconds"]),
                     "node_ratio": _ratio(r["nodes"], o["nodes"]),
                     "capped": [o["capped"], r["capped"]]})
    logs = [math.log(x["time_ratio"]) for x in rows if x["time_ratio"]]
    nlogs = [math.log(x["node_ratio"]) for x in rows if x["node_ratio"]]
    return {"hands": rows,
            "geomean_time_ratio": math.exp(sum(logs) / len(logs)) if logs else None,
            "geomean_node_ratio": math.exp(sum(nlogs) / len(nlogs)) if nlogs else None,
            "reference_summary": ref["set"]["summary"]}


def print_compare(c: dict) -> None:
    def fmt(x: float | None) -> str:
        return "   -  " if x is None else f"{x:6.2f}"

    print("ratios new / reference (time, nodes):")
    for r in c["hands"]:
        note = "" if not any(r["capped"]) else f"  capped (ref, new): {r['capped']}"
        print(f"  {r['hand']:<20} {fmt(r['time_ratio'])} {fmt(r['node_ratio'])}{note}")
    print(f"  geometric mean: time {fmt(c['geomean_time_ratio'])}, "
          f"nodes {fmt(c['geomean_node_ratio'])} over {len(c['hands'])} hands")


def hand_set_main(args: argparse.Namespace, meta: dict) -> None:
    """``--random`` / ``--named`` / ``--from-json``: run (or read) a hand set, print it."""
    if args.from_json:
        out = json.loads(Path(args.from_json).read_text(encoding="utf-8"))
    else:
        hands = NAMED_HANDS if args.named else deal_hands(args.random, args.seed)
        meta |= {"mode": "named" if args.named else "random", "seed": args.seed,
                 "seat": args.seat, "threads": args.threads, "max_seconds": args.max_seconds,
                 "loadavg_before": os.getloadavg()}
        out = {"meta": meta, "set": run_hand_set(hands, args)}
        out["meta"]["loadavg_after"] = os.getloadavg()
    if args.compare:
        out["compare"] = compare(out, json.loads(Path(args.compare).read_text(encoding="utf-8")))
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
        return
    print_hand_set(out)
    if "compare" in out:
        print_compare(out["compare"])


def add_hand_set_args(ap: argparse.ArgumentParser) -> None:
    """The options of the hand-set modes (see the module docstring)."""
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="time the warm default bid of N random hands dealt from --seed")
    ap.add_argument("--named", action="store_true",
                    help="time the nine slow hands of the speed goal (docs/PERFORMANCE.md)")
    ap.add_argument("--seat", default="eldest", help="seat of the hand sets (default eldest)")
    ap.add_argument("--threads", type=int, default=None,
                    help="solver threads of the hand sets (default: all cores)")
    ap.add_argument("--max-seconds", type=float, default=None, metavar="X",
                    help="kill a hand after X s (it prints as '> X s', over the goal)")
    ap.add_argument("--compare", default=None, metavar="REF.json",
                    help="per-hand ratios against an earlier --json output")
    ap.add_argument("--from-json", default=None, metavar="RUN.json",
                    help="read a hand-set run instead of running one (with --compare)")
    ap.add_argument("--no-look-ahead", action="store_true",
                    help="score each round before the next starts (rounds.LOOK_AHEAD off): "
                         "the same numbers, for a side-by-side time")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)  # the --max-seconds child


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
    add_hand_set_args(ap)
    args = ap.parse_args()
    if args.no_look_ahead:
        import boston_sim.analysis.rounds as rounds

        rounds.LOOK_AHEAD = False
    if args.one:
        one_hand(args.one, args.seat, args.threads)
        return

    out: dict = {"nproc": os.cpu_count(), "python": platform.python_version(),
                 "machine": platform.machine(), "started": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                         time.gmtime())}
    if args.random or args.named or args.from_json:
        hand_set_main(args, out)
        return
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
