"""``boston_sim.solve(deal, trump, declarer, leader=..., partner=...)``: the contract named
declarer first, the leader by keyword (default: the declarer's left-hand opponent, or the
eldest hand with ``dealer=``); the older positional order still works, with a warning.

The deal's answers are obvious from the cards (tests/cli/test_cli_solve.py explains them)."""

from __future__ import annotations

import pytest

import boston_sim as bs
from boston_sim import solver

# N: 13 spades; E: 13 top cards outside spades. No trump: whoever of N / E leads runs 13.
TRUMPS13 = "N:AKQJT98765432... .AKQJT9.AKQ.AKQJ .8765.JT9876.T98 .432.5432.765432"
OTHER = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def test_keyword_names_of_the_issue():
    assert bs.solve(TRUMPS13, "NT", "N", leader="N") == 13
    assert bs.solve(TRUMPS13, trump="NT", declarer="N", leader="N") == 13
    assert bs.solve(OTHER, "S", "N", leader="W") == solver.solve(OTHER, "S", "W", "N") == 4
    assert bs.solve(TRUMPS13, "S", "N", partner="S") == 13


def test_default_leader_is_the_declarers_left_or_the_eldest_with_a_dealer():
    assert bs.solve(TRUMPS13, "NT", "N") == 0  # E leads and runs 13
    assert bs.solve(TRUMPS13, "NT", "W") == 0  # N leads: W (declarer) takes nothing
    assert bs.solve(TRUMPS13, "NT") == 0  # declarer N by default, as `boston-sim solve`
    assert bs.solve(TRUMPS13, "NT", "N", dealer="W") == 13  # eldest N leads
    assert bs.solve(TRUMPS13, "NT", 0, leader=0) == 13  # seats as numbers


def test_the_older_positional_order_still_works_and_warns():
    with pytest.warns(DeprecationWarning, match="older order"):
        assert bs.solve(OTHER, "S", "W", "N") == 4
    with pytest.warns(DeprecationWarning):
        assert bs.solve(TRUMPS13, "NT", "N", "N", "S") == 13


@pytest.mark.parametrize("call", [
    lambda: bs.solve(TRUMPS13, "S", "N", declarer="E"),
    lambda: bs.solve(TRUMPS13, "S", "W", "N", declarer="N"),
    lambda: bs.solve(TRUMPS13, "S", "W", "N", "S", "E"),
])
def test_mixed_forms_are_refused(call):
    with pytest.raises(TypeError):
        call()


def test_bad_seats_are_user_errors():
    for kw in ({"leader": "X"}, {"leader": 7}, {"dealer": "Q"}, {"partner": True}):
        with pytest.raises(bs.BostonSimError):
            bs.solve(TRUMPS13, "S", "N", **kw)


def test_solve_target_takes_the_same_seats():
    assert bs.solve_target(TRUMPS13, "NT", "N", leader="N", kind="at_least", target=13)
    assert not bs.solve_target(TRUMPS13, "NT", "N", kind="at_least", target=1)
    assert bs.solve_target(TRUMPS13, "NT", "N", kind="at_most", target=0)  # E leads, N ducks
