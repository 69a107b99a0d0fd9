"""Interrupted batch runs lose nothing: a run killed with SIGKILL mid-way and resumed gives the
same files as an uninterrupted run; torn trailing lines and incomplete hands are dropped on
resume; Parquet parts are all-or-nothing; resuming with other settings is refused."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.batch import load_results, run_batch
from boston_sim.cli import app

QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only
FAST = {"rules": str(QUICK), "turnup": "H2", "samples": 4}
HANDS = [
    "AKQJT98.AK.A2.32", "5432.543.543.543", "KQJT9.AK.QJ2.432", "AKQJT9876.AKQ.A.",
    "KQ.AJ975.K84.Q63", "T.J6.AQT9876.AQ8", "AK8.KQT75.5.KJT9", "QJ976.A98.KJ.765",
    "73.9864.J863.A75", "64.JT5.KQ4.KQ964", "52.QJ73.T975.JT8", "AKQ.AKQ.AKQ.AKQJ",
]
N_RUNGS = 2  # the quick test ladder: Solo, Misère


def _input(tmp_path: Path, n: int) -> Path:
    f = tmp_path / "hands.txt"
    f.write_text("".join(f"{HANDS[i % len(HANDS)]} | {('eldest', 'second', 'third')[i % 3]} | "
                         f"h{i}\n" for i in range(n)), encoding="utf-8")
    return f


def _reference(tmp_path: Path, f: Path, fmt: str = "csv") -> tuple[bytes, bytes]:
    ref = tmp_path / "ref"
    ref.mkdir()
    s = run_batch(f, ref / f"r.{fmt}", seed=9, workers=1, **FAST)
    assert s.failed == 0
    return Path(s.results).read_bytes(), Path(s.summary).read_bytes()


def test_sigkill_mid_run_then_resume_equals_uninterrupted(tmp_path: Path) -> None:
    n = 24
    f = _input(tmp_path, n)
    out = tmp_path / "run" / "r.csv"
    out.parent.mkdir()
    cmd = [sys.executable, "-c", "from boston_sim.cli import main; main()", "batch", str(f),
           "--out", str(out), "--seed", "9", "--rules", str(QUICK), "--turnup", "H2",
           "--samples", "4", "--workers", "1", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    killed_with_rows = 0
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists():
                rows = out.read_bytes().count(b"\n") - 1  # minus the header
                if rows >= 2 * N_RUNGS:
                    os.killpg(proc.pid, signal.SIGKILL)
                    killed_with_rows = rows
                    break
            time.sleep(0.02)
    finally:
        if proc.poll() is None and not killed_with_rows:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    assert killed_with_rows, f"the run ended before it could be killed: {proc.stderr.read()!r}"
    assert proc.returncode == -signal.SIGKILL
    partial = load_results(out)
    assert 2 <= partial["hand_id"].nunique() < n  # really interrupted mid-way

    res = CliRunner().invoke(app, ["batch", str(f), "--out", str(out), "--seed", "9",
                                   "--rules", str(QUICK), "--turnup", "H2",
                                   "--samples", "4", "--workers", "1", "--no-progress",
                                   "--resume"])
    assert res.exit_code == 0, res.output
    assert "kept from before" in res.output
    rows, summary = _reference(tmp_path, f)
    assert out.read_bytes() == rows
    assert (tmp_path / "run" / "r.summary.csv").read_bytes() == summary
    df = load_results(out)
    assert sorted(df["hand_id"].unique()) == list(range(n))
    assert (df.groupby("hand_id").size() == N_RUNGS).all()


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_torn_and_incomplete_tails_are_dropped_on_resume(tmp_path: Path, fmt: str) -> None:
    f = _input(tmp_path, 3)
    rows, summary = _reference(tmp_path, f, fmt)
    lines = rows.splitlines(keepends=True)
    header = 1 if fmt == "csv" else 0
    last_hand_start = sum(len(x) for x in lines[: header + 2 * N_RUNGS])
    cuts = [
        len(rows) - 5,                                          # inside the very last line
        last_hand_start + len(lines[header + 2 * N_RUNGS]),     # one whole row of hand 2 only
        last_hand_start + 3,                                    # a few bytes of hand 2
        sum(len(x) for x in lines[: header + N_RUNGS + 2]),     # hand 1 incomplete, no hand 2
    ]
    for cut in cuts:
        out = tmp_path / f"cut{cut}.{fmt}"
        out.write_bytes(rows[:cut])
        s = run_batch(f, out, seed=9, workers=1, resume=True, **FAST)
        assert s.failed == 0
        assert out.read_bytes() == rows, cut
        assert Path(s.summary).read_bytes() == summary
        assert s.skipped == (2 if cut >= last_hand_start else 1)


def test_parquet_parts_resume(tmp_path: Path) -> None:
    """Parquet results are one file in row groups; a killed run keeps its finished hands as
    hidden part files that a resume merges."""
    import pyarrow.parquet as pq

    from boston_sim.batch import analyze_one

    f = _input(tmp_path, 3)
    ref = run_batch(f, tmp_path / "ref.parquet", seed=9, workers=1, **FAST)
    assert Path(ref.results).is_file() and pq.ParquetFile(ref.results).num_row_groups >= 1
    out = tmp_path / "r.parquet"

    def killed_at_hand_1(job):
        if job.index == 1:
            raise KeyboardInterrupt
        return analyze_one(job)

    with pytest.raises(KeyboardInterrupt):
        run_batch(f, out, seed=9, workers=1, fn=killed_at_hand_1, **FAST)
    parts = tmp_path / ".r.parquet.parts"
    assert [p.name for p in parts.glob("hand-*.parquet")] == ["hand-000000.parquet"]
    (parts / "hand-000002.parquet.tmp").write_bytes(b"torn")  # a write that never got renamed
    s = run_batch(f, out, seed=9, workers=1, resume=True, **FAST)
    assert (s.skipped, s.analysed) == (1, 2)
    assert not parts.exists() and out.is_file()
    a, b = load_results(ref.results), load_results(out)
    assert a.equals(b)


def test_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    f = _input(tmp_path, 1)
    out = tmp_path / "r.csv"
    run_batch(f, out, seed=9, workers=1, **FAST)
    res = CliRunner().invoke(app, ["batch", str(f), "--out", str(out), "--seed", "10",
                                   "--rules", str(QUICK), "--turnup", "H2",
                                   "--samples", "4", "--workers", "1", "--resume"])
    assert res.exit_code == 2
    assert "cannot resume" in res.output and "seed" in res.output


def test_resume_reads_the_settings_stored_by_earlier_versions(tmp_path: Path) -> None:
    """A meta.json without the newer settings fields, with a null seat where the run named
    none, still resumes; a setting that differs is still refused, by name."""
    import json

    f = _input(tmp_path, 2)
    out = tmp_path / "r.csv"
    s = run_batch(f, out, seed=9, workers=1, **FAST)
    assert s.done == 2
    meta = tmp_path / "r.meta.json"
    old = {"input": str(f), "input_format": "text", "format": "csv", "rules": str(QUICK),
           "seat": None, "options": {}, "samples": 4, "seed": 9, "pbn_seat": "all",
           "risk_threshold": 0.0, "turnup": "H2", "max_time": None, "version": "0.1.0"}
    meta.write_text(json.dumps(old), encoding="utf-8")
    again = run_batch(f, out, seed=9, workers=1, resume=True, **FAST)
    assert (again.skipped, again.analysed, again.done) == (2, 0, 2)
    meta.write_text(json.dumps({**old, "samples": 5}), encoding="utf-8")
    with pytest.raises(ValueError, match="samples 5 -> 4"):
        run_batch(f, out, seed=9, workers=1, resume=True, **FAST)
