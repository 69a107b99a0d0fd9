"""``--constraint`` in its shell-safe forms, and every example that ``bid --help`` gives
for it reads as a constraint."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
HAND = "KQJT9.AK.QJ2.432"


def test_bid_takes_shell_safe_constraints():
    res = runner.invoke(app, ["bid", HAND, "--samples", "4", "--json",
                              "--constraint", "second:H5+", "-c", "third:shape=any4333",
                              "-c", "dealer:hcp6-12/H0-1"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["constraints"] == [
        "second:H5+", "third:shape=any4333", "dealer:hcp6-12/H0-1"]


def test_every_help_example_is_a_valid_constraint():
    from boston_sim.sampler import parse_constraint

    res = runner.invoke(app, ["bid", "--help"], env={"COLUMNS": "200"})
    text = res.stdout[res.stdout.index("--constraint"):]
    text = text[:text.index("\n  -", 1)]
    examples = re.findall(r"\b(?:eldest|second|third|dealer):\S+[^\s,.)]", text)
    assert len(examples) >= 6, examples
    for ex in examples:
        parse_constraint(ex)
