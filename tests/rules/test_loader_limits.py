"""Rule files as editors save them and as fuzzers write them: a byte-order mark is read,
nesting too deep and numbers that would make an expected value infinite are refused with a
``RulesError`` naming the file, never a ``RecursionError`` or a broken ``--json`` later."""

from __future__ import annotations

from pathlib import Path

import pytest

from boston_sim.errors import RulesError
from boston_sim.rules import load_rules

DATA = Path(__file__).resolve().parents[2] / "data" / "rules"


def test_a_rule_file_with_a_bom_loads(tmp_path):
    p = tmp_path / "bom.toml"
    p.write_text("\ufeff" + (DATA / "boston_foster.toml").read_text(encoding="utf-8"),
                 encoding="utf-8")
    assert load_rules(p).id == load_rules("boston_foster").id


def test_deep_nesting_is_a_rules_error(tmp_path):
    p = tmp_path / "deep.toml"
    p.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(RulesError, match="nested"):
        load_rules(p)
    q = tmp_path / "tables.toml"
    q.write_text("x = " + "{a = " * 40 + "1" + "}" * 40 + "\n", encoding="utf-8")
    with pytest.raises(RulesError, match="nested"):
        load_rules(q)


def test_a_huge_amount_in_a_rule_file_is_refused(tmp_path):
    text = (DATA / "boston_foster.toml").read_text(encoding="utf-8")
    p = tmp_path / "huge.toml"
    p.write_text(text + "\n[extra]\namount = 1e308\n", encoding="utf-8")
    with pytest.raises(RulesError, match="limit"):
        load_rules(p)


@pytest.mark.parametrize("value", ["1e308", "-1e308", "1" + "0" * 60])
def test_a_huge_option_value_is_refused(value):
    with pytest.raises(RulesError, match="limit|bad value"):
        load_rules("boston_foster", {"pool": value})
