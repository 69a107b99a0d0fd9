"""Every input, output and process boundary of the commands: outputs checked before any work,
written whole or not at all; numbers within their documented ranges; I/O, decoding and
parser failures as one-line errors with exit 2 (usage) or 1 (failure), never a traceback."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import app_raising as _app_raising
from typer.testing import CliRunner

import boston_sim.analysis
from boston_sim.cli import app

runner = CliRunner()
HAND = "KQJT9.AK.QJ2.432"
QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"  # Solo + Misère only


@pytest.fixture
def no_analysis(monkeypatch):
    """Fail the test if an analysis starts: the error must come before any work."""

    def refuse(*a, **k):
        raise AssertionError("the analysis ran before the error")

    monkeypatch.setattr(boston_sim.analysis, "analyze", refuse)


def _bid(*args: str):
    return runner.invoke(app, ["bid", HAND, "--samples", "4", "-q", *args])


def _one_line_error(res, code: int = 2) -> str:
    assert res.exit_code == code, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    err = res.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err, err
    return err


@pytest.mark.parametrize("opt, name, needle", [
    ("--plot", "x.jpg", "format"),
    ("--plot", "x", "format"),
    ("--csv", "x.xlsx", "format"),
    ("--csv", "missing_dir/x.csv", "does not exist"),
])
def test_bad_output_names_fail_before_the_analysis(tmp_path, monkeypatch, no_analysis,
                                                   opt, name, needle):
    monkeypatch.chdir(tmp_path)
    err = _one_line_error(_bid(opt, name))
    assert needle in err
    assert list(tmp_path.iterdir()) == []


def test_outputs_that_are_directories_devices_or_through_files_are_refused(
        tmp_path, no_analysis):
    (tmp_path / "d.csv").mkdir()
    (tmp_path / "f").write_text("x")
    fifo = tmp_path / "p.csv"
    os.mkfifo(fifo)
    for target, needle in [
        (tmp_path / "d.csv", "is a directory"),
        (tmp_path / "f" / "x.csv", "not a directory"),
        (fifo, "not a regular file"),
        (tmp_path / ("n" * 300 + ".csv"), "longer than 255"),
    ]:
        err = _one_line_error(_bid("--csv", str(target)))
        assert needle in err, err
    assert stat_is_fifo(fifo)


def stat_is_fifo(p: Path) -> bool:
    import stat

    return stat.S_ISFIFO(os.stat(p).st_mode)


def test_an_output_that_is_an_input_is_refused(tmp_path, no_analysis):
    rules = tmp_path / "r.csv"
    rules.write_bytes(QUICK.read_bytes())
    before = rules.read_bytes()
    err = _one_line_error(_bid("--rules", str(rules), "--csv", str(rules)))
    assert "input" in err
    assert rules.read_bytes() == before


@pytest.mark.parametrize("args, needle", [
    (["--seed", "-1"], "--seed"),
    (["--seed", str(2**63)], "--seed"),
    (["--risk", "nan"], "--risk"),
    (["--risk", "inf"], "--risk"),
    (["--samples", str(10**12)], "--samples"),
    (["--samples", "1"], "--samples"),
    (["--threads", "0"], "--threads"),
    (["--max-time", "inf"], "--max-time"),
    (["--precision", "0"], "--precision"),
    (["-o", "pool=1e308"], "limit"),
    (["--constraint", "second:S>=" + "9" * 4301], "characters"),
])
def test_numbers_beyond_their_range_are_usage_errors_before_work(no_analysis, args, needle):
    # --samples is given by _bid; a second one wins (typer takes the last)
    res = runner.invoke(app, ["bid", HAND, "-q", *args])
    err = _one_line_error(res)
    assert needle in err


def test_a_huge_hand_is_echoed_at_most_80_characters(no_analysis):
    res = runner.invoke(app, ["bid", "A" * 130_000, "-q"])
    err = _one_line_error(res)
    assert len(err) < 300


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    import boston_sim.views

    out = tmp_path / "t.csv"
    out.write_text("old\n")

    def full(analysis, path, **kw):
        Path(path).write_text("partial")
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(boston_sim.views, "write_csv", full)
    res = runner.invoke(app, ["bid", HAND, "--rules", str(QUICK), "--turnup", "H2",
                              "--samples", "4", "-q", "--csv", str(out)])
    err = _one_line_error(res, code=1)
    assert "No space left" in err and ".tmp" not in err and str(out) in err
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]


def test_solve_target_beyond_13_tricks_is_a_usage_error():
    deal = "N:AKQ2.JT9.876.543 JT98.AKQ.AKQ.AKQ 7654.8765.5432.2 3.432.JT9.JT9876"
    for target in (str(2**63), "-1", "14"):
        res = runner.invoke(app, ["solve", deal, "-t", "S", "--kind", "at_least",
                                  "--target", target])
        assert "--target" in _one_line_error(res)


def _cli(*args: str, stdin=None, env=None, timeout=120, **kw) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", "from boston_sim.cli import main; main()", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, stdin=stdin, **kw)


def test_solve_file_without_line_ends_stops_at_the_line_limit():
    proc = _cli("solve", "--file", "/dev/zero", "-t", "S", timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "longer than" in proc.stderr and "Traceback" not in proc.stderr


def test_stdout_on_a_full_device_is_a_one_line_failure():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-c", "from boston_sim.cli import main; main()",
                               "rules", "--json"], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr


def test_closed_stdout_is_a_one_line_failure():
    code = "from boston_sim.cli import main; main()"
    proc = subprocess.run(["bash", "-c", f'"{sys.executable}" -c "{code}" rules >&-'],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "standard output is closed" in proc.stderr and "Traceback" not in proc.stderr


def test_an_ascii_terminal_gets_letters_not_a_traceback():
    deal = "N:AKQ2.JT9.876.543 JT98.AKQ.AKQ.AKQ 7654.8765.5432.2 3.432.JT9.JT9876"
    proc = _cli("solve", deal, "-t", "S", "--json", env={"PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0, proc.stderr
    proc = _cli("rules", "boston_foster", env={"PYTHONIOENCODING": "ascii"})
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("exc, code, needle", [
    (OSError(errno.ENOSPC, "No space left on device", "r.csv"), 1, "No space left"),
    (OSError(errno.EROFS, "Read-only file system", "r.csv"), 1, "Read-only"),
    (OSError(errno.ENAMETOOLONG, "File name too long", "r" * 300), 2, "too long"),
    (NotADirectoryError(errno.ENOTDIR, "Not a directory", "f/x"), 2, "Not a directory"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), 2, "UTF-8"),
    (RecursionError("maximum recursion depth exceeded"), 2, "nested too deeply"),
    (MemoryError(), 1, "out of memory"),
])
def test_os_decoding_and_resource_errors_are_one_line(exc, code, needle):
    res = runner.invoke(_app_raising(exc), [])
    err = _one_line_error(res, code)
    assert needle in err and len(err) < 200


_SOLVABLE = "N:AKQJ.AKQJ.AKQJ.A T987.T987.T987.K 6543.6543.6543.Q 2.2.2.JT98765432"


@pytest.mark.parametrize("name, value, needle", [
    ("BOSTON_SIM_FAIL_COUNT_RATE", "abc", "a number above 0 and at most 1, got 'abc'"),
    ("BOSTON_SIM_MISERE_COUNT_RATE", "0", "a number above 0 and at most 1, got '0'"),
    ("BOSTON_SIM_MAKE_COUNT_RATE", "1.5", "a number above 0 and at most 1, got '1.5'"),
    ("BOSTON_SIM_TWO_PHASE_MIN_FAIL_SHARE", "nan", "a number from 0 to 1, got 'nan'"),
    ("BOSTON_SIM_TT_BITS", "40", "a whole number from 12 to 26, got '40'"),
    ("BOSTON_SIM_CONTROL_VARIATES", "off", "0 or 1, got 'off'"),
])
def test_a_malformed_environment_override_is_a_one_line_error(name, value, needle):
    proc = _cli("solve", _SOLVABLE, "-t", "S", env={name: value})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == f"error: {name} must be {needle}\n"
    assert proc.stdout == ""
    # the package still imports: help works, and commands that do not analyse run
    assert _cli("--help", env={name: value}).returncode == 0
    assert _cli("rules", "--json", env={name: value}).returncode == 0


def test_a_malformed_override_stops_an_analysis_from_the_library_too():
    code = ("from boston_sim.errors import EnvironmentSettingError\n"
            "from boston_sim.settings import AnalysisSettings\n"
            "try:\n    AnalysisSettings()\nexcept EnvironmentSettingError as e:\n"
            "    print('refused:', e)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "BOSTON_SIM_FAIL_COUNT_RATE": "2"})
    assert proc.stdout.startswith("refused: BOSTON_SIM_FAIL_COUNT_RATE must be"), proc.stderr


def test_valid_environment_overrides_take_effect():
    code = ("from boston_sim import config as c\n"
            "print(c.SOLVER_TT_BITS, c.FAIL_COUNT_RATE, c.CONTROL_VARIATES, c.ENV_PROBLEMS)\n")
    env = {**os.environ, "BOSTON_SIM_TT_BITS": " 16 ", "BOSTON_SIM_FAIL_COUNT_RATE": "1",
           "BOSTON_SIM_CONTROL_VARIATES": "0"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env=env)
    assert proc.stdout.split() == ["16", "1.0", "False", "[]"], proc.stderr
    proc = _cli("solve", _SOLVABLE, "-t", "S", env={"BOSTON_SIM_TT_BITS": "16"})
    assert proc.returncode == 0 and "13 tricks" in proc.stdout, proc.stderr


@pytest.mark.parametrize("args", [
    ("bid", "KQJT9.AK.QJ2.432", "--samples", "1e9"),
    ("bid", "KQJT9.AK.QJ2.432", "--show-failures", "-1"),
    ("score", "eight", "-1"),
    ("partout", "a", "b", "c", "d"),
    ("nosuchcommand",),
])
def test_a_usage_error_that_click_finds_is_one_error_line(args) -> None:
    """Click reports a wrong option or argument as three lines (usage, hint, "Error: ...");
    the program prints one ``error:`` line naming the command's help, exit code 2."""
    proc = _cli(*args)
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "--help')" in lines[0] and "Traceback" not in proc.stderr


def test_no_arguments_at_all_show_the_help() -> None:
    proc = _cli()
    assert proc.returncode == 2 and proc.stderr.startswith("Usage: ")
    assert "Commands:" in proc.stderr and "error:" not in proc.stderr
    ok = _cli("rules", "--help")
    assert ok.returncode == 0 and ok.stdout.startswith("Usage: ") and ok.stderr == ""
