#!/usr/bin/env python3
"""Start-up cost of boston-sim, measured in fresh subprocesses (median of several runs).

What is measured (wall-clock seconds):

* ``python -c pass``                 the interpreter alone (baseline for the rest);
* ``import boston_sim``              the package root (lazy: should cost next to nothing);
* ``import boston_sim.cards``        the notation layer (pulls in numpy);
* ``boston-sim --help`` / ``--version``  the console script (must not import numpy/numba);
* solver, cold: import + first ``solve`` + first ``solve_batch`` with an EMPTY numba cache
  (``NUMBA_CACHE_DIR`` = a fresh temporary directory per run), i.e. the compile time a user
  pays once after installing;
* solver, warm: the same with that cache present (every later run).

The solver part runs only when ``boston_sim.solver`` is importable. Timings inside the solver
probe are taken with ``time.perf_counter`` in the child; "process" is the child's whole life.

Usage::

    .venv/bin/python benchmarks/bench_startup.py [--repeats 7] [--cold-repeats 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# A 5-card ending and a full deal: the cold numbers are dominated by compilation, so a small
# position keeps the search itself out of the figure; the full deal shows a realistic first bid.
ENDING = "N:AKQ.J.2. JT.A..32 98.K.A.4 7.Q.K.A5"
FULL_DEAL = "N:AKQ2.JT9.876.543 JT9.876.543.AKQ2 876.543.AKQ2.JT9 543.AKQ2.JT9.876"

SOLVER_PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import boston_sim.solver as S
from boston_sim.cards import parse_deal
t1 = time.perf_counter()
S.solve(sys.argv[1], "S", "N", "N")
t2 = time.perf_counter()
S.solve(sys.argv[1], "H", "E", "N")
t3 = time.perf_counter()
batch = np.stack([parse_deal(sys.argv[1])] * 2)
S.solve_batch(batch, 0, 0, 0b0001)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "first_solve": t2 - t1, "second_solve": t3 - t2,
                  "first_solve_batch": t4 - t3}))
"""


def _run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """Wall time of one subprocess run and its stdout; a failing run aborts the benchmark."""
    t = time.perf_counter()
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env, timeout=1800)
    dt = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return dt, proc.stdout


def _median_of(cmd: list[str], repeats: int) -> dict[str, float]:
    _run(cmd)  # warm the OS file cache and the .pyc files; not counted
    times = [_run(cmd)[0] for _ in range(repeats)]
    return {"median": statistics.median(times), "min": min(times), "max": max(times), "n": repeats}


def _solver_probe(deal: str, cache_dir: str) -> dict[str, float] | str:
    """Timings of one solver start-up, or a description of how the child failed."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", SOLVER_PROBE, deal],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        # a crash is a result worth reporting (e.g. a segfault loading the numba cache)
        how = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
        last = (proc.stderr.strip().splitlines() or [""])[-1][:120]
        return f"child failed ({how}) after {wall:.1f} s: {last}"
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["process"] = wall
    return res


def _medians(runs: list[dict[str, float] | str]) -> dict[str, object]:
    ok = [r for r in runs if isinstance(r, dict)]
    out: dict[str, object] = {k: statistics.median(r[k] for r in ok) for k in ok[0]} if ok else {}
    out["failures"] = [r for r in runs if isinstance(r, str)]
    out["runs"] = len(runs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs per light measurement")
    ap.add_argument("--cold-repeats", type=int, default=2, help="runs with an empty numba cache")
    ap.add_argument("--warm-repeats", type=int, default=5, help="runs with the cache present")
    ap.add_argument("--no-solver", action="store_true", help="skip the solver measurements")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()

    py = sys.executable
    script = str(Path(py).with_name("boston-sim"))
    results: dict[str, object] = {
        "python": platform.python_version(),
        "nproc": os.cpu_count(),
        "platform": platform.platform(),
    }
    light = {
        "python -c pass": [py, "-c", "pass"],
        "import boston_sim": [py, "-c", "import boston_sim"],
        "import boston_sim.cards": [py, "-c", "import boston_sim.cards"],
        "boston-sim --help": [script, "--help"],
        "boston-sim --version": [script, "--version"],
    }
    if not Path(script).exists():
        print(f"note: {script} not found; timing the CLI through python -c", file=sys.stderr)
        for key, argv in (("boston-sim --help", "--help"), ("boston-sim --version", "--version")):
            light[key] = [
                py,
                "-c",
                (
                    f"import sys; sys.argv=['boston-sim','{argv}'];"
                    "from boston_sim.cli import main; main()"
                ),
            ]
    results["light"] = {name: _median_of(cmd, args.repeats) for name, cmd in light.items()}

    solver_ok = False
    if not args.no_solver:
        check = subprocess.run(
            [py, "-c", "import boston_sim.solver"], check=False, capture_output=True
        )
        solver_ok = check.returncode == 0
        if not solver_ok:
            print(
                "note: boston_sim.solver is not importable; solver timings skipped", file=sys.stderr
            )
    if solver_ok:
        solver: dict[str, object] = {}
        for label, deal in (("ending5", ENDING), ("full13", FULL_DEAL)):
            cold_runs, warm_runs = [], []
            for _ in range(args.cold_repeats):
                cache = tempfile.mkdtemp(prefix="numba-cache-")
                try:
                    cold_runs.append(_solver_probe(deal, cache))
                    if not warm_runs:  # the cache just filled serves the warm runs
                        warm_runs = [_solver_probe(deal, cache) for _ in range(args.warm_repeats)]
                finally:
                    shutil.rmtree(cache, ignore_errors=True)
            solver[label] = {"cold": _medians(cold_runs), "warm": _medians(warm_runs)}
            if label == "ending5" and args.cold_repeats > 1:
                args.cold_repeats = 1  # compile time does not depend on the deal: once is enough
        results["solver"] = solver

    if args.json:
        json.dump(results, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    print(f"python {results['python']}, nproc {results['nproc']}, {results['platform']}")
    print("| measurement | median s | min s | max s | runs |")
    print("|---|---:|---:|---:|---:|")
    for name, r in results["light"].items():  # type: ignore[union-attr]
        print(f"| `{name}` | {r['median']:.3f} | {r['min']:.3f} | {r['max']:.3f} | {r['n']} |")
    if solver_ok:
        print()
        print(
            "| solver start-up (median s) | import | first solve | second solve "
            "| first solve_batch | whole process |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for label, r in results["solver"].items():  # type: ignore[union-attr]
            for kind in ("cold", "warm"):
                m = r[kind]
                head = f"| {label}, {kind} cache ({m['runs']} runs"
                if len(m["failures"]) == m["runs"]:
                    print(f"{head}, all failed) | - | - | - | - | {m['failures'][0]} |")
                    continue
                fails = f", {len(m['failures'])} failed" if m["failures"] else ""
                print(
                    f"{head}{fails}) | {m['import']:.2f} "
                    f"| {m['first_solve']:.2f} | {m['second_solve']:.3f} "
                    f"| {m['first_solve_batch']:.2f} | {m['process']:.2f} |"
                )


if __name__ == "__main__":
    main()
