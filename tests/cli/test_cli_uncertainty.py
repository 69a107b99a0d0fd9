"""What the command line says about uncertainty and bad seeds: every priced rung's risk SEs in
``bid --json``, no zero SE of P(make), and a one-line error (exit 2) for a negative seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
STRONG = "AQJT9.AK.KJ2.432"
EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "hands" / "examples.txt"


@pytest.mark.parametrize("command", [
    ["bid", STRONG, "--samples", "4"],
    ["plot", STRONG],
    ["batch", str(EXAMPLES), "--samples", "4"],
])
def test_a_negative_seed_is_a_one_line_usage_error(command, tmp_path):
    out = ["--out", str(tmp_path / "r.csv")] if command[0] == "batch" else []
    res = runner.invoke(app, [*command, *out, "--seed", "-1"])
    assert res.exit_code == 2, res.output
    assert res.output.strip() == "error: the seed (--seed) must be a whole number >= 0, not -1"
    assert "Traceback" not in res.output and not (tmp_path / "r.csv").exists()


def test_bid_json_has_risk_ses_and_no_zero_p_make_se():
    res = runner.invoke(app, ["bid", STRONG, "--samples", "12", "--seed", "5", "--json", "-q"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert set(d["standard_errors"]) >= {"p_make_se", "p_loss_se", "cvar5_se", "diff_se"}
    for r in d["rungs"]:
        assert r["p_make_se"] > 0
        if r["priced"]:
            assert r["p_loss_se"] > 0 and r["cvar5_se"] is not None
