"""Quick sanity checks of the solver's public API on positions whose answers are obvious.

The thorough suites (naive reference, DDS, golden positions) live in other test files.
"""

from __future__ import annotations

import numpy as np
import pytest

from boston_sim.cards import boston_card_transform, parse_deal
from boston_sim.errors import SolverInputError
from boston_sim.solver import solve, solve_batch, solve_batch_target, solve_target

# every hand one complete suit: N spades, E hearts, S diamonds, W clubs
SUITS_DEAL = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_solid_suit_on_lead_takes_everything():
    # N leads spades (trumps or not) and nobody can follow or ruff
    assert solve(SUITS_DEAL, "S", "N", "N") == 13
    assert solve(SUITS_DEAL, "NT", "N", "N") == 13
    # with E on lead, E's hearts take every trick in NT
    assert solve(SUITS_DEAL, "NT", "E", "N") == 0
    # ... but in spades N ruffs the first heart and runs the rest
    assert solve(SUITS_DEAL, "S", "E", "N") == 13


def test_misere_and_exactly_on_a_one_card_ending():
    deal = "N:2... 3... 4... 5..."  # W's five wins the only trick
    assert solve_target(deal, "NT", "N", "N", kind="at_most", target=0)
    assert not solve_target(deal, "NT", "N", "W", kind="at_most", target=0)
    assert solve_target(deal, "NT", "N", "W", kind="exactly", target=1)
    assert not solve_target(deal, "NT", "N", "N", kind="exactly", target=1)


def test_boston_card_is_the_top_trump():
    # N holds the J of diamonds, which becomes rank 15 of spades when spades are trumps
    hands = boston_card_transform(parse_deal("N:..J. A... K... Q..."), 0)
    assert solve_batch(hands.reshape(1, 4), 0, 1, 0b0001)[0] == 1
    # in no trump the J of diamonds is a diamond and never wins a spade trick
    plain = parse_deal("N:..J. A... K... Q...").reshape(1, 4)
    assert solve_batch(plain, 4, 1, 0b0001)[0] == 0


def test_batch_does_not_depend_on_thread_count():
    import numba

    rng = np.random.default_rng(5)
    bits = np.array([s * 16 + r for s in range(4) for r in range(2, 15)], dtype=np.uint64)
    deals = np.zeros((12, 4), dtype=np.uint64)
    for i in range(12):
        perm = bits[rng.permutation(52)[:20]]
        for seat in range(4):
            deals[i, seat] = np.bitwise_or.reduce(np.uint64(1) << perm[5 * seat : 5 * seat + 5])
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve_batch(deals, 4, 0, 0b0101)
        one_min = solve_batch(deals, 1, 0, 0b0001, mode="min")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = solve_batch(deals, 4, 0, 0b0101)
        two_min = solve_batch(deals, 1, 0, 0b0001, mode="min")
    finally:
        numba.set_num_threads(before)
    assert (one == two).all() and (one_min == two_min).all()
    singles = [solve(deals[i], "NT", "N", "N", "S") for i in range(12)]
    assert list(one) == singles
    # yes/no forms agree with the values
    assert (solve_batch_target(deals, 4, 0, 0b0101, "at_least", 3) == (one >= 3)).all()


@pytest.mark.parametrize(
    "hands, message",
    [
        (np.array([[1 << 2, 1 << 3, 1 << 4, (1 << 5) | (1 << 6)]], dtype=np.uint64), "unequal"),
        (np.array([[1 << 2, 1 << 2, 1 << 4, 1 << 5]], dtype=np.uint64), "two hands"),
        (np.array([[1 << 0, 1 << 3, 1 << 4, 1 << 5]], dtype=np.uint64), "not a card"),
        (np.array([[0, 0, 0, 0]], dtype=np.uint64), "1 to 13"),
    ],
)
def test_bad_positions_are_refused(hands, message):
    with pytest.raises(SolverInputError, match=message):
        solve_batch(hands, 4, 0, 1)


def test_bad_parameters_are_refused():
    hands = parse_deal(SUITS_DEAL).reshape(1, 4)
    with pytest.raises(SolverInputError):
        solve_batch(hands, 5, 0, 1)
    with pytest.raises(SolverInputError):
        solve_batch(hands, 4, 4, 1)
    with pytest.raises(SolverInputError):
        solve_batch(hands, 4, 0, 0b1111)
    with pytest.raises(SolverInputError):
        solve(SUITS_DEAL, "NT", "N", "S", partner="S")
    with pytest.raises(SolverInputError):
        solve_batch_target(hands, 4, 0, 1, "sometimes", 1)
