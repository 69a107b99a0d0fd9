"""A batch loses nothing and damages nothing: its outputs are checked before any work, a
resume refuses results made from another input or other settings, malformed input is an
error with a line number, missing extras are named before any file exists, and worker
processes neither print tracebacks on Ctrl-C nor outlive their parent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import alive as _alive
from helpers import children as _children
from typer.testing import CliRunner

from boston_sim.batch import output_paths, read_jobs, run_batch
from boston_sim.cli import app
from boston_sim.errors import BostonSimError

runner = CliRunner()
QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only
FAST = {"rules": str(QUICK), "turnup": "H2", "samples": 4}
CLI_FAST = ["--rules", str(QUICK), "--turnup", "H2", "--samples", "4", "--workers", "1",
            "--no-progress"]
HANDS = ["AKQJT98.AK.A2.32", "5432.543.543.543", "KQJT9.AK.QJ2.432"]


def _hands(tmp_path: Path, n: int = 2, name: str = "h.txt") -> Path:
    f = tmp_path / name
    f.write_text("".join(f"{HANDS[i % len(HANDS)]}\n" for i in range(n)), encoding="utf-8")
    return f


def _batch(*args: str):
    return runner.invoke(app, ["batch", *args])


def _files(d: Path) -> set[str]:
    return {p.name for p in d.iterdir()}


def _usage_error(res) -> str:
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    err = res.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    return err


def test_an_output_over_the_input_is_refused(tmp_path):
    f = _hands(tmp_path)
    before = f.read_bytes()
    err = _usage_error(_batch(str(f), "--out", str(f), *CLI_FAST))
    assert "input" in err
    assert f.read_bytes() == before and _files(tmp_path) == {"h.txt"}


@pytest.mark.parametrize("out, needle", [
    ("r.xlsx", "format"),
    ("missing/r.csv", "does not exist"),
    ("adir", "is a directory"),
])
def test_unwritable_outputs_are_refused_before_any_file(tmp_path, out, needle):
    f = _hands(tmp_path)
    (tmp_path / "adir").mkdir()
    err = _usage_error(_batch(str(f), "--out", str(tmp_path / out), *CLI_FAST))
    assert needle in err
    assert _files(tmp_path) == {"h.txt", "adir"}  # no <dir>.tmp, no half-written sidecars
    assert list((tmp_path / "adir").iterdir()) == []


@pytest.mark.parametrize("out", ["", ".", "/"])
def test_an_output_without_a_file_name_is_a_usage_error(tmp_path, monkeypatch, out):
    f = _hands(tmp_path)
    monkeypatch.chdir(tmp_path)
    err = _usage_error(_batch(str(f), "--out", out, *CLI_FAST))
    assert "must name a file" in err
    assert _files(tmp_path) == {"h.txt"}


def test_per_row_usage_errors_are_usage_errors_before_work(tmp_path):
    f = _hands(tmp_path)
    args = ["--rules", str(QUICK), "--turnup", "H2", "--workers", "1", "--no-progress"]
    for extra, needle in [(["-o", "pool=martian", "--samples", "4"], "pool"),
                          (["--samples", "1"], "--samples")]:
        err = _usage_error(_batch(str(f), "--out", str(tmp_path / "r.csv"), *args, *extra))
        assert needle in err
    assert _files(tmp_path) == {"h.txt"}


def test_formats_of_one_name_do_not_share_sidecar_files(tmp_path):
    f = tmp_path / "h.txt"
    csv_paths = output_paths(f, tmp_path / "r.csv", None)
    pq_paths = output_paths(f, tmp_path / "r.parquet", None)
    jl_paths = output_paths(f, tmp_path / "r.jsonl", None)
    sides = [{p.errors, p.meta, p.summary} for p in (csv_paths, pq_paths, jl_paths)]
    assert not (sides[0] & sides[1]) and not (sides[0] & sides[2]) and not (sides[1] & sides[2])


@pytest.mark.parametrize("module, args, needle", [
    ("pyarrow", ["--out", "r.parquet"], "boston-sim[parquet]"),
    ("distributed", ["--out", "r.csv", "--scheduler", "tcp://127.0.0.1:1"], "boston-sim[dask]"),
])
def test_a_missing_extra_is_named_before_any_file(tmp_path, monkeypatch, module, args, needle):
    f = _hands(tmp_path)
    monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.chdir(tmp_path)
    err = _usage_error(_batch(str(f), *args, *CLI_FAST))
    assert needle in err
    assert _files(tmp_path) == {"h.txt"}


def test_resume_refuses_an_edited_input(tmp_path):
    f = _hands(tmp_path, 2)
    out = tmp_path / "r.csv"
    run_batch(f, out, seed=9, workers=1, **FAST)
    f.write_text(f"{HANDS[2]}\n{HANDS[1]}\n", encoding="utf-8")
    with pytest.raises(BostonSimError, match="input file's content changed"):
        run_batch(f, out, seed=9, workers=1, resume=True, **FAST)


def test_resume_without_meta_still_refuses_other_hands_or_seeds(tmp_path):
    f = _hands(tmp_path, 2)
    out = tmp_path / "r.csv"
    s = run_batch(f, out, seed=9, workers=1, **FAST)
    kept = out.read_bytes()
    Path(output_paths(f, out, None).meta).unlink()
    with pytest.raises(BostonSimError, match="seed differ"):
        run_batch(f, out, seed=10, workers=1, resume=True, **FAST)
    f.write_text(f"{HANDS[2]}\n{HANDS[1]}\n", encoding="utf-8")
    with pytest.raises(BostonSimError, match="hand differ"):
        run_batch(f, out, seed=9, workers=1, resume=True, **FAST)
    assert out.read_bytes() == kept and s.done == 2


def test_resume_with_the_same_input_and_settings_still_works(tmp_path):
    f = _hands(tmp_path, 2)
    out = tmp_path / "r.csv"
    run_batch(f, out, seed=9, workers=1, **FAST)
    again = run_batch(f, out, seed=9, workers=1, resume=True, **FAST)
    assert (again.skipped, again.analysed) == (2, 0)
    meta = json.loads(output_paths(f, out, None).meta.read_text(encoding="utf-8"))
    assert len(meta["input_sha256"]) == 64


def test_an_unterminated_quote_is_an_error_with_a_line_number(tmp_path):
    f = tmp_path / "h.csv"
    f.write_text(f'hand,label\n{HANDS[0]},"open\n{HANDS[1]},b\n{HANDS[2]},c\n', encoding="utf-8")
    err = _usage_error(_batch(str(f), "--out", str(tmp_path / "r.csv"), *CLI_FAST))
    assert "line" in err and "CSV" in err
    assert _files(tmp_path) == {"h.csv"}


@pytest.mark.parametrize("content, name, needle", [
    (b"\xff\xfeA\x00K\x00\n\x00", "h.txt", "UTF-8"),
    ("AKQJT98.AK.A2.32 | eldest | caf\u00e9\n".encode("latin-1"), "h.txt", "UTF-8"),
    (b"hand,label\n" + HANDS[0].encode() + b',"' + (b"x" * 5000 + b"\n") * 30 + b'"\n',
     "h.csv", "CSV"),
    (b"A" * 20_000 + b"\n", "h.txt", "longer than"),
])
def test_unreadable_inputs_are_one_line_errors(tmp_path, content, name, needle):
    f = tmp_path / name
    f.write_bytes(content)
    err = _usage_error(_batch(str(f), "--out", str(tmp_path / "r.csv"), *CLI_FAST))
    assert needle in err and len(err) < 300


def test_deeply_nested_json_is_a_bad_row_not_a_traceback(tmp_path):
    f = tmp_path / "h.jsonl"
    f.write_text("[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    jobs, bad, n = read_jobs(f, input_format="jsonl")
    assert (jobs, n) == ([], 1) and "nested" in bad[0].reason


def test_a_pbn_deal_with_a_card_in_two_hands_is_rejected(tmp_path):
    f = tmp_path / "d.pbn"
    f.write_text('[Deal "N:AKQ2.JT9.876.543 AKQ2.JT9.876.543 - -"]\n', encoding="utf-8")
    jobs, bad, n = read_jobs(f)
    assert jobs == [] and n == 4 and "two hands" in bad[0].reason


def test_plot_of_a_directory_without_results_writes_nothing(tmp_path):
    d = tmp_path / "empty.parquet"
    d.mkdir()
    res = runner.invoke(app, ["plot", str(d), "--out", str(tmp_path / "p.png")])
    assert "no results" in _usage_error(res)
    arrays = tmp_path / "a.jsonl"
    arrays.write_text("[1, 2]\n[3]\n", encoding="utf-8")
    res = runner.invoke(app, ["plot", str(arrays), "--out", str(tmp_path / "q.png")])
    _usage_error(res)
    bad = tmp_path / "c.parquet"
    bad.write_bytes(b"PAR1 not really")
    res = runner.invoke(app, ["plot", str(bad), "--out", str(tmp_path / "r.png")])
    assert "Parquet" in _usage_error(res)
    assert _files(tmp_path) == {"empty.parquet", "a.jsonl", "c.parquet"}


# --------------------------------------------------------------------------- processes

SLOW_HANDS = ["KQ.AJ975.K84.Q63", "T.J6.AQT9876.AQ8", "AK8.KQT75.5.KJT9", "QJ976.A98.KJ.765"]


def _start_two_workers(tmp_path: Path) -> tuple[subprocess.Popen, list[int]]:
    f = tmp_path / "h.txt"
    f.write_text("".join(f"{SLOW_HANDS[i % 4]}\n" for i in range(40)), encoding="utf-8")
    cmd = [sys.executable, "-c", "from boston_sim.cli import main; main()", "batch", str(f),
           "--out", str(tmp_path / "r.csv"), "--samples", "200", "--workers", "2",
           "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        out = tmp_path / "r.csv"
        workers = [c for c in _children(proc.pid) if "spawn_main" in
                   Path(f"/proc/{c}/cmdline").read_bytes().decode(errors="replace")]
        if len(workers) >= 2 and out.exists() and out.stat().st_size > 0:
            return proc, workers
        time.sleep(0.5)
    proc.kill()
    pytest.fail("the workers did not start")


@pytest.mark.slow
def test_workers_exit_when_their_parent_is_killed(tmp_path):
    proc, workers = _start_two_workers(tmp_path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.5)
    left = [w for w in workers if _alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert left == []


@pytest.mark.slow
def test_ctrl_c_on_two_workers_prints_no_traceback(tmp_path):
    proc, workers = _start_two_workers(tmp_path)
    os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
    _, err = proc.communicate(timeout=60)
    text = err.decode(errors="replace")
    assert proc.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.5)
    assert not any(_alive(w) for w in workers)


def test_resume_over_a_corrupt_or_foreign_parquet_part_is_a_clean_error(tmp_path):
    f = _hands(tmp_path, 2)
    out = tmp_path / "r.parquet"
    run_batch(f, out, seed=9, workers=1, **FAST)
    parts = tmp_path / ".r.parquet.parts"
    parts.mkdir()
    (parts / "hand-abc.parquet").write_bytes(b"x")  # not a part name: ignored
    again = run_batch(f, out, seed=9, workers=1, resume=True, **FAST)
    assert (again.skipped, again.analysed) == (2, 0)
    out.write_bytes(b"PAR1 corrupt")
    with pytest.raises(BostonSimError, match="not a readable Parquet file"):
        run_batch(f, out, seed=9, workers=1, resume=True, **FAST)


def test_a_run_that_fails_before_any_hand_leaves_no_file(tmp_path, monkeypatch):
    import boston_sim.batch.run as run_mod

    f = _hands(tmp_path, 2)

    def unreachable(*a, **k):
        raise BostonSimError("cannot reach the Dask scheduler at tcp://127.0.0.1:1")

    monkeypatch.setattr(run_mod, "execute", unreachable)
    with pytest.raises(BostonSimError, match="Dask"):
        run_batch(f, tmp_path / "r.csv", seed=9, workers=1, **FAST)
    assert _files(tmp_path) == {"h.txt"}
