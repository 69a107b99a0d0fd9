"""The misère declarer's one-suit game (``_suit_game``) against a slow, obvious search of the
same relaxed game, its properties that make the escape test sound, and the escapes it adds.

The reference plays the relaxed game by its rules with every choice open: the defenders
staying in the suit (any subset of those holding it) and the leader, each defender's card in
turn, and every card of the declarer's (the kernel plays only his best, the highest card
sure to lose, and one card per run of a defender's cards).
"""

from __future__ import annotations

import random
from functools import cache

import naive
import numpy as np
import pytest
from naive import lanes

from boston_sim.solver._escape import ALL_ROUNDS, ducks_for_rounds, escapes
from boston_sim.solver._suit_game import SUIT_MEMO, canonical, caught, suit_safe

MEMO = np.zeros(SUIT_MEMO, dtype=np.int64)
RANK = {r: i + 2 for i, r in enumerate("23456789TJQKA")}


def ranks(text: str) -> int:
    """``"T93"`` -> a lane of those ranks."""
    return sum(1 << RANK[r] for r in text)


def kernel_caught(d: int, left: int, across: int, right: int) -> bool:
    return bool(caught(*canonical(d, left, across, right), MEMO, MEMO.shape[0] - SUIT_MEMO))


def _cards(x: int) -> list[int]:
    return [1 << i for i in range(16) if (x >> i) & 1]


@cache
def reference_caught(d: int, left: int, across: int, right: int) -> bool:
    """The relaxed game by its rules: seats 0 (the declarer), 1, 2, 3 in play order."""
    seats = ((1, left), (2, across), (3, right))
    if d == 0 or (left | across | right) == 0:
        return False
    held = [s for s, g in seats if g]
    for k in range(1, 1 << len(held)):
        stay = [s for i, s in enumerate(held) if (k >> i) & 1]
        hands = (d,) + tuple(g if s in stay else 0 for s, g in seats)
        for leader in stay:
            if _round(hands, [(leader + i) % 4 for i in range(4)], 0, 0, -1):
                return True
    return False


def _round(hands: tuple[int, ...], order: list[int], i: int, top: int, top_seat: int) -> bool:
    """Does the defence win the round from its ``i``-th card on (``top``: the highest card so
    far, played by ``top_seat``)? The declarer's turn is an AND over his cards."""
    if i == 4:
        return top_seat == 0 or reference_caught(*hands)
    seat = order[i]
    if hands[seat] == 0:
        return _round(hands, order, i + 1, top, top_seat)
    results = []
    for c in _cards(hands[seat]):
        rest = tuple(h ^ c if s == seat else h for s, h in enumerate(hands))
        results.append(_round(rest, order, i + 1, max(top, c), seat if c > top else top_seat))
    return all(results) if seat == 0 else any(results)


def _random_suit(rng: random.Random, n: int) -> tuple[int, int, int, int]:
    lanes4 = [0, 0, 0, 0]
    for rank in rng.sample(range(2, 15), n):
        lanes4[rng.randrange(4)] |= 1 << rank
    return tuple(lanes4)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_kernel_agrees_with_the_reference(seed: int) -> None:
    rng = random.Random(5100 + seed)
    caught_count = 0
    for _ in range(400):
        suit = _random_suit(rng, rng.randrange(2, 11))
        want = reference_caught(*suit)
        assert kernel_caught(*suit) == want, suit
        caught_count += want
    assert 40 < caught_count < 360  # both answers are common


def test_a_defender_after_the_declarer_sheds_a_high_card() -> None:
    """N: 9 7 2 against E: Q T 5 and S: A K 8 3 (W void). South leads the 3, N must play his
    2, and East, playing after him, throws his queen; South drops his other spades (as the
    relaxed game lets him), and East's 5 then catches N's 7 and 9."""
    assert reference_caught(ranks("972"), ranks("QT5"), ranks("AK83"), 0)
    assert kernel_caught(ranks("972"), ranks("QT5"), ranks("AK83"), 0)


