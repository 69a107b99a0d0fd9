"""The move generator against a naive enumeration of the legal cards.

``gen_moves`` offers one card per group of equivalent cards (the top card of the group, with
the group's lowest rank beside it): cards of one suit in one hand are equivalent when no card
between them is held by another hand or lies on the table in the trick under way. Cards
played in earlier tricks are out of play and separate nothing. Its ordering is a heuristic;
which cards it offers is not, and is checked here on random positions of every kind (leads
and follows, every trump, each game the search plays).
"""

from __future__ import annotations

import random

import naive
import numpy as np
import pytest
from naive import lanes

from boston_sim.solver._layout import (
    F_BP,
    F_CARD,
    F_NEED,
    F_R,
    F_SIZE,
    F_TM,
    MAX_PLY,
    MOVE_SLOTS,
    P_COUNTMASK,
    P_MAXMASK,
    P_SIZE,
    P_TRUMP,
)
from boston_sim.solver._moves import gen_moves
from boston_sim.solver._trick import winning_pos


def _groups(hand: int, others: int, led: int | None) -> set[tuple[int, int]]:
    """(top card, lowest rank) of each group of equivalent legal cards of ``hand``."""
    out = set()
    legal = sorted(naive.legal_cards(hand, led))
    i = 0
    while i < len(legal):
        j = i
        # extend while the next legal card is of the same suit with nothing alive between
        while (j + 1 < len(legal) and legal[j + 1] // 16 == legal[j] // 16
               and not any((others >> c) & 1 for c in range(legal[j] + 1, legal[j + 1]))):
            j += 1
        out.add((legal[j], legal[i] % 16))
        i = j + 1
    return out


# (max mask, counted mask): the plain game of a pair and of a lone declarer, a misère
# defence against him, and his own misère play
GAMES = [(0b0101, 0b0101), (0b0001, 0b0001), (0b1110, 0b0001), (0b1010, 0b0101)]


@pytest.mark.parametrize("n", [2, 4, 7, 13])
def test_move_generator_offers_one_card_per_group_of_equivalent_legal_cards(n: int) -> None:
    rng = random.Random(4100 + n)
    fr = np.zeros((MAX_PLY, F_SIZE), dtype=np.int64)
    mv = np.zeros((MAX_PLY, 3 * MOVE_SLOTS), dtype=np.int64)
    P = np.zeros(P_SIZE, dtype=np.int64)
    kinds = {0: 0, 1: 0}
    for _ in range(600):
        hands, leader, played = naive.trick_under_way(rng, n, least=0)
        trump = rng.randrange(5)
        maxmask, countmask = rng.choice(GAMES)
        pos = len(played)
        seat = (leader + pos) % 4
        fr[:] = 0
        tm = 0
        for i, card in enumerate(played):
            fr[i, F_CARD] = card
            tm |= 1 << card
            fr[i, F_TM] = tm
            fr[i, F_BP] = winning_pos(fr, 0, i + 1, trump)
        fr[pos, F_R] = bin(hands[seat]).count("1")
        fr[pos, F_NEED] = rng.randint(1, fr[pos, F_R])
        P[P_TRUMP], P[P_MAXMASK], P[P_COUNTMASK] = trump, maxmask, countmask
        k = int(gen_moves(lanes(hands), fr, P, seat, pos, leader, mv, pos))
        got = {(int(mv[pos, i]), int(mv[pos, 2 * MOVE_SLOTS + i])) for i in range(k)}
        others = tm
        for h in range(4):
            if h != seat:
                others |= hands[h]
        want = _groups(hands[seat], others, played[0] // 16 if played else None)
        assert k == len(got) and got == want, (hands, leader, played, trump, maxmask, countmask)
        kinds[len(want) == 1] += 1
    assert kinds[0] and kinds[1]


def _ranks(*ranks: int) -> int:
    return sum(1 << r for r in ranks)


@pytest.mark.parametrize("rank, mine, others, sets_up", [
    (13, _ranks(13, 12, 11, 9), _ranks(14, 10, 8), True),  # KQJ9 against the A: the K
    (11, _ranks(11, 10, 9), _ranks(12, 8, 2), True),  # JT9 against the Q
    (13, _ranks(13, 9), _ranks(14, 12, 11), False),  # K9: the Q lies between, no sequence
    (12, _ranks(12, 11), _ranks(14, 13, 10), False),  # QJ under two stoppers
    (2, _ranks(2, 5), _ranks(14, 3), False),  # nothing below the 2
])
def test_a_set_up_lead_tops_a_sequence_under_a_single_stopper(rank, mine, others, sets_up):
    from boston_sim.solver._moves import _knocks_out_stopper

    assert bool(_knocks_out_stopper(rank, mine, others)) is sets_up
