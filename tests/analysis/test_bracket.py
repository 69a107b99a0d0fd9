"""The double-dummy bracket of an analysis: which rungs contend, what it reports, and that a
seed gives one bracket whatever the thread count."""

from __future__ import annotations

import json
import math

import pytest

from boston_sim.analysis import analyze
from boston_sim.analysis.bracket import FIGURES, contending

HAND = "AKQJ2.AK3.K32.32"  # a clear trick-taker: Boston, Six and Seven contend
SMALL = {"samples": 12, "bracket": True, "bracket_deals": 3, "bracket_layouts": 3, "seed": 4}


def _row(rung, ev, se, chosen=True, priced=True, outcome_of=None):
    return {"rung": rung, "ev_net": ev, "ev_net_se": se, "chosen": chosen, "priced": priced,
            "outcome_of": outcome_of}


def test_contending_rungs_overlap_the_best():
    rows = [_row("boston", 30.0, 2.0), _row("six", 34.0, 2.0), _row("seven", 10.0, 3.0),
            _row("eight", 28.5, 1.0), _row("six", 20.0, 2.0, chosen=False),
            _row("nine", math.nan, math.nan), _row("little_misere", 40.0, 1.0, priced=False)]
    got = [r["rung"] for r in contending(rows, "six", "boston")]
    # Eight's interval (28.5 +- 2) overlaps Six's (34 +- 3.9); Seven's does not
    assert got == ["six", "boston", "eight"]
    # the runner-up contends even when clearly behind; then the best overlapping; three in all
    rows.append(_row("ten", 33.5, 1.0))
    assert [r["rung"] for r in contending(rows, "six", "seven")] == ["six", "ten", "seven"]


@pytest.fixture(scope="module")
def bracketed():
    return analyze(HAND, threads=2, **SMALL)


def test_bracket_reports_every_figure_of_the_contending_rungs(bracketed):
    br = bracketed.bracket
    assert br is not None and br.rungs
    assert bracketed.recommended in br.rungs
    for figs in br.rungs.values():
        assert set(figs) == set(FIGURES)
        for name, st in figs.items():
            assert st["deals"] == SMALL["bracket_deals"]
            assert 0 <= st["p_make"] <= 1 and st["p_make_se"] > 0
            assert name == "double_dummy" or "ev_diff" in st
    d = bracketed.to_dict()
    assert isinstance(d["bracket_changes_recommendation"], bool)
    withb = [r for r in d["rungs"] if "bracket" in r]
    assert {r["rung"] for r in withb} == set(br.rungs)
    assert set(withb[0]["bracket"]) == set(FIGURES)
    json.dumps(d)  # plain JSON (NaN already null)


def test_double_dummy_figure_is_the_analysis_own(bracketed):
    """The bracket's double-dummy figure replays the analysis's first deals: same tricks."""
    br = bracketed.bracket
    rid = bracketed.recommended
    row = next(r for r in bracketed.rung_rows if r["rung"] == rid)
    tricks = bracketed.tricks[(rid, row["trump"])][: br.deals]
    assert (tricks >= 0).all()  # the recommended bid mostly makes: every count is searched
    made = (tricks >= row["target"]).mean()
    assert br.rungs[rid]["double_dummy"]["p_make"] == pytest.approx(made)
    net = bracketed.payoffs[rid][: br.deals]
    assert br.rungs[rid]["double_dummy"]["ev_net"] == pytest.approx(net.mean())


def test_same_seed_same_bracket_whatever_the_threads(bracketed):
    again = analyze(HAND, threads=1, **SMALL)
    assert again.bracket.rungs == bracketed.bracket.rungs
    assert again.bracket.realistic_best == bracketed.bracket.realistic_best
