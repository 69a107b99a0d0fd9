"""The misère escape tests (``_escape``) against the naive minimax, and their use in the search.

``escapes`` (the defenders on lead) and ``escapes_on_lead`` (the lone declarer on lead) claim
that the declarer can lose every trick from here; each claim is checked on random endings
with ``naive.can_reach`` (at most 0 tricks), with the declarer's cards pushed low so that
the claims hold often, and in trump games too. The search, which also asks ``escapes``
inside a trick once the declarer's card is beaten (``escapes_in_trick``), must then agree with
the minimax on such endings, and settle such a complete deal at its root without expanding a
node.
"""

from __future__ import annotations

import random

import naive
import numpy as np
import pytest
from naive import lanes

from boston_sim.cards import parse_deal
from boston_sim.solver import to_lanes
from boston_sim.solver._escape import (
    ALL_ROUNDS,
    ducks_for_rounds,
    escapes,
    escapes_on_lead,
    guarded,
)
from boston_sim.solver._suit_game import SUIT_MEMO
from boston_sim.solver.kernels import ask_lanes, new_workspace, solve_lanes

MEMO = np.zeros(SUIT_MEMO, dtype=np.int64)  # the escape tests' memo (``_suit_game``)

CARD = {"S": 0, "H": 16, "D": 32, "C": 48}
RANK = {r: i + 2 for i, r in enumerate("23456789TJQKA")}


def hand(text: str) -> int:
    """``"S23 D56"`` -> a hand mask (suit letter, then ranks)."""
    out = 0
    for group in text.split():
        for r in group[1:]:
            out |= 1 << (CARD[group[0]] + RANK[r])
    return out


def _pairs_below(hands: list[int], trump: int, d: int) -> bool:
    """The former single test: in every suit the declarer's ``i``-th lowest card is below the
    others' ``i``-th lowest, whatever the number of rounds (and he holds no trump)."""
    hl = lanes(hands)
    if trump != 4 and hl[d * 4 + trump]:
        return False
    return all(ducks_for_rounds(hl[d * 4 + s], sum(hl[o * 4 + s] for o in range(4) if o != d),
                                ALL_ROUNDS) for s in range(4))


def _escape_endings(rng: random.Random, n: int, count: int, on_lead: bool):
    """Random endings (trump, declarer, hands) where the test claims an escape, and how many
    of them the former single test (``_pairs_below``) also settles."""
    test = escapes_on_lead if on_lead else escapes
    scratch = np.zeros((1, 8), dtype=np.int64)
    out, old = [], 0
    while len(out) < count:
        d = rng.randrange(4)
        hands = naive.lowered(rng, naive.random_ending(rng, n), d)
        trump = rng.choice([4, 4, 4, 0, 1, 2, 3])
        if test(lanes(hands), trump, d, scratch, 0, 0, MEMO):
            out.append((trump, d, hands))
            old += _pairs_below(hands, trump, d)
    return out, old


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_escapes_leave_the_declarer_no_trick_whoever_defends_on_lead(n: int) -> None:
    rng = random.Random(4100 + n)
    endings, old = _escape_endings(rng, n, 60 if n < 5 else 12, on_lead=False)
    for trump, d, hands in endings:
        for leader in range(4):
            if leader != d:
                assert naive.can_reach(hands, trump, leader, 1 << d, "at_most", 0), (
                    hands, trump, d, leader)
    if n >= 3:
        assert old < len(endings)  # the new counts settle positions the old test did not
    naive.clear_caches()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_escapes_on_lead_have_a_safe_lead(n: int) -> None:
    rng = random.Random(4200 + n)
    endings, _ = _escape_endings(rng, n, 60 if n < 5 else 12, on_lead=True)
    for trump, d, hands in endings:
        assert naive.can_reach(hands, trump, d, 1 << d, "at_most", 0), (hands, trump, d)
    naive.clear_caches()


def test_rounds_are_capped_by_the_longest_defender() -> None:
    """N's nine of spades is above the defenders' six, but each defender holds one spade:
    spades are led once, N plays under it and discards the nine later."""
    hands = [hand("S239"), hand("S4 HAK"), hand("S5 HQJ"), hand("S6 DAK")]
    hl = lanes(hands)
    assert not ducks_for_rounds(hl[0], hl[4] | hl[8] | hl[12], 3)
    assert ducks_for_rounds(hl[0], hl[4] | hl[8] | hl[12], 1)
    scratch = np.zeros((1, 8), dtype=np.int64)
    assert escapes(hl, 4, 0, scratch, 0, 0, MEMO)
    assert not _pairs_below(hands, 4, 0)
    for leader in (1, 2, 3):
        assert naive.can_reach(hands, 4, leader, 0b0001, "at_most", 0)


