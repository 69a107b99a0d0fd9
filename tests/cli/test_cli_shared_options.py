"""``bid``, ``plot`` and ``batch`` share one set of analysis options under one name each;
the old names still work but are not shown."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
SHARED = ["--seat", "-s", "--rules", "-r", "--option", "-o", "--samples", "-n", "--precision",
          "--max-time", "--seed", "--known", "--constraint", "-c", "--turnup", "--preference",
          "--senior", "--partner", "--risk", "--threads", "--quiet", "-q"]
OLD_NAMES = ["--risk-threshold", "--workers", "--no-progress", "-w"]


def _options_in_help(command: str) -> set[str]:
    res = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    return set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", res.stdout))


@pytest.mark.parametrize("command", ["bid", "plot", "batch"])
def test_the_analysis_options_are_shared(command):
    shown = _options_in_help(command)
    assert set(SHARED) <= shown, set(SHARED) - shown
    assert not set(OLD_NAMES) & shown


def test_old_names_still_work_in_bid():
    res = runner.invoke(app, ["bid", "KQJT9.AK.QJ2.432", "--samples", "4", "--json",
                              "--risk-threshold", "50", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["risk_threshold"] == 50


def test_plot_takes_the_turnup_and_the_other_analysis_options(tmp_path):
    out = tmp_path / "solo.png"
    res = runner.invoke(app, ["plot", "KQ.AJ975.K84.Q63", "--rules", "solo_whist_foster",
                              "--turnup", "H2", "--known", "SA@dealer", "-c", "second:H0-3",
                              "-n", "4", "-q", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.stat().st_size > 0
