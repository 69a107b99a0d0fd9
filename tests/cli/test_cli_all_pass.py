"""``bid`` values a pass by the simulated all-pass game: the report's pass row, the
recommendation, the JSON fields, the option that switches it (docs/RULES.md §2.1.5, A-29)."""

from __future__ import annotations

import json

import pytest
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


def test_a_fixed_pass_value_has_its_row_and_is_marked_when_recommended():
    """Without an all-pass game passing is worth the rule set's fixed value: the table still
    has a Pass row (no SE, no deals), marked ▶ when it is the recommendation, and a close
    runner-up is indistinguishable *from passing*."""
    args = ("--rules", "boston_russian", "--turnup", "H2", "--senior", "S")
    res = runner.invoke(app, ["bid", "KQ.AJ975.K84.Q63", "--samples", "20", "--seed", "0",
                              "-q", *args], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    row = next(x for x in lines if x.lstrip("▶ ").startswith("Pass"))
    assert "Recommendation: pass" in res.stdout and row.startswith("▶ Pass")
    assert row.split()[-1] == "+0.0" and "±" not in row
    assert sum(x.startswith("▶") for x in lines) == 1
    assert "indistinguishable from passing" in " ".join(res.stdout.split())
    unpriced = _bid("--rules", "fontainebleau_foster").stdout
    assert not any(x.lstrip("▶ ").startswith("Pass") for x in unpriced.splitlines())


def test_batch_rows_summary_and_table_carry_the_value_of_passing(tmp_path):
    """A batch writes what passing is worth (the simulated all-pass game), not 0: on every
    row of the hand, as the summary's EV of a pass and as a runner-up pass's EV."""
    import csv

    from boston_sim.analysis import analyze

    hands = tmp_path / "h.txt"
    hands.write_text(f"{WEAK} | eldest\nAQ64.AJ.J8543.A6 | dealer\n", encoding="utf-8")
    res = runner.invoke(app, ["batch", str(hands), "--samples", "20", "--out",
                              str(tmp_path / "r.csv"), "-q", "--threads", "1"],
                        env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader((tmp_path / "r.csv").open(encoding="utf-8")))
    summary = list(csv.DictReader((tmp_path / "r.summary.csv").open(encoding="utf-8")))
    for hid, s in enumerate(summary):
        mine = [r for r in rows if int(r["hand_id"]) == hid]
        own = analyze(s["hand"], seat=s["seat"], samples=20, seed=int(s["seed"]))
        assert [float(r["pass_value"]) for r in mine] == pytest.approx(
            [own.pass_value] * len(mine))
        assert own.pass_value != 0 and float(mine[0]["pass_value_se"]) > 0
        pv = own.pass_value
        if s["recommended"] == "pass":
            assert float(s["ev_net"]) == pytest.approx(pv)
            assert f"{pv:+.1f}" in res.stdout
        if s["runner_up"] == "pass":
            assert float(s["runner_up_ev_net"]) == pytest.approx(pv)
    assert {s["recommended"] for s in summary} | {s["runner_up"] for s in summary} >= {"pass"}
