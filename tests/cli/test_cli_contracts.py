"""``boston-sim bid`` on the contracts whose model the rules constrain: Solo Whist's
Proposal, Russian purchases, the boston card's modes, the value of passing, and the
analysis setting ``misere_tricks`` given as an option."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from boston_sim.cli import app

runner = CliRunner()
LOW = "5432.5432.432.32"  # every misère is sure: quick even with real trick counts
YES_NO_NOTE = "yes/no searches"


def run(*args: str):
    return runner.invoke(app, ["bid", *args])


def test_solo_whist_proposal_is_not_recommended_by_default():
    res = run("KQ.AJ975.K84.Q63", "--rules", "solo_whist_foster", "--seat", "third",
              "--turnup", "H2", "--samples", "12", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["recommended"] != "proposal"
    prop = next(r for r in d["rungs"] if r["rung"] == "proposal")
    assert prop["priced"] is False and prop["ev_net"] is None
    assert "acceptance not modelled" in prop["note"]


def test_russian_purchase_never_recommends_the_unsupported_outcome():
    res = run("KQ.AJ975.AJ4.Q63", "--rules", "boston_russian", "--turnup", "H2", "--senior",
              "S", "--samples", "12", "--json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["recommended"] not in ("alone_junior", "alone_senior")
    assert d["runner_up"] not in ("alone_junior", "alone_senior")
    bids = [r for r in d["rungs"] if r["outcome_of"] is None]
    assert [r["rank"] for r in bids] == sorted({r["rank"] for r in bids})
    assert {"supported", "unsupported"} <= set(bids[0]["outcomes"])


def test_misere_tricks_option_is_the_analysis_setting():
    """``--option misere_tricks=min`` (as the README's API line reads) works on the CLI and
    counts the misères' tricks: the yes/no note is gone; ``--misere-tricks`` too."""
    base = (LOW, "--rules", "fontainebleau_foster", "--samples", "3", "--json")
    plain = json.loads(run(*base).stdout)
    assert any(YES_NO_NOTE in n for n in plain["notes"])
    for extra in (["--option", "misere_tricks=min"], ["--misere-tricks", "min"]):
        res = run(*base, *extra)
        assert res.exit_code == 0, res.output
        assert not any(YES_NO_NOTE in n for n in json.loads(res.stdout)["notes"])


def test_misere_tricks_errors_are_one_line():
    for extra, msg in ((["--option", "misere_tricks=maybe"], "misere_tricks must be"),
                       (["--option", "misere_tricks=min", "--misere-tricks", "bool"],
                        "disagree")):
        res = run(LOW, "--samples", "3", *extra)
        assert res.exit_code == 2, res.output
        assert msg in res.stderr and "Traceback" not in res.output


def test_own_suit_top_is_refused_not_solved_as_trump():
    res = run("KQ.AJ975.AJ4.Q63", "--rules", "boston_russian", "--turnup", "H2", "--senior",
              "S", "--samples", "4", "--option", "boston_card_mode=own_suit_top")
    assert res.exit_code == 2, res.output
    assert "own_suit_top is not supported" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_pass_value_option_and_json_field():
    """Passing is worth what the option says (here more than the Grand Spread this hand
    makes for sure, +480), so pass is the recommendation."""
    res = run(LOW, "--samples", "4", "--json", "--option", "all_pass=none", "--option",
              "pass_value=1000")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["pass_value"] == 1000 and "Misère Partout" in d["pass_model"]
    assert d["recommended"] == "pass" and d["runner_up"] == "grand_spread"
    assert any(n.startswith("pass = +1000") for n in d["notes"])


def test_partner_average_is_accepted():
    res = run("KQ.AJ975.K84.Q63", "--rules", "solo_whist_foster", "--turnup", "H2",
              "--samples", "6", "--json", "--partner", "average", "--option", "proposal=priced")
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert d["partner"] == "average"
    assert next(r for r in d["rungs"] if r["rung"] == "proposal")["priced"] is True
