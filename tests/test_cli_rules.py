"""CLI: ``boston-sim rules``, ``boston-sim score`` and ``boston-sim partout``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app
from boston_sim.rules import DATA_DIR

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def error_text(res) -> str:
    try:
        return res.stderr
    except ValueError:  # stderr not captured separately
        return res.output


# --------------------------------------------------------------------------- rules


def test_rules_lists_every_rule_set() -> None:
    res = run("rules")
    assert res.exit_code == 0, res.output
    for rid in (
        "boston_foster",
        "fontainebleau_foster",
        "boston_modern",
        "solo_whist_foster",
        "boston_russian",
    ):
        assert rid in res.output
    assert "Foster's Hoyle" in res.output


def test_rules_list_json() -> None:
    res = run("rules", "--json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert [d["id"] for d in data] == sorted(d["id"] for d in data)
    assert {"id", "name", "source", "unit"} <= set(data[0])


def test_rules_show_tables() -> None:
    res = run("rules", "boston_foster")
    assert res.exit_code == 0, res.output
    out = res.stdout
    for word in ("Little Misère", "grand_slam", "success_english", "failure_american", "A-09"):
        assert word in out
    # the English failure row for Eight as printed in RULES.md §2.1.8
    assert "110" in out and "433" in out


def test_rules_show_json_with_option() -> None:
    res = run("rules", "boston_foster", "--option", "payments=american", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["options"]["payments"] == "american"
    eight = next(r for r in d["rungs"] if r["id"] == "eight")
    # §2.1.7: 25 per adversary whatever the over-tricks; §2.1.9: 25 for one short
    assert eight["payment"][8:] == [25, 25, 25, 25, 25, 25]
    assert eight["payment"][7] == -25
    little = next(r for r in d["rungs"] if r["id"] == "little_misere")
    assert len(little["payment"]) == 13  # 12-trick rung: t = 0..12
    assert "tables" in d and d["tables"]["success_american"]["13"] == 170


def test_rules_unpriced_json_has_nulls() -> None:
    res = run("rules", "fontainebleau_foster", "--json")
    d = json.loads(res.stdout)
    assert all(v is None for r in d["rungs"] for v in r["payment"])
    assert [r["id"] for r in d["rungs"]][:5] == [
        "boston",
        "six",
        "little_misere",
        "seven",
        "piccolissimo",
    ]


def test_rules_user_file(tmp_path: Path) -> None:
    p = tmp_path / "house.toml"
    p.write_text(
        (DATA_DIR / "boston_modern.toml")
        .read_text(encoding="utf-8")
        .replace('id = "boston_modern"', 'id = "house"'),
        encoding="utf-8",
    )
    res = run("rules", str(p), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["id"] == "house"
    res = run("score", "--rules", str(p), "boston", "5", "--json")
    assert json.loads(res.stdout)["per_adversary"] == [10, 10, 10]


@pytest.mark.parametrize(
    "args,msg",
    [
        (("rules", "whist"), "unknown rule set 'whist'"),
        (
            ("rules", "boston_foster", "--option", "payments=french"),
            "option payments: bad value 'french'",
        ),
        (("rules", "boston_foster", "--option", "payments"), "must be key=value"),
        (("rules", "boston_foster", "-o", "colour=red"), "unknown option 'colour'"),
        (("rules", "/nonexistent/x.toml"), "not found"),
    ],
)
def test_rules_bad_input(args: tuple[str, ...], msg: str) -> None:
    res = run(*args)
    assert res.exit_code == 2
    err = error_text(res)
    assert err.startswith("error: ") and msg in err
    assert "Traceback" not in res.output


def test_rules_broken_user_file(tmp_path: Path) -> None:
    p = tmp_path / "broken.toml"
    p.write_text(
        (DATA_DIR / "boston_foster.toml")
        .read_text(encoding="utf-8")
        .replace('kind = "zero"', 'kind = "nil"', 1)
    )
    res = run("rules", str(p))
    assert res.exit_code == 2
    assert "broken.toml: rungs[little_misere].kind" in error_text(res)


# --------------------------------------------------------------------------- score


def test_score_example() -> None:
    """RULES.md §2.1.8: eight bid, seven taken: 23 per adversary."""
    res = run("score", "--rules", "boston_foster", "eight", "7")
    assert res.exit_code == 0, res.output
    assert "-23" in res.stdout and "-69" in res.stdout


def test_score_json_and_seed_name() -> None:
    res = run("score", "--rules", "boston_foster", "Seven Tricks", "10", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["rules"] == "boston_foster" and d["contract"] == "seven" and d["tricks"] == 10
    assert d["per_adversary"] == [22, 22, 22] and d["net"] == 66
    res = run("score", "-r", "boston_foster", "LITTLE MISERE", "0", "--json")
    assert json.loads(res.stdout)["per_adversary"] == [20, 20, 20]


def test_score_options_and_trump() -> None:
    res = run(
        "score",
        "--rules",
        "boston_foster",
        "seven",
        "10",
        "--option",
        "payments=american",
        "--json",
    )
    assert json.loads(res.stdout)["per_adversary"] == [20, 20, 20]
    res = run("score", "--rules", "boston_foster", "seven", "7", "-o", "pool=10", "--json")
    assert json.loads(res.stdout)["net"] == 3 * 18 + 10
    res = run("score", "--rules", "fontainebleau_foster", "eight", "8", "--trump", "NT", "--json")
    d = json.loads(res.stdout)
    assert d["per_adversary"] == [None, None, None] and d["net"] is None and d["trump"] == "NT"
    res = run("score", "--rules", "fontainebleau_foster", "eight", "8")
    assert res.exit_code == 0 and "no price" in res.stdout


def test_score_russian_context() -> None:
    res = run(
        "score",
        "-r",
        "boston_russian",
        "independence",
        "8",
        "--trump",
        "S",
        "--senior",
        "S",
        "--boston",
        "--json",
    )
    d = json.loads(res.stdout)
    assert d["per_adversary"] == [32, 32, 32] and d["bonus"] == 6 and d["net"] == 3 * 32 + 6
    res = run("score", "-r", "boston_russian", "independence", "8", "--trump", "S")
    assert res.exit_code == 2 and "senior" in error_text(res)
    res = run("score", "-r", "boston_russian", "pair_junior", "9", "--json")
    assert json.loads(res.stdout)["per_adversary"] == [4, 0]


@pytest.mark.parametrize(
    "args,msg",
    [
        (("score", "--rules", "nope", "eight", "7"), "unknown rule set 'nope'"),
        (("score", "--rules", "boston_foster", "eightish", "7"), "unknown contract 'eightish'"),
        (("score", "--rules", "boston_foster", "eight", "14"), "tricks 14 out of range 0..13"),
        (("score", "--rules", "boston_foster", "little_misere", "13"), "out of range 0..12"),
        (("score", "--rules", "boston_foster", "eight", "seven"), "whole number"),
        (("score", "--rules", "boston_foster", "eight", "8", "--trump", "X"), "unknown trump"),
        (("score", "--rules", "boston_foster", "eight", "8", "--trump", "NT"), "no-trump"),
        (
            ("score", "--rules", "boston_foster", "eight", "8", "-o", "slam_failure=sometimes"),
            "allowed: played_out|one_trick",
        ),
    ],
)
def test_score_bad_input(args: tuple[str, ...], msg: str) -> None:
    res = run(*args)
    assert res.exit_code == 2, res.output
    err = error_text(res)
    assert err.startswith("error: ") and msg in err
    assert "Traceback" not in res.output


def test_score_negative_tricks() -> None:
    res = run("score", "--rules", "boston_foster", "eight", "--", "-1")
    assert res.exit_code == 2 and "out of range" in error_text(res)


# --------------------------------------------------------------------------- partout


def test_partout() -> None:
    res = run("partout", "6", "2", "5", "0", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["white"] == [-110, 40, 10, 60] and d["red"] == [-11, 4, 1, 6]
    res = run("partout", "5", "5", "1", "2")
    assert res.exit_code == 0 and "-35 white" in res.stdout


def test_partout_bad() -> None:
    res = run("partout", "5", "5", "1", "1")
    assert res.exit_code == 2 and "sum to 12" in error_text(res)
    res = run("partout", "5", "5", "3")
    assert res.exit_code == 2 and "exactly 4" in error_text(res)
