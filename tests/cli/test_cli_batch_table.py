"""The table ``batch`` prints at the end: one row per hand, readable at 80 and 60 columns (the
least important columns dropped, text wrapped, never a number cut), piped output following
``COLUMNS``; the EVs of different rule sets keep their rule set beside them."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app
from boston_sim.views.batch_table import BATCH_TABLE_ROWS, footer_lines

runner = CliRunner()
QUICK = Path(__file__).resolve().parents[1] / "data" / "quick_rules.toml"


@pytest.fixture(scope="module")
def hands(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("table")
    f = d / "h.txt"
    f.write_text(f"AKQJT98.AK.A2.32 | eldest | strong spades | {QUICK} | H2\n"
                 "KQ.AJ975.K84.Q63 | second | | boston_foster\n")
    return f


def _run(hands: Path, columns: str, *extra: str):
    res = runner.invoke(app, ["batch", str(hands), "--samples", "4", "--seed", "2",
                              "--threads", "1", "-q", "--out", str(hands.with_suffix(".r.csv")),
                              *extra], env={"COLUMNS": columns})
    assert res.exit_code == 0, res.output
    return res


@pytest.mark.parametrize("width", [80, 60])
def test_the_end_table_fits_and_shows_every_hands_bid_and_ev(hands, width):
    out = _run(hands, str(width)).stdout
    lines = out.splitlines()
    assert lines and max(map(len, lines)) <= width, out
    assert "…" not in out
    summary = hands.with_suffix(".r.summary.csv")
    rows = list(csv.DictReader(summary.open(encoding="utf-8")))
    assert len(rows) == 2
    for r in rows:
        ev = float(r["ev_net"])
        assert f"{ev:+.1f}" in out  # whole, never cut
        bid = r["recommended_name"] if r["recommended"] != "pass" else "pass"
        assert bid.split()[0] in out
    # two rule sets: each row says its own, and the footer names each unit
    assert "boston_foster" in out and "white counters" in out
    assert "EV net" in out


def test_piped_output_follows_columns_else_80(hands):
    wide = _run(hands, "200").stdout
    assert "Runner-up" in wide and "Label" in wide and "strong spades" in wide
    assert max(map(len, _run(hands, "").stdout.splitlines())) <= 80


def test_json_prints_no_table(hands):
    out = _run(hands, "80", "--json").stdout
    assert json.loads(out)["done"] == 2


def test_a_long_run_shows_its_first_hands_and_says_where_the_rest_are():
    rows = [{"rules": "boston_foster", "unit": "white counters"}] * (BATCH_TABLE_ROWS + 5)
    lines = footer_lines(rows, "r.summary.csv")
    assert f"the first {BATCH_TABLE_ROWS} of {BATCH_TABLE_ROWS + 5} hands" in lines[-1]
    assert "r.summary.csv" in lines[-1] and "white counters" in lines[0]