def test_a_guard_needs_a_surplus_over_the_rounds_he_can_discard_in() -> None:
    """East's diamonds all top N's, so N is safe in them while East holds one: with three to
    N's two, East keeps one to the end. In the second ending West's diamonds top N's nine,
    but West has no clubs: East leads clubs twice, West discards his diamonds, and East's
    two of diamonds catches N."""
    safe = [hand("S23 D56"), hand("S4 D9TJ"), hand("S56 D23"), hand("HAKQJ")]
    hl = lanes(safe)
    assert guarded(hl, 2, 0, 0, 0) and not ducks_for_rounds(hl[2], hl[6] | hl[10] | hl[14], 4)
    scratch = np.zeros((1, 8), dtype=np.int64)
    assert escapes(hl, 4, 0, scratch, 0, 0, MEMO)
    for leader in (1, 2, 3):
        assert naive.can_reach(safe, 4, leader, 0b0001, "at_most", 0)
    caught = [hand("H2 D9 C95"), hand("S3 D2 CQ6"), hand("SJ76 HQ"), hand("HJ7 DKT")]
    hl = lanes(caught)
    assert not guarded(hl, 2, 0, 0, 0)
    assert not escapes(hl, 4, 0, scratch, 0, 0, MEMO)
    assert not naive.can_reach(caught, 4, 1, 0b0001, "at_most", 0)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_solver_agrees_with_minimax_where_an_escape_test_applies(n: int) -> None:
    """The search's use of the tests: cut-offs at trick boundaries of the misère game, the
    defenders or the declarer on lead, checked from positions where one holds at once."""
    rng = random.Random(4300 + n)
    ws = new_workspace(16)
    endings = []
    for on_lead in (False, True):
        endings += _escape_endings(rng, n, 15 if n < 5 else 5, on_lead)[0]
    for trump, d, hands in endings:
        for leader in range(4):
            want = naive.min_tricks(hands, trump, leader, 1 << d)
            assert solve_lanes(lanes(hands), trump, leader, 1 << d, ws, mode="min") == want, (
                hands, trump, d, leader)
            misere = ask_lanes(lanes(hands), trump, leader, 1 << d, ws, kind="at_most", target=0)
            assert misere == (want == 0)
    naive.clear_caches()


def test_a_whole_escape_is_settled_at_the_root() -> None:
    """An eldest misère hand whose escape took 45 million nodes to prove: a lead of a low
    heart, after which spades and hearts duck every round they can be led, East's diamonds
    top N's and West's clubs pair off above his, with cards to spare for both."""
    deal = parse_deal("N:T9532.642.53.742 K84.KQ97.Q97.J95 AQJ.AJ.AJT862.86 76.T853.K4.AKQT3")
    hl = to_lanes(deal.reshape(1, 4))[0]
    ws = new_workspace(16)
    assert ask_lanes(hl, 4, 0, 0b0001, ws, kind="at_most", target=0) == 1
    assert ws.stats().nodes == 0


@pytest.mark.parametrize("n", [4, 5])
def test_misere_search_agrees_with_minimax_on_low_declarer_endings(n: int) -> None:
    """Endings with the declarer's cards pushed low (escapes and near escapes), any leader:
    the yes/no misère search and the fewest-tricks value against the minimax."""
    rng = random.Random(4400 + n)
    ws = new_workspace(16)
    escaped = 0
    for _ in range(120 if n == 4 else 40):
        d = rng.randrange(4)
        hands = naive.lowered(rng, naive.random_ending(rng, n), d)
        trump = rng.choice([4, 4, 4, 0, 1, 2, 3])
        leader = rng.randrange(4)
        want = naive.min_tricks(hands, trump, leader, 1 << d)
        assert solve_lanes(lanes(hands), trump, leader, 1 << d, ws, mode="min") == want, (
            hands, trump, d, leader)
        misere = ask_lanes(lanes(hands), trump, leader, 1 << d, ws, kind="at_most", target=0)
        assert misere == (want == 0), (hands, trump, d, leader)
        escaped += want == 0
    assert escaped > 10
    naive.clear_caches()
