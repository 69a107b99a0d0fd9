"""``bid --deals-out FILE.pbn`` writes the sampled deals as PBN boards that a PBN reader
(endplay) parses back, tagged with the seat, the rule set and each contending rung's result;
``--show-failures N`` prints deals on which the recommended bid fails, as four hands."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from boston_sim import analyze
from boston_sim.cards import parse_hand
from boston_sim.cli import app
from boston_sim.views.deals import contenders, made, rung_tricks

runner = CliRunner()
HAND = "KQJT9.AK.QJ2.432"


def test_deals_out_reads_back_with_endplay(tmp_path):
    pbn = pytest.importorskip("endplay.parsers.pbn")
    out = tmp_path / "deals.pbn"
    res = runner.invoke(app, ["bid", HAND, "--samples", "12", "--seed", "3", "--json",
                              "--deals-out", str(out)])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    with out.open(encoding="utf-8") as fh:
        boards = pbn.load(fh)
    assert len(boards) == 12
    rec = d["recommended"]
    rec_row = next(r for r in d["rungs"] if r["rung"] == rec)
    made_count = 0
    for b in boards:
        assert b.info["Boston_Rules"] == "boston_foster"
        assert b.info["Boston_Seat"] == "eldest" and b.info["Boston_Declarer"] == "N"
        assert parse_hand(b.deal.north.to_pbn()) == parse_hand(HAND)  # eldest sits N
        result = b.info[f"Boston_{rec}"]
        made_count += result.endswith(" made")
    # the tags carry the numbers the analysis used
    assert made_count / 12 == pytest.approx(rec_row["p_make"])


def test_deals_out_needs_a_pbn_name(tmp_path):
    res = runner.invoke(app, ["bid", HAND, "--samples", "4", "--deals-out",
                              str(tmp_path / "deals.txt")])
    assert res.exit_code == 2 and ".pbn" in res.output


def test_show_failures_prints_failing_deals_as_four_hands():
    res = runner.invoke(app, ["bid", HAND, "--samples", "20", "--seed", "0", "-q",
                              "--show-failures", "2"])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    head = next(i for i, ln in enumerate(lines) if " fails on " in ln)
    a = analyze(HAND, samples=20, seed=0)
    row = next(r for r in a.rung_rows if r["recommended"])
    failures = int((~made(row, rung_tricks(a, row))).sum())
    assert f"fails on {failures} of 20 deals" in lines[head]
    deals = [ln for ln in lines[head:] if ln.startswith("deal ")]
    assert len(deals) == min(2, failures)
    if deals:
        i = lines.index(deals[0])
        hands = lines[i + 1:i + 5]
        assert [h.split()[0] for h in hands] == ["eldest", "second", "third", "dealer"]
        assert "(you)" in hands[0] and "♠KQJT9" in hands[0]


def test_contenders_put_the_recommended_bid_first():
    a = analyze(HAND, samples=6, seed=1)
    rows = contenders(a)
    assert rows[0]["rung"] == a.recommended and len(rows) == 3


def test_a_misere_deal_left_undecided_reads_so_and_is_no_failure():
    """A misère search past its node budget that was not searched to the end (-1) is
    neither made nor failed: the PBN tag says undecided, and --show-failures skips it."""
    from boston_sim.views.deals import known, made, result_text

    row = {"kind": "zero", "trump": None, "target": 0}
    t = np.array([0, 1, -1])
    assert [result_text(row, int(x)) for x in t] == ["NT made", "NT failed", "NT undecided"]
    assert (~made(row, t) & known(row, t)).tolist() == [False, True, False]
    trick = {"kind": "at_least", "trump": "S", "target": 7}
    assert result_text(trick, -1) == "S <7 failed"  # a two-phase failure not counted
