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
    # the English failure row for Eight as printed in docs/RULES.md §2.1.8
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


def test_rules_show_discards() -> None:
    """Each rung carries its discard rule (docs/RULES.md §1.6): Little Misère and Little Spread
    are played after every player discards one card, 12 tricks (§2.1.3)."""
    res = run("rules", "boston_foster", "--json")
    rungs = {r["id"]: r for r in json.loads(res.stdout)["rungs"]}
    for rid in ("little_misere", "little_spread"):
        assert rungs[rid]["discard"] == "all_one" and rungs[rid]["tricks"] == 12
    for rid in ("grand_misere", "grand_spread", "eight"):
        assert rungs[rid]["discard"] is None and rungs[rid]["tricks"] == 13
    assert rungs["little_misere"]["above"] == "seven" and rungs["eight"]["above"] is None
    wide = runner.invoke(app, ["rules", "boston_foster"], env={"COLUMNS": "200"}).stdout
    assert "discard" in wide
    row = next(ln for ln in wide.splitlines() if "little_misere" in ln and "Little" in ln)
    assert "all_one" in row and "12" in row
    # at 80 columns each rung is a short record: its name, then its fields
    lines = run("rules", "boston_foster").stdout.splitlines()
    i = next(i for i, ln in enumerate(lines) if "little_misere: Little Misère" in ln)
    assert "discard all_one" in lines[i + 1] and "tricks 12" in lines[i + 1]


