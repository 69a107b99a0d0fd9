"""A first run says that it compiles the solver: one line on stderr before the first search
that has to compile, nothing when the kernels are cached, stdout (JSON) untouched.

The in-process tests make the kernels look uncached (``kernels_cached`` patched, as on a fresh
install); the slow test runs the real thing in subprocesses with an empty numba cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import boston_sim.solver as solver
from boston_sim.cards import parse_deal
from boston_sim.cli import app
from boston_sim.cli.common import COMPILE_NOTICE

runner = CliRunner()
HAND = "KQJT9.AK.QJ2.432"
DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


@pytest.fixture
def cold(monkeypatch) -> None:
    """The kernels in no cache, as after installing (the search itself runs as usual)."""
    monkeypatch.setattr(solver, "kernels_cached", lambda: False)


@pytest.fixture(autouse=True)
def _loaded_kernels() -> None:
    """Compile (or load) the kernels first, so that an unpatched test sees them ready."""
    solver.solve_batch(parse_deal(DEAL).reshape(1, 4), 4, 1, 1)


def test_bid_says_it_compiles_and_keeps_the_json_clean(cold) -> None:
    res = runner.invoke(app, ["bid", HAND, "--samples", "2", "--json"])
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines() == [COMPILE_NOTICE]
    assert json.loads(res.stdout)["hand"] == HAND


def test_bid_says_nothing_when_the_kernels_are_ready() -> None:
    res = runner.invoke(app, ["bid", HAND, "--samples", "2", "--json"])
    assert res.exit_code == 0, res.output
    assert res.stderr == ""


def test_quiet_bid_says_nothing(cold) -> None:
    res = runner.invoke(app, ["bid", HAND, "--samples", "2", "--json", "--quiet"])
    assert res.exit_code == 0, res.output
    assert res.stderr == ""


def test_a_bid_that_fails_before_searching_prints_only_its_error(cold, capsys) -> None:
    res = runner.invoke(app, ["bid", HAND, "--samples", "2", "--constraint", "second:S>=10"])
    assert res.exit_code == 2
    assert res.stderr.startswith("error:") and COMPILE_NOTICE not in res.stderr
    # the notice was not left waiting for a later search of the process
    capsys.readouterr()
    solver.solve_batch(parse_deal(DEAL).reshape(1, 4), 4, 1, 1)
    assert capsys.readouterr().err == ""


def test_solve_says_it_compiles_once(cold) -> None:
    res = runner.invoke(app, ["solve", DEAL, "--trump", "NT", "--json"])
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines() == [COMPILE_NOTICE]
    assert json.loads(res.stdout)["tricks"] == 13
    quiet = runner.invoke(app, ["solve", DEAL, "--trump", "NT", "--no-progress"])
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_batch_says_it_compiles_up_front(cold, tmp_path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text(f"{HAND}\n", encoding="utf-8")
    args = ["batch", str(hands), "--samples", "2", "--workers", "1", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines()[0] == COMPILE_NOTICE
    assert json.loads(res.stdout)["hands"] == 1
    res = runner.invoke(app, [*args, "--no-progress", "--out", str(tmp_path / "b.csv")])
    assert res.exit_code == 0 and COMPILE_NOTICE not in res.stderr


_CLI = ("import sys; sys.argv = ['boston-sim', *sys.argv[1:]]; "
        "from boston_sim.cli import main; main()")


@pytest.mark.slow
def test_a_cold_cache_prints_the_notice_and_a_warm_one_does_not(tmp_path) -> None:
    """The real first run: an empty numba cache compiles the solver (half a minute or more)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    cmd = [sys.executable, "-c", _CLI, "bid", HAND, "--samples", "2", "--json"]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900,
                           check=False)
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stderr.splitlines() == [COMPILE_NOTICE]
    assert json.loads(first.stdout)["hand"] == HAND
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900,
                           check=False)
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stderr == ""
    a, b = json.loads(again.stdout), json.loads(first.stdout)
    assert a.pop("manifest")["started"] and b.pop("manifest")["started"]  # when each ran
    assert a == b


def test_the_notice_is_one_whole_line_with_or_without_a_bar(capsys) -> None:
    from boston_sim.progress import ProgressBar, say

    say("plain")
    assert capsys.readouterr().err == "plain\n"
    with ProgressBar("solving", 4, transient=False) as bar:
        bar.advance(1)
        say(COMPILE_NOTICE)
    assert COMPILE_NOTICE + "\n" in capsys.readouterr().err.splitlines(keepends=True)