def test_defenders_who_must_follow_cannot_catch_him() -> None:
    """N: T 9 5 3 2 against E: J 4, S: Q 8, W: A K 7 6. The defenders' four lowest cards (4, 6,
    7, 8) would catch his nine on a fourth round if each could be led alone; but E and S must
    follow with their honours by the second round, and W cannot keep his 6 and 7 for rounds
    that need them. Pairing the cards in order fails; the suit game proves the suit safe."""
    d, e, s, w = ranks("T9532"), ranks("J4"), ranks("Q8"), ranks("AK76")
    assert not ducks_for_rounds(d, e | s | w, 4)
    assert not reference_caught(d, e, s, w)
    assert not kernel_caught(d, e, s, w)


def test_the_canonical_form_keeps_only_the_gaps_between_the_declarers_cards() -> None:
    """Cards re-ranked from 0; a defender's card counts only by the declarer's cards below it;
    each run ordered E, S, W."""
    a = canonical(ranks("95"), ranks("Q7"), ranks("8"), ranks("A3"))
    b = canonical(ranks("T6"), ranks("K8"), ranks("7"), ranks("Q4"))
    assert a == b
    # runs: [W's 3] N's 5 [E's 7, S's 8] N's 9 [E's Q, W's A]
    assert a == (0b0010010, 0b0100100, 0b0001000, 0b1000001)
    assert canonical(ranks("95"), ranks("8"), ranks("7"), 0) != a


def test_safety_survives_the_declarers_discards_and_the_defenders_losses() -> None:
    """What the escape test relies on when it combines suits: a safe suit stays safe when the
    declarer drops his highest card of it (his discards), or a defender loses any card."""
    rng = random.Random(5200)
    checked = 0
    for _ in range(600):
        suit = _random_suit(rng, rng.randrange(2, 12))
        if kernel_caught(*suit):
            continue
        d = suit[0]
        if d:
            assert not kernel_caught(d ^ (1 << (d.bit_length() - 1)), *suit[1:]), suit
        for seat in (1, 2, 3):
            for c in _cards(suit[seat]):
                lost = tuple(h ^ c if i == seat else h for i, h in enumerate(suit))
                assert not kernel_caught(*lost), (suit, seat, c)
        checked += 1
    assert checked > 100


def test_suit_safe_reads_the_seats_after_the_declarer() -> None:
    """``suit_safe`` for a declarer in any seat: his left-hand opponent plays first after him."""
    d, e, s, w = ranks("972"), ranks("QT5"), ranks("AK83"), 0
    for decl in range(4):
        seats = [0, 0, 0, 0]
        for k, lane in enumerate((e, s, w)):
            seats[(decl + 1 + k) % 4] = lane
        hl = np.zeros(16, dtype=np.int64)
        for seat in range(4):
            hl[seat * 4 + 2] = seats[seat]
        assert not suit_safe(hl, 2, decl, d, MEMO)
        assert suit_safe(hl, 2, decl, ranks("2"), MEMO) == (not kernel_caught(ranks("2"), e, s, w))


@pytest.mark.parametrize("n", [4, 5])
def test_escapes_that_only_the_suit_game_proves_hold_in_the_minimax(n: int) -> None:
    """Random endings with the declarer's cards pushed low where some suit fails the pairing
    of ``ducks_for_rounds``, yet ``escapes`` holds: the minimax agrees, whoever leads."""
    rng = random.Random(5300 + n)
    found = 0
    for _ in range(4000):
        if found == (12 if n == 4 else 6):
            break
        d = rng.randrange(4)
        hands = naive.lowered(rng, naive.random_ending(rng, n), d, share=0.7)
        hl = lanes(hands)
        unpaired = [s for s in range(4)
                    if not ducks_for_rounds(hl[d * 4 + s], sum(hl[o * 4 + s] for o in range(4)
                                                               if o != d), ALL_ROUNDS)
                    and hl[d * 4 + s] and not kernel_caught(
                        hl[d * 4 + s], *(hl[((d + k) % 4) * 4 + s] for k in (1, 2, 3)))]
        if not unpaired or not escapes(hl, 4, d, np.zeros((1, 8), dtype=np.int64), 0, 0, MEMO):
            continue
        found += 1
        for leader in range(4):
            if leader != d:
                assert naive.can_reach(hands, 4, leader, 1 << d, "at_most", 0), (hands, d, leader)
    assert found >= 4
    naive.clear_caches()
