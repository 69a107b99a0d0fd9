"""Fuzzing the boundaries: every command and the Python API, fed bad and edge inputs, either
works or fails with a one-line error; it exits 0, 1, 2 or 130, prints no traceback, and a
command that fails leaves no new file behind.

A small fast set runs by default. The whole set (many more generated inputs, and the cases
that start a process each) is marked ``fuzz`` and runs with ``pytest -m fuzz``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import boston_sim.analysis
from boston_sim.batch import read_jobs
from boston_sim.cli import app
from boston_sim.errors import BostonSimError
from boston_sim.outputs import check_output
from boston_sim.rules import load_rules

runner = CliRunner()
QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only
RULES = Path(__file__).resolve().parents[2] / "data" / "rules"
DEAL = "N:AKQ2.JT9.876.543 JT98.AKQ.AKQ.AKQ 7654.8765.5432.2 3.432.JT9.JT9876"
HAND = "KQJT9.AK.QJ2.432"
EXIT_CODES = {0, 1, 2, 130}
FAST_EXAMPLES = 25
FULL_EXAMPLES = 400


def _full(request) -> bool:
    return "fuzz" in (request.config.getoption("markexpr") or "")


@pytest.fixture
def full_only(request):
    if not _full(request):
        pytest.skip("part of the whole fuzz set: pytest -m fuzz")


@pytest.fixture(params=["fast", pytest.param("full", marks=pytest.mark.fuzz)])
def full(request) -> bool:
    """Each generated test runs twice: a few examples by default, many under ``-m fuzz``."""
    if request.param == "full" and not _full(request):
        pytest.skip("part of the whole fuzz set: pytest -m fuzz")
    return request.param == "full"


def _examples(full: bool) -> settings:
    return settings(max_examples=FULL_EXAMPLES if full else FAST_EXAMPLES, deadline=None,
                    derandomize=True, suppress_health_check=list(HealthCheck))


@contextmanager
def _cwd(path: Path):
    old = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def _check(args: list[str], where: Path) -> None:
    """Run ``boston-sim ARGS`` in ``where``: a clean exit code, no traceback, no new file
    left by a failure."""
    before = set(where.rglob("*"))
    with _cwd(where):
        res = runner.invoke(app, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        args, repr(res.exception))
    assert res.exit_code in EXIT_CODES, (args, res.exit_code, res.output)
    assert "Traceback" not in res.output, (args, res.output)
    if res.exit_code != 0:
        err = res.stderr.strip().splitlines()
        assert len(err) >= 1 and all(len(line) < 400 for line in err), (args, err)
    # a batch that ran with failed rows (exit 1) reports them in its files; any other
    # failure leaves nothing behind
    if res.exit_code == 2 or (res.exit_code == 1 and args[0] != "batch"):
        assert set(where.rglob("*")) == before, (args, set(where.rglob("*")) - before)


# --------------------------------------------------------------------------- the table


def _setup(d: Path) -> None:
    (d / "h.txt").write_text(f"{HAND}\n", encoding="utf-8")
    (d / "bad.csv").write_text(f'hand,label\n{HAND},"open\n{HAND},b\n', encoding="utf-8")
    (d / "latin.txt").write_bytes(f"{HAND} | eldest | caf\u00e9\n".encode("latin-1"))
    (d / "arrays.jsonl").write_text("[1]\n[2, 3]\n", encoding="utf-8")
    (d / "deep.jsonl").write_text("[" * 3000 + "]" * 3000 + "\n", encoding="utf-8")
    (d / "twice.pbn").write_text(f'[Deal "N:{HAND} {HAND} - -"]\n', encoding="utf-8")
    (d / "adir").mkdir()
    (d / "afile").write_text("x", encoding="utf-8")
    (d / "bom.toml").write_text("\ufeff" + QUICK.read_text(encoding="utf-8"), encoding="utf-8")


Q = ["--rules", str(QUICK), "--turnup", "H2"]
BQ = [*Q, "--samples", "4", "--workers", "1", "--no-progress"]
TABLE: list[list[str]] = [
    ["bid", HAND, "-n", "4", "-q", "--plot", "x.jpg"],
    ["bid", HAND, "-n", "4", "-q", "--csv", "missing_dir/x.csv"],
    ["bid", HAND, "-n", "4", "-q", "--csv", "adir"],
    ["bid", HAND, "-n", "4", "-q", "--csv", "afile/x.csv"],
    ["bid", HAND, "-n", "4", "-q", "--csv", "n" * 300 + ".csv"],
    ["bid", HAND, "-n", "4", "-q", "--csv", "/dev/full"],
    ["bid", HAND, "-n", "4", "-q", "--seed", "-1"],
    ["bid", HAND, "-n", "4", "-q", "--seed", str(2**64)],
    ["bid", HAND, "-n", str(10**12), "-q"],
    ["bid", HAND, "-n", "1", "-q"],
    ["bid", HAND, "-n", "4", "-q", "--risk", "nan"],
    ["bid", HAND, "-n", "4", "-q", "--risk", "-inf"],
    ["bid", HAND, "-n", "4", "-q", "--threads", "0"],
    ["bid", HAND, "-n", "4", "-q", "--max-time", "nan"],
    ["bid", HAND, "-n", "4", "-q", "-o", "pool=1e308"],
    ["bid", HAND, "-n", "4", "-q", "-o", "payments=martian"],
    ["bid", HAND, "-n", "4", "-q", "-o", "=x"],
    ["bid", HAND, "-n", "4", "-q", "-c", "second:S>=" + "9" * 4301],
    ["bid", HAND, "-n", "4", "-q", "--known", "SA@" + "x" * 2000],
    ["bid", "A" * 130_000, "-q"],
    ["bid", "\x00\udcff", "-q"],
    ["bid", HAND, "-q", "--rules", "r" * 251],
    ["bid", HAND, "-q", "--rules", "/dev/zero.toml"],
    ["bid", HAND, "-n", "4", "-q", "--rules", "bom.toml", "--turnup", "H2", "--json"],
    ["solve", DEAL, "-t", "S", "--kind", "at_least", "--target", str(2**63)],
    ["solve", DEAL, "-t", "S", "--kind", "at_least", "--target", "-1"],
    ["solve", DEAL, "-t", "X"],
    ["solve", "N:" + "A" * 5000, "-t", "S"],
    ["solve", "--file", "adir", "-t", "S"],
    ["solve", "--file", "latin.txt", "-t", "S"],
    ["solve", "--file", "missing.txt", "-t", "S"],
    ["rules", "r" * 251],
    ["rules", "bom.toml"],
    ["rules", "boston_foster", "-o", "pool=1e308"],
    ["rules", "boston_foster", "-o", "pool=" + "9" * 5000],
    ["batch", "h.txt", "--out", "h.txt", *BQ],
    ["batch", "h.txt", "--out", "r.xlsx", *BQ],
    ["batch", "h.txt", "--out", "adir", *BQ],
    ["batch", "h.txt", "--out", "afile/r.csv", *BQ],
    ["batch", "h.txt", "--out", "n" * 300 + ".csv", *BQ],
    ["batch", "h.txt", "--out", "r.csv", *BQ, "-o", "pool=martian"],
    ["batch", "h.txt", "--out", "r.csv", *Q, "--samples", "1", "--workers", "1"],
    ["batch", "h.txt", "--out", "r.csv", *BQ, "--workers", "0"],
    ["batch", "h.txt", "--out", "r.csv", *BQ, "--seed", "-1"],
    ["batch", "h.txt", "--out", "r.csv", *BQ, "--risk-threshold", "inf"],
    ["batch", "bad.csv", "--out", "r.csv", *BQ],
    ["batch", "latin.txt", "--out", "r.csv", *BQ],
    ["batch", "deep.jsonl", "--out", "r.csv", *BQ],
    ["batch", "twice.pbn", "--out", "r.csv", *BQ],
    ["batch", "adir", "--out", "r.csv", *BQ],
    ["batch", "missing.txt", "--out", "r.csv", *BQ],
    ["plot", "adir", "--out", "p.png"],
    ["plot", "arrays.jsonl", "--out", "p.png"],
    ["plot", "h.txt", "--out", "p.jpg"],
    ["plot", "missing.parquet"],
]
FAST_TABLE = {0, 4, 8, 11, 14, 19, 24, 31, 35, 36, 40, 45, 46, 51}


def _case_id(args: list[str]) -> str:
    return " ".join(a if len(a) < 24 else a[:20] + "..." for a in args)


@pytest.mark.parametrize("i", sorted(FAST_TABLE), ids=lambda i: _case_id(TABLE[i]))
def test_table_fast(tmp_path, i):
    _setup(tmp_path)
    _check(TABLE[i], tmp_path)


@pytest.mark.fuzz
@pytest.mark.parametrize("i", [i for i in range(len(TABLE)) if i not in FAST_TABLE],
                         ids=lambda i: _case_id(TABLE[i]))
def test_table_full(tmp_path, full_only, i):
    _setup(tmp_path)
    _check(TABLE[i], tmp_path)


# --------------------------------------------------------------------------- generated

_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)
_junk = st.one_of(_text, st.sampled_from(["-1", "0", "1", "nan", "inf", "-inf", "1e308",
                                          str(2**63), str(2**70), "9" * 50, "", " ", "\x00"]))


def _run_generated(full: bool, tmp_path: Path, make_args) -> None:
    _setup(tmp_path)

    @_examples(full)
    @given(make_args)
    def prop(args):
        with mock.patch.object(boston_sim.analysis, "analyze",
                               side_effect=BostonSimError("stub: no analysis in the fuzz")):
            _check(args, tmp_path)

    prop()


def test_generated_bid_options(full, tmp_path):
    opts = st.sampled_from(["--seed", "--samples", "--risk", "--threads", "--max-time",
                            "--precision", "--seat", "--rules", "--turnup", "--partner",
                            "--constraint", "--known", "--option", "--csv", "--plot"])
    _run_generated(full, tmp_path, st.lists(st.tuples(opts, _junk), max_size=3).map(
        lambda pairs: ["bid", HAND, "-q", *[x for p in pairs for x in p]]))


def test_generated_solve_arguments(full, tmp_path):
    args = st.tuples(st.one_of(_text, st.just(DEAL)), st.sampled_from(["S", "H", "NT", "x"]),
                     st.sampled_from(["at_least", "at_most", "exactly"]), _junk)
    _run_generated(full, tmp_path, args.map(
        lambda a: ["solve", a[0] or "x", "-t", a[1], "--kind", a[2], "--target", a[3]]))


def test_generated_batch_options(full, tmp_path):
    opts = st.sampled_from(["--seed", "--samples", "--workers", "--format", "--input-format",
                            "--out", "--seat", "--rules", "--turnup", "--pbn-seat",
                            "--risk-threshold", "--max-time", "--option"])
    _run_generated(full, tmp_path, st.lists(st.tuples(opts, _junk), max_size=3).map(
        lambda pairs: ["batch", "h.txt", "--no-progress", "--workers", "1",
                       *[x for p in pairs for x in p]]))


@pytest.mark.parametrize("fmt", ["text", "csv", "jsonl", "pbn"])
def test_generated_input_files_read_or_fail_cleanly(full, tmp_path, fmt):
    lines = st.lists(st.one_of(_text, st.sampled_from([HAND, f'[Deal "{DEAL}"]', "hand",
                                                        '"', "{", "[", "\ufeff"])), max_size=8)
    data = st.one_of(st.binary(max_size=200), lines.map(lambda x: "\n".join(x).encode()))
    f = tmp_path / "in"

    @_examples(full)
    @given(data)
    def prop(content):
        f.write_bytes(content)
        try:
            jobs, bad, n = read_jobs(f, input_format=fmt)
        except BostonSimError:
            return
        assert n >= len(jobs) + 0 and all(isinstance(b.reason, str) for b in bad)

    prop()


def test_generated_rule_files_load_or_fail_cleanly(full, tmp_path):
    base = (RULES / "boston_foster.toml").read_bytes()
    f = tmp_path / "r.toml"
    edit = st.tuples(st.integers(0, len(base)), st.integers(0, 40), st.binary(max_size=12))

    @_examples(full)
    @given(st.lists(edit, min_size=1, max_size=4))
    def prop(edits):
        data = base
        for at, cut, ins in edits:
            data = data[:at] + ins + data[at + cut:]
        f.write_bytes(data)
        try:
            load_rules(f)
        except BostonSimError:
            pass

    prop()


def test_generated_output_paths_are_checked_cleanly(full, tmp_path):
    _setup(tmp_path)
    names = st.one_of(_text, st.sampled_from(["adir", "afile/x.csv", "h.txt", "/dev/null",
                                              "/proc/self/status", "x" * 300, "a/b/c.csv"]))

    @_examples(full)
    @given(names, st.sampled_from([None, (".csv",), (".png", ".svg", ".pdf")]))
    def prop(name, suffixes):
        try:
            with _cwd(tmp_path):
                check_output(name, "--out", suffixes=suffixes, inputs=[tmp_path / "h.txt"])
        except BostonSimError:
            pass

    prop()


# --------------------------------------------------------------------------- processes


def _proc(args: list[str], **kw) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", "from boston_sim.cli import main; main()", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


@pytest.mark.fuzz
@pytest.mark.parametrize("args", [
    ["batch", "/dev/zero", "--input-format", "text", "--out", "r.csv", "--no-progress"],
    ["solve", "--file", "/dev/zero", "-t", "S"],
    ["bid", HAND, "-n", "4", "-q", "--csv", "/dev/full"],
    ["batch", "/proc/self/status", "--input-format", "text", "--out", "r.csv", *BQ],
], ids=lambda a: _case_id(a))
def test_process_cases(tmp_path, full_only, args):
    before = set(tmp_path.iterdir())
    proc = _proc(args, cwd=tmp_path)
    assert proc.returncode in EXIT_CODES and "Traceback" not in proc.stderr, proc.stderr
    if proc.returncode == 2 or (proc.returncode == 1 and args[0] != "batch"):
        assert set(tmp_path.iterdir()) == before
