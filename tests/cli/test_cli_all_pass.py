"""``bid`` values a pass by the simulated all-pass game: the report's pass row, the
recommendation, the JSON fields, the option that switches it (docs/RULES.md §2.1.5, A-29)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
WEAK = "QT95.54.T973.J86"  # no bid makes; at Misère Partout few tricks pay


def _bid(*args: str):
    res = runner.invoke(app, ["bid", WEAK, "--samples", "20", "--seed", "3", *args])
    assert res.exit_code == 0, res.output
    return res


def test_bid_prints_the_pass_row_and_recommends_the_simulated_pass():
    out = _bid("--option", "all_pass=misere_partout").stdout
    row = next(line for line in out.splitlines() if "Pass (all pass)" in line)
    assert row.lstrip().startswith("▶") and "±" in row
    assert "Recommendation: pass" in out
    assert "pass = Misère Partout, simulated with heuristic play: +" in " ".join(out.split())


def test_bid_json_carries_the_pass_value_its_se_and_model():
    d = json.loads(_bid("--json").stdout)  # Misère Partout values a pass by default
    assert d["all_pass_model"] == "misere_partout" and "heuristic play" in d["pass_model"]
    assert d["pass_value"] > 0 and d["pass_value_se"] > 0
    best = max(r["ev_net"] for r in d["rungs"] if r["ev_net"] is not None)
    assert best < d["pass_value"] and d["recommended"] == "pass"
    off = json.loads(_bid("--json", "--option", "all_pass=none").stdout)
    assert off["all_pass_model"] == "none" and off["pass_value"] == 0
    assert off["pass_value_se"] == 0


def test_solo_whist_grand_is_an_option():
    args = ("--rules", "solo_whist_foster", "--turnup", "H2", "--seat", "eldest")
    plain = _bid(*args).stdout
    assert "Pass (all pass" not in plain
    grand = _bid(*args, "--option", "all_pass=grand").stdout
    assert "Pass (all pass)" in grand and "pass = Grand" in " ".join(grand.split())
