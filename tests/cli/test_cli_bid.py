"""``boston-sim bid`` end to end: every rule set, JSON keys, errors, determinism."""

from __future__ import annotations

import csv
import json
import re

import pytest
from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
HAND = "KQJT9.AK.QJ2.432"
REQUIRED_TOP = {"rules", "seat", "hand", "samples", "seed", "recommended", "rungs", "rejected",
                "runner_up", "diff_se", "reason"}
REQUIRED_RUNG = {"rung", "name", "trump", "p_make", "p_make_se", "mean_tricks",
                 "ev_per_adversary", "ev_per_adversary_se", "ev_net", "trick_distribution",
                 "p_loss_gt", "cvar5", "trump_candidates"}

# each built-in rule set with what it needs (turn-up card, senior suit)
RULE_SETS = [
    ("boston_foster", []),
    ("fontainebleau_foster", []),
    ("boston_modern", []),
    ("solo_whist_foster", ["--turnup", "H2"]),
    ("boston_russian", ["--turnup", "S5", "--senior", "C"]),
]


def run(*args: str):
    return runner.invoke(app, ["bid", *args])


@pytest.mark.parametrize("rules, extra", RULE_SETS)
def test_every_rule_set_end_to_end(rules, extra):
    res = run(HAND, "--rules", rules, "--samples", "6", "--seed", "3", "--json", *extra)
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert REQUIRED_TOP <= set(d)
    assert d["rules"] == rules and d["samples"] == 6 and d["seed"] == 3
    assert d["hand"] == "KQJT9.AK.QJ2.432" and d["seat"] == "eldest"
    from boston_sim.rules import load_rules

    assert [r["rung"] for r in d["rungs"]] == [r.id for r in load_rules(rules).rungs]
    for r in d["rungs"]:
        assert REQUIRED_RUNG <= set(r)
        assert r["trump"] in ("S", "H", "D", "C", "NT", None)
        assert len(r["trick_distribution"]) == 14
        assert abs(sum(r["trick_distribution"]) - 1) < 1e-9
    rec = d["recommended"]
    assert rec is None or rec == "pass" or rec in {r["rung"] for r in d["rungs"]}
    # the table view works too
    res = run(HAND, "--rules", rules, "--samples", "3", "--seed", "3", *extra)
    assert res.exit_code == 0, res.output
    assert "Recommendation" in res.stdout


def test_same_seed_same_json_and_csv(tmp_path):
    a = run(HAND, "--samples", "6", "--seed", "9", "--json")
    b = run(HAND, "--samples", "6", "--seed", "9", "--json", "--threads", "1",
            "--csv", str(tmp_path / "t.csv"))
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    da, db = json.loads(a.stdout), json.loads(b.stdout)
    # the manifest records when and with how many threads each ran; the numbers are equal
    assert da.pop("manifest")["threads"] is None and db.pop("manifest")["threads"] == 1
    assert da == db
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert {r["rung"] for r in rows} >= {"boston", "grand_slam"}
    assert len([r for r in rows if r["rung"] == "boston"]) == 4  # one row per trump
    assert "t13" in rows[0] and "cvar5" in rows[0]


def test_known_cards_constraints_and_risk():
    res = run(HAND, "--samples", "6", "--seat", "second", "--known", "HQ@dealer",
              "--constraint", "third:H>=4", "--risk", "50", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["seat"] == "second" and d["rejected"] > 0
    assert d["known"] == ["HQ@W"] and d["constraints"] == ["third:H>=4"]
    assert d["risk_threshold"] == 50


@pytest.mark.parametrize(
    "args, message",
    [
        (["AKQ.JT9.876.543"], "error:"),
        (["AJ64.KT3.Q852.K7X"], "error:"),
        ([HAND, "--rules", "nosuchrules"], "unknown rule set"),
        ([HAND, "--option", "nosuch=1"], "unknown option"),
        ([HAND, "--option", "payments=roman"], "payments"),
        ([HAND, "--constraint", "second:S>=10"], "never be met"),
        ([HAND, "--constraint", "nonsense"], "constraint"),
        ([HAND, "--known", "SK@dealer"], "declarer's hand"),
        ([HAND, "--seat", "fifth"], "seat"),
        ([HAND, "--rules", "solo_whist_foster"], "turn"),
        ([HAND, "--samples", "10", "--precision", "2"], "either"),
        ([HAND, "--samples", "10", "--max-time", "5"], "time limit"),
        ([HAND, "--partner", "behind", "--rules", "solo_whist_foster", "--turnup", "H2"],
         "partner"),
    ],
)
def test_user_errors_exit_2(args, message):
    res = run(*args, "--samples", "4") if "--samples" not in args else run(*args)
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error:")
    assert message in res.stderr
    assert "Traceback" not in res.output
    assert len(res.stderr.strip().splitlines()) == 1


def test_help_mentions_the_default_samples():
    res = runner.invoke(app, ["bid", "--help"])
    assert res.exit_code == 0
    assert "300" in res.stdout


@pytest.mark.parametrize("width", [80, 160])
def test_table_keeps_one_line_per_rung_at_terminal_widths(width):
    """The readable table fits: at 80 columns (compact, short headers) and 160 (every
    column), each rung is one line holding its name and its P(make) in full."""
    import io

    from rich.console import Console

    from boston_sim import analyze
    from boston_sim.views import COMPACT_WIDTH, print_report

    a = analyze(HAND, samples=4, seed=2)
    buf = io.StringIO()
    print_report(a, Console(file=buf, width=width, color_system=None))
    lines = buf.getvalue().splitlines()
    assert max(len(x) for x in lines) <= width
    for _, row in a.rungs.iterrows():
        p = f"{row['p_make']:.3f}"
        # the name, then its note markers (¹²…) if any, then a space
        name = re.compile(rf" {re.escape(row['name'])}[¹²³⁴⁵⁶⁷⁸⁹]* ")
        hits = [x for x in lines if name.search(x) and p in x]
        assert len(hits) == 1, (row["name"], buf.getvalue())
    if width >= COMPACT_WIDTH:  # narrower consoles drop columns only as far as they must
        assert "CVaR 5%" in buf.getvalue() and "P(loss)" in buf.getvalue()
