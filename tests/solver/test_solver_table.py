"""The transposition table (``_ttable.tt_store`` / ``tt_lookup``): partition search.

An entry holds for every position with the same suit lengths and leader whose cards that
mattered (the top ``d`` cards of each suit, ``d`` per suit, possibly every card) have the
same owners. Entries are chained by their shape (per suit: no card, the top cards, or every
card matters) and those cards' owners; these tests store one entry and look up positions that
must and must not match it, over random shapes (including those whose bit is in the second
word of the shape map).
"""

from __future__ import annotations

import random

import naive
from naive import lanes

from boston_sim.solver._layout import P_GEN
from boston_sim.solver._ttable import (
    _SHAPES_LOW,
    _shape,
    position_key,
    tt_lookup,
    tt_lookup_other,
    tt_new_game,
    tt_store,
)
from boston_sim.solver.kernels import new_workspace


def suit_cards(hands: list[int], s: int) -> list[tuple[int, int]]:
    """(rank, owner) of the cards of suit ``s``, highest first."""
    out = []
    for seat, h in enumerate(hands):
        x = (h >> (16 * s)) & 0xFFFF
        out += [(r, seat) for r in range(16) if (x >> r) & 1]
    return sorted(out, reverse=True)


def swap(hands: list[int], s: int, a: tuple[int, int], b: tuple[int, int]) -> list[int]:
    """The two cards of suit ``s`` change owners (lengths unchanged)."""
    h = list(hands)
    (ra, oa), (rb, ob) = a, b
    for r, fro, to in ((ra, oa, ob), (rb, ob, oa)):
        h[fro] ^= 1 << (16 * s + r)
        h[to] |= 1 << (16 * s + r)
    return h


def masks(depth: list[int]) -> tuple[int, int]:
    m = [((1 << (2 * d)) - 1) for d in depth]
    return m[0] | (m[1] << 32), m[2] | (m[3] << 32)


def test_an_entry_matches_exactly_the_positions_that_agree_on_its_cards() -> None:
    rng = random.Random(77)
    ttk, ttd, mv, fr, P, tk, td = new_workspace(12)

    def lookup(lens, w1, w2, leader, need):
        """The answer of the table, checked against another worker's read of it (the
        table as row 0 of the stacked tables): the same for this game, none for another."""
        a = tt_lookup(ttk, ttd, P, lens, w1, w2, leader, need)
        assert tt_lookup_other(tk, td, 0, P[P_GEN], P, lens, w1, w2, leader, need) == a
        other = tt_lookup_other(tk, td, 0, P[P_GEN] + 1, P, lens, w1, w2, leader, need)
        assert other[0] == -1
        return a[0]

    shapes = set()
    checked = {"match": 0, "differ": 0}
    for _ in range(600):
        n = rng.randint(3, 9)
        hands = naive.random_ending(rng, n)
        cards = [suit_cards(hands, s) for s in range(4)]
        depth = [rng.choice([0, len(c), rng.randint(0, len(c))]) for c in cards]
        leader, need = rng.randrange(4), rng.randint(1, n)
        tt_new_game(P, ttd)  # a new game: an empty table
        lens, w1, w2 = position_key(lanes(hands))
        m1, m2 = masks(depth)
        shapes.add(_shape(lens, m1, m2))
        tt_store(ttk, ttd, P, lens, w1, w2, m1, m2, leader, 1 << need, 0)
        assert lookup(lens, w1, w2, leader, need) == 1
        assert lookup(lens, w1, w2, (leader + 1) & 3, need) == -1
        assert lookup(lens, w1, w2, leader, need - 1) == -1
        for s in range(4):
            c = cards[s]
            # two cards below the ones that matter, of different owners: still a match
            low = c[depth[s]:]
            pairs = [(a, b) for a in low for b in low if a[1] < b[1]]
            if pairs:
                other = lanes(swap(hands, s, *rng.choice(pairs)))
                assert lookup(*position_key(other), leader, need) == 1
                checked["match"] += 1
            # a card that matters changes owner: no match
            top = c[: depth[s]]
            pairs = [(a, b) for a in top for b in c if a[1] != b[1]]
            if pairs:
                other = lanes(swap(hands, s, *rng.choice(pairs)))
                assert lookup(*position_key(other), leader, need) == -1
                checked["differ"] += 1
    assert checked["match"] > 500 and checked["differ"] > 500
    assert any(t >= _SHAPES_LOW for t in shapes) and any(t < _SHAPES_LOW for t in shapes)
