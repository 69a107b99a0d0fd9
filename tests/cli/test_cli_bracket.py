"""``bid --bracket``: the bracket's block in the report and its keys in the JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schema" / "bid.schema.json"
ARGS = ["bid", "AKQJ2.AK3.K32.32", "--samples", "12", "--seed", "4", "--bracket",
        "--bracket-deals", "2", "--bracket-layouts", "3"]


def test_bid_bracket_prints_every_figure_within_80_columns():
    res = runner.invoke(app, ARGS, env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Double-dummy bracket: 2 deals per rung, 3 layouts" in out
    for label in ("double-dummy", "blind lead", "declarer single-dummy",
                  "defence single-dummy", "both single-dummy"):
        assert label in out
    assert "single-dummy play would" in " ".join(out.split())
    assert max(len(line) for line in out.splitlines()) <= 80


def test_bid_bracket_json():
    res = runner.invoke(app, [*ARGS, "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert isinstance(d["bracket_changes_recommendation"], bool)
    rec = next(r for r in d["rungs"] if r["rung"] == d["recommended"])
    fig = rec["bracket"]["single_dummy"]
    assert set(fig) >= {"p_make", "p_make_se", "ev_net", "ev_net_se", "deals"}
    assert fig["deals"] == 2
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validate(d, schema)
    d["rungs"][0].setdefault("bracket", {})["single_dummy"] = {"p_make": "high"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(d, schema)


def test_bracket_sizes_are_checked_before_any_work():
    res = runner.invoke(app, ["bid", "AKQJ2.AK3.K32.32", "--bracket-deals", "0"])
    assert res.exit_code == 2
    assert "--bracket-deals" in res.output and "Traceback" not in res.output


def test_batch_bracket_columns(tmp_path):
    import csv

    hands = tmp_path / "h.txt"
    hands.write_text("AKQJ2.AK3.K32.32\n")
    out = tmp_path / "r.csv"
    res = runner.invoke(app, ["batch", str(hands), "--out", str(out), "--samples", "12",
                              "--seed", "4", "--bracket", "--bracket-deals", "2",
                              "--bracket-layouts", "3", "--threads", "1", "--quiet"])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(out.open()))
    rec = next(r for r in rows if r["recommended"] == "true")
    assert rec["bracket_single_dummy_ev_net"] not in ("", "nan")
    assert rec["bracket_changes_recommendation"] in ("yes", "no")
    assert any(r["bracket_single_dummy_ev_net"] in ("", "nan") for r in rows)  # not replayed
