"""A hand whose spades are void starts with ``-``; it works as typed, wherever it stands
among the options, in every command that takes a hand."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app
from boston_sim.cli.command import protect_hands

runner = CliRunner()
VOID = "-.KQ2.K763.K97542"


@pytest.mark.parametrize("args", [
    ["bid", VOID, "--samples", "4", "--json"],
    ["bid", "--samples", "4", VOID, "--json"],
    ["bid", "--samples", "4", "--json", "--", VOID],
])
def test_bid_takes_a_hand_void_in_spades_as_typed(args):
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["hand"].lstrip("-") == VOID.lstrip("-")


def test_plot_takes_a_hand_void_in_spades(tmp_path):
    out = tmp_path / "void.png"
    res = runner.invoke(app, ["plot", VOID, "--samples", "4", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.stat().st_size > 0


def test_option_values_and_dashes_stay_put():
    values = {"--seat"}
    assert protect_hands(["--seat", "eldest", VOID], values) == ["--seat", "eldest", "--", VOID]
    assert protect_hands([VOID, "--", "x"], values) == ["--", VOID, "x"]
    assert protect_hands(["-q", "KQ.AJ975.K84.Q63"], values) == ["-q", "KQ.AJ975.K84.Q63"]
    # a value that happens to start like a void hand belongs to its option
    assert protect_hands(["--seat", VOID], values) == ["--seat", VOID]
