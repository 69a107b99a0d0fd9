"""The all-pass game that values a pass: the rule files' ``[all_pass]`` model (a fixed model
or a choice option), its checks, and the Grand's payment (docs/RULES.md §2.1.5, A-29)."""

from __future__ import annotations

import pytest
from helpers import rule_variant as _variant

from boston_sim.errors import RulesError
from boston_sim.rules import grand_all_pass_red, load_rules


def test_each_rule_file_states_its_default_all_pass_model():
    # classic Boston's all-pass game is Misère Partout (§2.1.5); Solo Whist's Grand is only
    # "the custom in some places": off by default
    assert load_rules("boston_foster").all_pass_model == "misere_partout"
    assert load_rules("solo_whist_foster").all_pass_model == "none"
    assert load_rules("solo_whist_foster", {"all_pass": "grand"}).all_pass_model == "grand"
    assert load_rules("boston_foster", {"all_pass": "none"}).all_pass_model == "none"
    for rid in ("boston_modern", "boston_russian", "fontainebleau_foster"):
        assert load_rules(rid).all_pass_model == "none"


def test_the_pass_model_text_says_what_values_a_pass():
    on = load_rules("boston_foster")
    assert "Misère Partout" in on.pass_model and "heuristic play" in on.pass_model
    assert on.to_dict()["all_pass_model"] == "misere_partout"
    off = load_rules("boston_foster", {"all_pass": "none"})
    assert "heuristic" not in off.pass_model and off.pass_value == 0.0
    grand = load_rules("solo_whist_foster", {"all_pass": "grand"})
    assert "Grand" in grand.pass_model and "A-29" in grand.pass_model


def test_unknown_all_pass_model_is_refused():
    with pytest.raises(RulesError, match="all_pass"):
        load_rules("solo_whist_foster", {"all_pass": "misere_partout"})


@pytest.mark.parametrize(("base", "old", "new", "msg"), [
    ("boston_foster", 'model_option = "all_pass"', 'model_option = "all_pass"\nmodel = "grand"',
     "model or model_option, not both"),
    ("boston_foster", 'model_option = "all_pass"', 'model_option = "pool"',
     "not a declared choice option"),
    ("boston_foster", 'model_option = "all_pass"', 'model_option = "payments"',
     "'english' is not one of"),
    ("boston_foster", 'model_option = "all_pass"', 'model = "partout"', "'partout' is not one"),
    ("boston_foster", 'partout = "red_counters"', 'partout = "none"',
     'misere_partout needs partout = "red_counters"'),
    ("boston_modern", 'negate = true', 'negate = true\nmodel = "grand"',
     "grand needs the option red_in_white"),
])
def test_the_all_pass_model_is_checked(tmp_path, base, old, new, msg):
    with pytest.raises(RulesError, match=msg):
        load_rules(_variant(tmp_path, base, old, new))


def test_a_fixed_model_needs_no_option(tmp_path):
    path = _variant(tmp_path, "solo_whist_foster", 'model_option = "all_pass"', 'model = "grand"')
    assert load_rules(path).all_pass_model == "grand"


def test_grand_last_trick_winner_pays_each_other_player_a_solo():
    # a solo's value is 2 red, 10 white at Solo Whist's 1 red = 5 white
    assert grand_all_pass_red(2) == [2.0, 2.0, -6.0, 2.0]
    rs = load_rules("solo_whist_foster", {"all_pass": "grand"})
    assert rs.grand_all_pass(0) == [-30.0, 10.0, 10.0, 10.0]
    for bad in (-1, 4, True, 1.5):
        with pytest.raises(RulesError, match="last trick's winner"):
            grand_all_pass_red(bad)
