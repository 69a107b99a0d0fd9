"""The fast solver against the naive minimax of ``tests/naive.py`` on random endings.

Several hundred seeded random endings of 3 to 6 cards per hand, in groups that share trump,
leader and declaring side, so that each group is also solved as one batch. Across the groups:
every trump and no trump, every leader, one declarer against three (each seat), two against
two with adjacent and with opposite partners, with and without the Russian boston card
(docs/RULES.md §1.2, A-40). For every ending: max tricks (``solve``, ``solve_batch``), min tricks
(``solve_batch(mode="min")``) and every yes/no question at_least / at_most / exactly k for
k = 0..n (``solve_target``, ``solve_batch_target``).

The expected values come only from the naive reference.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

import naive
import numpy as np
import pytest

from boston_sim import cards
from boston_sim.solver import solve, solve_batch, solve_batch_target, solve_target

# (declarer, partner): 1 v 3 from every seat, adjacent pairs, opposite pairs
SIDES: list[tuple[int, int | None]] = [
    (0, None), (1, None), (2, None), (3, None),
    (0, 1), (1, 2), (2, 3), (3, 0),
    (0, 2), (1, 3),
]
KINDS = ("at_least", "at_most", "exactly")
# (cards per hand, number of groups, deals per group): small endings are cheap for the naive
# solver, 5 and 6 cards cost about a second each, so there are fewer of them.
PLAN = [(3, 30, 5), (4, 30, 5), (5, 10, 3), (6, 6, 2)]
SEED = 20261130


@dataclass(frozen=True)
class Group:
    n: int
    trump: int
    leader: int
    declarer: int
    partner: int | None
    boston: bool
    deals: tuple[tuple[int, int, int, int], ...]

    @property
    def side_mask(self) -> int:
        return (1 << self.declarer) | (0 if self.partner is None else 1 << self.partner)

    def label(self) -> str:
        side = cards.COMPASS[self.declarer]
        side += "" if self.partner is None else cards.COMPASS[self.partner]
        b = "+B" if self.boston else ""
        return f"n{self.n}-{cards.STRAINS[self.trump]}{b}-lead{cards.COMPASS[self.leader]}-{side}"


def _make_groups() -> list[Group]:
    rng = random.Random(SEED)
    groups = []
    i = 0
    for n, n_groups, size in PLAN:
        for _ in range(n_groups):
            # cycling with co-prime strides covers every trump x leader x side combination evenly
            trump = i % 5
            leader = (i // 5) % 4
            declarer, partner = SIDES[(3 * i) % len(SIDES)]
            # half of the trump-suit groups hold the boston card in every deal
            boston = trump != cards.NT and (i // 2) % 2 == 0
            must = (naive.BOSTON_SOURCE[trump],) if boston else ()
            deals = []
            for _ in range(size):
                hands = naive.random_ending(rng, n, must)
                if boston:
                    moved = cards.boston_card_transform(np.array(hands, dtype=np.uint64), trump)
                    hands = [int(h) for h in moved]
                deals.append(tuple(hands))
            groups.append(Group(n, trump, leader, declarer, partner, boston, tuple(deals)))
            i += 1
    return groups


GROUPS = _make_groups()


@dataclass(frozen=True)
class Expected:
    max_tricks: int
    min_tricks: int
    exactly: tuple[bool, ...]  # index k

    def answer(self, kind: str, k: int) -> bool:
        if kind == "at_least":
            return k <= self.max_tricks
        if kind == "at_most":
            return k >= self.min_tricks
        return self.exactly[k]


@cache
def expected(deal: tuple[int, int, int, int], trump: int, leader: int, side_mask: int) -> Expected:
    n = deal[0].bit_count()
    if n <= 4:
        mx = naive.max_tricks(deal, trump, leader, side_mask)
        mn = naive.min_tricks(deal, trump, leader, side_mask)
    else:
        mx = naive.max_tricks_by_questions(deal, trump, leader, side_mask)
        mn = naive.min_tricks_by_questions(deal, trump, leader, side_mask)
    ex = tuple(naive.can_reach(deal, trump, leader, side_mask, "exactly", k) for k in range(n + 1))
    naive.clear_caches()
    return Expected(mx, mn, ex)


def _describe(g: Group, deal) -> str:
    pbn = cards.format_deal(np.array(deal, dtype=np.uint64))
    return (f"deal {pbn} trump {cards.STRAINS[g.trump]}"
            f"{' (boston card)' if g.boston else ''} leader {cards.COMPASS[g.leader]} "
            f"side_mask {g.side_mask:04b}")


def test_plan_covers_everything() -> None:
    """The random groups really cover what the module docstring promises."""
    assert {g.trump for g in GROUPS} == set(range(5))
    assert {g.leader for g in GROUPS} == set(range(4))
    assert {(g.declarer, g.partner) for g in GROUPS} == set(SIDES)
    assert {g.n for g in GROUPS} == {3, 4, 5, 6}
    assert any(g.boston for g in GROUPS) and any(not g.boston and g.trump != 4 for g in GROUPS)
    assert {g.trump for g in GROUPS if g.boston} == {0, 1, 2, 3}
    assert sum(len(g.deals) for g in GROUPS) >= 300
    # the boston card really is in play (rank 15 of the trump lane) in the boston groups
    for g in GROUPS:
        for deal in g.deals:
            has_b = any(h >> (16 * g.trump + 15) & 1 for h in deal) if g.trump != 4 else False
            assert has_b == g.boston


@pytest.mark.parametrize("n", [2, 3, 4])
def test_naive_reference_is_self_consistent(n: int) -> None:
    """The two naive definitions (counting minimax, yes/no game) agree with each other."""
    rng = random.Random(n)
    for i in range(12):
        deal = tuple(naive.random_ending(rng, n))
        trump, leader = i % 5, (i * 3) % 4
        declarer, partner = SIDES[i % len(SIDES)]
        mask = (1 << declarer) | (0 if partner is None else 1 << partner)
        mx = naive.max_tricks(deal, trump, leader, mask)
        mn = naive.min_tricks(deal, trump, leader, mask)
        # (min may exceed max: different games, the others help in one and hinder in the other)
        assert 0 <= mn <= n and 0 <= mx <= n
        assert naive.max_tricks_by_questions(deal, trump, leader, mask) == mx
        assert naive.min_tricks_by_questions(deal, trump, leader, mask) == mn
        for k in range(n + 1):
            assert naive.can_reach(deal, trump, leader, mask, "at_least", k) == (k <= mx)
            assert naive.can_reach(deal, trump, leader, mask, "at_most", k) == (k >= mn)
            if naive.can_reach(deal, trump, leader, mask, "exactly", k):
                # a plan that forces exactly k forces at least k and at most k
                assert mn <= k <= mx
        # the same games seen from the other side: when the side maximises its tricks, the
        # others minimise them, i.e. maximise their own; likewise for the misère game
        other = 15 ^ mask
        assert naive.max_tricks(deal, trump, leader, other) == n - mx
        assert naive.min_tricks(deal, trump, leader, other) == n - mn
    naive.clear_caches()


def test_naive_follows_the_rules_on_a_tiny_example() -> None:
    """Hand-checked: N ♠A ♥2, E ♠K ♥3, S ♠Q ♥4, W ♠J ♥5; hearts trumps, N leads."""
    deal = cards.parse_deal("N:A.2.. K.3.. Q.4.. J.5..")
    # N leads the ♠A: everyone follows, N wins; N leads the ♥2: W's ♥5 wins. 1 trick for N.
    assert naive.max_tricks(deal, 1, 0, 0b0001) == 1
    # no trump is the same here (everyone can follow)
    assert naive.max_tricks(deal, 4, 0, 0b0001) == 1
    # N-S together: N leads ♠A (wins), then ♥2: E ♥3, S ♥4, W ♥5 wins: still 1
    assert naive.max_tricks(deal, 4, 0, 0b0101) == 1
    # W on lead with hearts trumps leads ♥5 and wins it; then W leads ♠J and N's ♠A wins
    assert naive.max_tricks(deal, 1, 3, 0b0001) == 1
    assert naive.trick_winner(0, (14, 16 + 2, 13, 12), 1) == 1  # E's ♥2 ruffs the ♠A lead
    assert naive.trick_winner(0, (14, 16 + 2, 13, 12), 4) == 0  # in NT the ♥2 is a discard


@pytest.mark.parametrize("group", GROUPS, ids=[g.label() for g in GROUPS])
def test_single_calls_match_naive(group: Group) -> None:
    g = group
    for deal in g.deals:
        exp = expected(deal, g.trump, g.leader, g.side_mask)
        what = _describe(g, deal)
        # strings for plain deals (exercises the parsing path), arrays for boston-card deals
        arg = list(deal) if g.boston else cards.format_deal(np.array(deal, dtype=np.uint64))
        got = solve(arg, cards.STRAINS[g.trump], g.leader, g.declarer, g.partner)
        assert got == exp.max_tricks, f"max tricks: {what}"
        for kind in KINDS:
            for k in range(g.n + 1):
                ans = solve_target(arg, g.trump, cards.COMPASS[g.leader], cards.COMPASS[g.declarer],
                                   None if g.partner is None else cards.COMPASS[g.partner],
                                   kind=kind, target=k)
                assert ans == exp.answer(kind, k), (
                    f"{kind} {k} (max {exp.max_tricks}, min {exp.min_tricks}): {what}"
                )


@pytest.mark.parametrize("group", GROUPS, ids=[g.label() for g in GROUPS])
def test_batch_matches_naive(group: Group) -> None:
    g = group
    hands = np.array(g.deals, dtype=np.uint64)
    exps = [expected(d, g.trump, g.leader, g.side_mask) for d in g.deals]
    got_max = solve_batch(hands, g.trump, g.leader, g.side_mask)
    assert got_max.dtype == np.int8 and got_max.shape == (len(g.deals),)
    assert got_max.tolist() == [e.max_tricks for e in exps], g.label()
    got_min = solve_batch(hands, g.trump, g.leader, g.side_mask, mode="min")
    assert got_min.tolist() == [e.min_tricks for e in exps], g.label()
    for kind in KINDS:
        for k in range(g.n + 1):
            got = solve_batch_target(hands, g.trump, g.leader, g.side_mask, kind, k)
            assert got.dtype == np.bool_
            assert got.tolist() == [e.answer(kind, k) for e in exps], f"{kind} {k} {g.label()}"


def test_batch_out_argument_is_filled() -> None:
    g = GROUPS[0]
    hands = np.array(g.deals, dtype=np.uint64)
    out = np.full(len(g.deals), -1, dtype=np.int8)
    res = solve_batch(hands, g.trump, g.leader, g.side_mask, out=out)
    assert res is out
    assert out.tolist() == [expected(d, g.trump, g.leader, g.side_mask).max_tricks for d in g.deals]
    outb = np.zeros(len(g.deals), dtype=np.bool_)
    res_b = solve_batch_target(hands, g.trump, g.leader, g.side_mask, "at_least", 1, out=outb)
    assert res_b is outb
    want = [expected(d, g.trump, g.leader, g.side_mask).max_tricks >= 1 for d in g.deals]
    assert outb.tolist() == want


def test_batch_of_mixed_boston_and_plain_deals() -> None:
    """One batch mixing deals with and without the boston card, against single solves."""
    rng = random.Random(7)
    trump = 0
    deals = []
    for i in range(20):
        must = (naive.BOSTON_SOURCE[trump],) if i % 2 else ()
        h = np.array(naive.random_ending(rng, 4, must), dtype=np.uint64)
        deals.append(cards.boston_card_transform(h, trump))
    hands = np.array(deals, dtype=np.uint64)
    for mask in (0b0001, 0b0101, 0b0011):
        got = solve_batch(hands, trump, 1, mask)
        want = [naive.max_tricks(tuple(int(x) for x in d), trump, 1, mask) for d in deals]
        assert got.tolist() == want
    naive.clear_caches()


def test_batch_equals_single_calls_and_is_thread_independent() -> None:
    """Bigger endings (no naive answer needed): batch == single calls, 1 thread == 2 threads."""
    import numba
    rng = random.Random(99)
    m, n = 60, 8
    hands = np.array([naive.random_ending(rng, n) for _ in range(m)], dtype=np.uint64)
    old = numba.get_num_threads()
    try:
        results = {}
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            numba.set_num_threads(threads)
            results[threads] = (
                solve_batch(hands, 2, 3, 0b0101).tolist(),
                solve_batch(hands, 4, 1, 0b0001, mode="min").tolist(),
                solve_batch_target(hands, 1, 0, 0b0110, "exactly", 3).tolist(),
            )
    finally:
        numba.set_num_threads(old)
    first = next(iter(results.values()))
    for r in results.values():
        assert r == first
    max_ns, min_n, exact_es = first
    for i in range(0, m, 3):
        assert solve(hands[i], 2, 3, 0, 2) == max_ns[i]
        assert solve_target(hands[i], 4, 1, 0, kind="at_most", target=min_n[i])
        if min_n[i] > 0:
            assert not solve_target(hands[i], 4, 1, 0, kind="at_most", target=min_n[i] - 1)
        assert solve_target(hands[i], 1, 0, 1, 2, kind="exactly", target=3) == exact_es[i]
