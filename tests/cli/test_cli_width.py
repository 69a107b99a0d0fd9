"""Every table fits an 80-column reader: no line over the width, no number cut short (rich
marks a cut cell with an ellipsis), and piped output follows ``COLUMNS`` (else 80)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app
from boston_sim.rules import list_rules

runner = CliRunner()
HAND = "KQJT9.AK.QJ2.432"
BID_RULE_SETS = [
    ("boston_foster", []),
    ("fontainebleau_foster", []),
    ("boston_modern", []),
    ("solo_whist_foster", ["--turnup", "H2"]),
    ("boston_russian", ["--turnup", "H2", "--senior", "S"]),
]


def _check_fits(text: str, width: int) -> None:
    lines = text.splitlines()
    assert lines
    too_long = [ln for ln in lines if len(ln) > width]
    assert not too_long, "\n".join(too_long)
    assert "…" not in text, text


def _invoke(args: list[str], columns: str | None = "80"):
    env = {"COLUMNS": columns} if columns is not None else {"COLUMNS": ""}
    res = runner.invoke(app, args, env=env)
    assert res.exit_code == 0, res.output
    return res.stdout


@pytest.mark.parametrize("name", list_rules())
def test_rules_fit_80_columns(name):
    out = _invoke(["rules", name])
    _check_fits(out, 80)
    assert "Ladder" in out and ("Per-adversary payment" in out or "unpriced" in out)


def test_rule_list_and_as_printed_fit_80_columns():
    _check_fits(_invoke(["rules"]), 80)
    _check_fits(_invoke(["rules", "boston_russian", "--as-printed"]), 80)


def test_payment_figures_are_all_shown_at_80_columns():
    """The 14 trick columns of the payment table wrap into blocks; none is lost or cut."""
    out = _invoke(["rules", "boston_foster"])
    assert "-433" in out and "166" in out  # Grand Slam at 0 and 13 tricks


def test_piped_output_follows_columns_else_80():
    wide = _invoke(["rules", "boston_foster"], columns="200")
    assert max(len(ln) for ln in wide.splitlines()) > 80
    _check_fits(_invoke(["rules", "boston_foster"], columns=None), 80)
    _check_fits(_invoke(["rules", "boston_foster"], columns="60"), 60)


@pytest.mark.parametrize("rules, extra", BID_RULE_SETS)
def test_bid_table_fits_80_columns(rules, extra):
    out = _invoke(["bid", HAND, "--rules", rules, "--samples", "4", "--seed", "1", *extra])
    _check_fits(out, 80)
    assert "P(make)" in out and "EV net" in out


@pytest.mark.parametrize("rules, extra", [BID_RULE_SETS[0], BID_RULE_SETS[3], BID_RULE_SETS[4]])
def test_bid_table_fits_60_columns_and_a_pipe_without_columns(rules, extra):
    args = ["bid", HAND, "--rules", rules, "--samples", "4", "--seed", "1", *extra]
    _check_fits(_invoke(args, columns="60"), 60)
    _check_fits(_invoke(args, columns=None), 80)


def test_solve_table_fits_80_columns():
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    out = _invoke(["solve", deal, "--table", "--partner", "opposite"])
    _check_fits(out, 80)
    assert "N alone" in out and "W+E" in out
