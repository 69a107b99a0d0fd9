"""Rule-file fields that say how a call is valued beyond its tariff: a bid's other outcome
(``outcome_of``), a call the analysis does not price (``analysis_priced``), the all-pass
outcome (``[all_pass]``) and options refused with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import rule_variant as _variant

from boston_sim.errors import RulesError
from boston_sim.rules import load_rules, score


def test_russian_purchase_is_one_bid_per_suit_with_its_unsupported_outcome():
    rs = load_rules("boston_russian")
    bids = [r for r in rs.rungs if r.outcome_of is None]
    assert [r.id for r in bids][:3] == ["pair_junior", "pair_senior", "independence"]
    assert [r.rank for r in bids] == list(range(1, len(bids) + 1))  # L77: six bids in order
    alone = rs.rung("alone_junior")
    assert alone.outcome_of == "pair_junior" and alone.rank == rs.rung("pair_junior").rank
    assert rs.rung("alone_senior").outcome_of == "pair_senior"
    # the old names still find the records; the tariff is unchanged (§2.5.10)
    assert rs.rung("Purchase in the junior suit (unsupported)").id == "alone_junior"
    assert score(rs, "alone_junior", 5).amount == 2
    assert rs.to_dict()["rungs"][1]["outcome_of"] == "pair_junior"


def test_an_outcome_must_follow_its_bid(tmp_path: Path):
    path = _variant(tmp_path, "boston_russian", 'outcome_of = "pair_junior"',
                    'outcome_of = "pair_senior"')
    with pytest.raises(RulesError, match=r"rungs\[alone_junior\].outcome_of: 'pair_senior' "
                                         "must be the bid listed just before it"):
        load_rules(path)


def test_purchase_support_is_a_probability():
    assert load_rules("boston_russian").support_share == 1.0
    assert load_rules("boston_russian", {"purchase_support": "0.3"}).support_share == 0.3
    with pytest.raises(RulesError, match="purchase_support: bad value"):
        load_rules("boston_russian", {"purchase_support": 1.5})


def test_proposal_is_priced_by_the_rules_but_not_by_the_analysis_by_default():
    rs = load_rules("solo_whist_foster")
    prop = rs.rung("proposal")
    assert prop.priced and not prop.analysis_priced  # §3.3: nobody may accept
    assert score(rs, "proposal", 9).amount == 6  # the rules engine still pays it
    assert "acceptance not modelled" in prop.note
    assert load_rules("solo_whist_foster", {"proposal": "priced"}).rung(
        "proposal").analysis_priced


def test_own_suit_top_is_refused_with_its_reason():
    with pytest.raises(RulesError, match="own_suit_top is not supported: .*top trump"):
        load_rules("boston_russian", {"boston_card_mode": "own_suit_top"})
    assert load_rules("boston_russian", {"boston_card_mode": "off"}).options[
        "boston_card_mode"] == "off"


@pytest.mark.parametrize(("old", "new", "msg"), [
    ('option = "pass_value"', 'option = "pool"\nvalue = 3', "either value"),
    ('option = "pass_value"', 'option = "payments"', "not a declared number option"),
    ('option = "pass_value"', 'option = "pass_value"\ncolour = 1', r"all_pass.colour: unknown"),
    ('option = "pass_value"', 'value = "none"', "all_pass.value: expected a number"),
])
def test_all_pass_is_checked(tmp_path: Path, old: str, new: str, msg: str):
    with pytest.raises(RulesError, match=msg):
        load_rules(_variant(tmp_path, "boston_foster", old, new))


def test_every_built_in_rule_set_states_its_all_pass_outcome():
    for rid in ("boston_foster", "boston_modern", "solo_whist_foster", "boston_russian",
                "fontainebleau_foster"):
        rs = load_rules(rid)
        assert rs.all_pass is not None and rs.pass_value == 0.0
        assert rs.to_dict()["pass_model"] == rs.pass_model
