"""Durability under kill -9 and Ctrl-C at random moments: 21 trials over every output format,
one and two workers; each interrupted run, resumed, gives exactly the results of an
uninterrupted run, and no worker outlives a killed parent. Part of the whole fuzz set
(``pytest -m fuzz``): each trial starts a process."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import alive as _alive
from helpers import children as _children

from boston_sim.batch import load_results, run_batch

QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only
FAST = {"rules": str(QUICK), "turnup": "H2", "samples": 4}
HANDS = [
    "AKQJT98.AK.A2.32", "5432.543.543.543", "KQJT9.AK.QJ2.432", "AKQJT9876.AKQ.A.",
    "KQ.AJ975.K84.Q63", "T.J6.AQT9876.AQ8", "AK8.KQT75.5.KJT9", "QJ976.A98.KJ.765",
]
N_HANDS = 16
TRIALS = 21
FORMATS = ("csv", "jsonl", "parquet")
CHILD_EXIT_S = 20  # a worker notices its parent's death within about a second


def _same(a: Path, b: Path, fmt: str) -> bool:
    if fmt == "parquet":
        return load_results(a).equals(load_results(b))
    return a.read_bytes() == b.read_bytes()


@pytest.mark.fuzz
def test_kill_and_ctrl_c_then_resume_equal_an_uninterrupted_run(tmp_path, request):
    if "fuzz" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("part of the whole fuzz set: pytest -m fuzz")
    f = tmp_path / "h.txt"
    f.write_text("".join(f"{HANDS[i % len(HANDS)]}\n" for i in range(N_HANDS)), encoding="utf-8")
    refs = {}
    for fmt in FORMATS:
        (tmp_path / "ref").mkdir(exist_ok=True)
        refs[fmt] = Path(run_batch(f, tmp_path / "ref" / f"r.{fmt}", seed=5, workers=1,
                                   **FAST).results)
    rng = random.Random(20)
    for trial in range(TRIALS):
        fmt, workers = FORMATS[trial % 3], 1 + trial % 2
        sig = signal.SIGKILL if trial % 2 == 0 else signal.SIGINT
        d = tmp_path / f"t{trial}"
        d.mkdir()
        out = d / f"r.{fmt}"
        cmd = [sys.executable, "-c", "from boston_sim.cli import main; main()", "batch", str(f),
               "--out", str(out), "--seed", "5", "--rules", str(QUICK), "--turnup", "H2",
               "--samples", "4", "--workers", str(workers), "--no-progress"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        time.sleep(rng.uniform(0.5, 6.0))
        kids = _children(proc.pid)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=120)
        text = err.decode(errors="replace")
        assert "Traceback" not in text, (trial, text)
        assert proc.returncode in (0, 130, -signal.SIGKILL), (trial, proc.returncode, text)
        deadline = time.monotonic() + CHILD_EXIT_S
        while time.monotonic() < deadline and any(_alive(k) for k in kids):
            time.sleep(0.3)
        assert not any(_alive(k) for k in kids), (trial, "orphaned workers")
        s = run_batch(f, out, seed=5, workers=1, resume=True, **FAST)
        assert s.failed == 0 and s.done == N_HANDS, trial
        assert _same(out, refs[fmt], fmt), (trial, fmt, workers, sig)