def test_rules_as_printed() -> None:
    """The Russian tariff exactly as printed (§2.5.9), misprints included (A-44)."""
    d = json.loads(run("rules", "boston_russian", "--json").stdout)
    assert d["as_printed"]["T4"]["amounts"]["13"] == 64
    assert d["as_printed"]["T14"]["slam"]["required"] == 3
    assert json.loads(run("rules", "boston_foster", "--json").stdout)["as_printed"] is None
    res = run("rules", "boston_russian", "--as-printed", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["T5"]["lost"] == {
        "short_trick": 2,
        "total": 6,
    }
    res = run("rules", "boston_russian", "--as-printed")
    assert res.exit_code == 0 and "T14" in res.stdout and "L333-L349" in res.stdout
    assert "--as-printed" in run("rules", "boston_russian").stdout  # pointed to
    res = run("rules", "boston_foster", "--as-printed")
    assert res.exit_code == 2 and "no as-printed tariff" in error_text(res)


def test_rules_russian_independence_rows() -> None:
    """Both independence tariffs are shown (T3 junior 16, T4 senior 32 at 8 tricks, A-43)."""
    d = json.loads(run("rules", "boston_russian", "--json").stdout)
    ind = next(r for r in d["rungs"] if r["id"] == "independence")
    assert ind["payment"][8] == 16 and ind["payment_senior"][8] == 32
    out = run("rules", "boston_russian").stdout
    assert "independence (senior trump)" in out


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


@pytest.mark.parametrize(
    "content,msg",
    [
        (b'id = "\xff"\n', "bad.toml: not UTF-8 text"),
        (None, "bad.toml: options.red_in_white.min: expected a number, got 'a'"),
    ],
)
def test_rules_broken_user_file_one_line(tmp_path: Path, content: bytes | None, msg: str) -> None:
    p = tmp_path / "bad.toml"
    if content is None:
        text = (DATA_DIR / "boston_foster.toml").read_text(encoding="utf-8")
        content = text.replace("min = 1\n", 'min = "a"\n').encode()
    p.write_bytes(content)
    for args in (
        ("rules", str(p)),
        ("score", "-r", str(p), "eight", "8"),
        ("partout", "-r", str(p), "4", "3", "3", "3"),
    ):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        err = error_text(res)
        assert err.startswith("error: ") and msg in err and err.count("\n") == 1
        assert "Traceback" not in res.output


def test_rules_file_without_suffix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_rules").write_text(
        (DATA_DIR / "boston_modern.toml")
        .read_text(encoding="utf-8")
        .replace('id = "boston_modern"', 'id = "mine"'),
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert json.loads(run("rules", "my_rules", "--json").stdout)["id"] == "mine"
    res = run("score", "--rules", "my_rules", "boston", "5", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["rules"] == "mine"


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
    """docs/RULES.md §2.1.8: eight bid, seven taken: 23 per adversary."""
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
    indep = ("score", "-r", "boston_russian", "independence", "8")
    res = run(*indep, "--trump", "S", "--senior", "S", "--boston", "--json")
    d = json.loads(res.stdout)
    assert d["per_adversary"] == [32, 32, 32] and d["bonus"] == 6 and d["net"] == 3 * 32 + 6
    res = run(*indep, "--trump", "S")
    assert res.exit_code == 2 and "senior" in error_text(res)
    # the tariff depends on the trump: no silent junior tariff without --trump
    res = run(*indep)
    assert res.exit_code == 2 and "--trump" in error_text(res)
    res = run(*indep, "--trump", "H", "--senior", "S", "--json")
    assert json.loads(res.stdout)["per_adversary"] == [16, 16, 16]  # T3
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
        (("score", "--rules", "boston_foster", "eight", "8", "--senior", "H"),
         "without a senior suit: --senior does not apply"),
        (("score", "--rules", "solo_whist_foster", "solo", "8", "--boston"),
         "no boston card: --boston does not apply"),
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


def test_partout_ratio_option() -> None:
    """The red/white ratio is the rule set's option red_in_white (A-02, default 10);
    --red-in-white X is short for -o red_in_white=X. §2.1.5: A 6, Y 2, B 5, Z 0 -> A loses
    11 red, Y receives 4, B 1, Z 6."""
    d = json.loads(run("partout", "6", "2", "5", "0", "--json").stdout)
    assert d["rules"] == "boston_foster" and d["red_in_white"] == 10
    for args in (
        ("-o", "red_in_white=5"),
        ("--red-in-white", "5"),
        ("-r", "boston_foster", "--red-in-white", "5"),
    ):
        res = run("partout", "6", "2", "5", "0", *args, "--json")
        assert res.exit_code == 0, res.output
        d = json.loads(res.stdout)
        assert d["red_in_white"] == 5
        assert d["red"] == [-11, 4, 1, 6] and d["white"] == [-55, 20, 5, 30]
    res = run("partout", "6", "2", "5", "0", "--red-in-white", "2.5")
    assert res.exit_code == 0 and "1 red = 2.5 white" in res.stdout and "-27.5 white" in res.stdout


@pytest.mark.parametrize(
    "args,msg",
    [
        (("--red-in-white", "0"), "option red_in_white: bad value '0' (allowed: a number >= 1)"),
        (("--red-in-white", "nan", "--json"), "option red_in_white: bad value 'nan'"),
        (("--red-in-white", "-1"), "option red_in_white: bad value '-1'"),
        (("--red-in-white", "inf"), "option red_in_white: bad value 'inf'"),
        (("--red-in-white", "ten"), "option red_in_white: bad value 'ten'"),
        (("-o", "red_in_white=0.5"), "option red_in_white: bad value '0.5'"),
        (("-o", "red_in_white=5", "--red-in-white", "5"), "give the red/white ratio once"),
        (("-r", "solo_whist_foster"), "solo_whist_foster has no misère partout"),
        (("-r", "boston_modern", "--red-in-white", "5"), "unknown option 'red_in_white'"),
        (("-o", "colour=red"), "unknown option 'colour'"),
    ],
)
def test_partout_bad_ratio(args: tuple[str, ...], msg: str) -> None:
    res = run("partout", "6", "2", "5", "0", *args)
    assert res.exit_code == 2, res.output
    err = error_text(res)
    assert err.startswith("error: ") and msg in err and err.count("\n") == 1
    assert "Traceback" not in res.output and res.stdout == ""


def test_partout_bad() -> None:
    res = run("partout", "5", "5", "1", "1")
    assert res.exit_code == 2 and "sum to 12" in error_text(res)
    res = run("partout", "5", "5", "3")
    assert res.exit_code == 2 and "exactly 4" in error_text(res)


def test_partout_help_documents_the_ratio() -> None:
    res = run("partout", "--help")
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())
    assert "--red-in-white" in text and "-o red_in_white=VALUE" in text and "A-02" in text
