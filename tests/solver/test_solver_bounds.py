"""The solver's cut-off bounds against the naive minimax on random endings.

A bound is only safe if it holds whatever the players do, so each is checked against the
exact values of ``tests/naive.py``:

* ``trump_bounds``: the counted side's sure trump tricks are at most the tricks it takes when
  it tries to lose them (``min_tricks``), and the other side's sure trump tricks leave at
  least the tricks the counted side takes when it tries to win them (``max_tricks``);
* ``team_quick_tricks`` (and ``cross_quick_tricks``, the leader's winners then his partner's):
  the leader's team can take at least that many (``max_tricks``); the relevant ranks are
  checked by the naive and DDS comparisons, which use them for the table;
* ``ruff_trick``: the leader's team wins the trick he leads by a teammate's ruff, also
  where the trumps below the rank it reports lie elsewhere (``max_tricks`` >= 1);
* ``split_top_trumps``: the other side then takes two tricks (``max_tricks`` <= n - 2);
* ``trump_behind_rho`` and ``second_and_third_trumps``: with the other side on lead, the
  counted side then takes a trick;
* ``stoppers``: the side on lead then cannot take every trick (``max_tricks`` <= n - 1);
* ``escapes`` (misère): a lone declarer whose cards lie below the others' in every suit
  takes no trick against any defender's lead (``min_tricks`` == 0; the test's other cases
  are checked in ``test_solver_escape``);
* ``sure_trick`` (inside a trick): the side it names wins the trick however the others play
  (every way of finishing the trick is tried), also where the cards below the rank it
  reports lie elsewhere.
"""

from __future__ import annotations

import random

import naive
import numpy as np
import pytest
from naive import lanes

from boston_sim.solver._escape import escapes
from boston_sim.solver._later_tricks import (
    second_and_third_trumps,
    split_top_trumps,
    stoppers,
    trump_behind_rho,
    trump_bounds,
)
from boston_sim.solver._layout import F_CARD, F_SIZE, MAX_PLY
from boston_sim.solver._quick_tricks import cross_quick_tricks, ruff_trick, team_quick_tricks
from boston_sim.solver._suit_game import SUIT_MEMO
from boston_sim.solver._trick import sure_trick, winning_pos

MEMO = np.zeros(SUIT_MEMO, dtype=np.int64)  # the escape tests' memo (``_suit_game``)

SIDES = (0b0001, 0b0010, 0b0101, 0b0011, 0b1110)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_sure_trump_bounds_hold_against_minimax(n: int) -> None:
    rng = random.Random(700 + n)
    checked_lo = checked_hi = 0
    for _ in range(40 if n < 5 else 12):
        hands = naive.random_ending(rng, n)
        trump = rng.randrange(4)
        side = rng.choice(SIDES)
        lo, hi = trump_bounds(lanes(hands), trump, side)
        leader = rng.randrange(4)
        assert 0 <= lo <= n and 0 <= hi <= n
        assert lo <= naive.min_tricks(hands, trump, leader, side), (hands, trump, side, leader)
        assert n - hi >= naive.max_tricks(hands, trump, leader, side), (hands, trump, side, leader)
        checked_lo += lo > 0
        checked_hi += hi > 0
    assert checked_lo and checked_hi  # the bounds were not all trivial


@pytest.mark.parametrize("n", [3, 4, 5])
def test_team_quick_tricks_are_takeable(n: int) -> None:
    rng = random.Random(900 + n)
    nonzero = 0
    for _ in range(120 if n < 5 else 30):
        hands = naive.random_ending(rng, n)
        trump = rng.randrange(5)
        team = rng.choice(SIDES)
        leader = rng.choice([s for s in range(4) if (team >> s) & 1])
        scratch = np.zeros((1, 8), dtype=np.int64)
        q = team_quick_tricks(lanes(hands), leader, trump, team, n, n, scratch, 0, 0, 4)
        assert q <= naive.max_tricks(hands, trump, leader, team), (hands, trump, team, leader)
        nonzero += q > 0
    assert nonzero


@pytest.mark.parametrize("n", [3, 4, 5])
def test_cross_quick_tricks_are_takeable(n: int) -> None:
    """The leader cashes his side suits, crosses to his partner's top card and the partner
    cashes his: the team takes at least that many tricks however the opponents play."""
    rng = random.Random(1800 + n)
    scratch = np.zeros((1, 8), dtype=np.int64)
    seen = 0
    while seen < (40 if n < 5 else 15):
        hands = naive.random_ending(rng, n)
        trump = rng.randrange(5)
        team = rng.choice((0b0101, 0b1010, 0b0011, 0b1100, 0b0110, 0b1001))
        leader = rng.choice([s for s in range(4) if (team >> s) & 1])
        q = cross_quick_tricks(lanes(hands), leader, trump, team, scratch, 0, 0)
        if q:
            seen += 1
            assert q <= naive.max_tricks(hands, trump, leader, team), (hands, trump, team, leader)


def relabel_below(hands: list[int], thresholds: list[int], rng: random.Random) -> list[int]:
    """A position the table would treat as the same one: every card at or above the suit's
    threshold rank keeps its owner, the cards below it are dealt out again at random (each
    hand keeps its length in the suit)."""
    out = list(hands)
    for suit in range(4):
        low = [(seat, bit) for seat in range(4) for bit in range(suit * 16, suit * 16 + 16)
               if (hands[seat] >> bit) & 1 and bit - suit * 16 < thresholds[suit]]
        owners = [seat for seat, _ in low]
        rng.shuffle(owners)
        for seat, bit in low:
            out[seat] &= ~(1 << bit)
        for (_, bit), seat in zip(low, owners, strict=False):
            out[seat] |= 1 << bit
    return out


@pytest.mark.parametrize("n", [3, 4, 5])
def test_team_quick_tricks_relevant_ranks_generalise(n: int) -> None:
    """The table stores a quick-trick cut-off for every position that agrees on the lengths
    and on the owners of the cards at or above the ranks the bound reported: the bound must
    hold in each of them, whatever goal stopped the count."""
    rng = random.Random(1100 + n)
    moved = 0
    for _ in range({3: 2500, 4: 300, 5: 40}[n]):
        hands = naive.random_ending(rng, n)
        trump = rng.randrange(5)
        team = rng.choice(SIDES)
        leader = rng.choice([s for s in range(4) if (team >> s) & 1])
        goal = rng.randint(1, n)
        scratch = np.zeros((1, 8), dtype=np.int64)
        q = team_quick_tricks(lanes(hands), leader, trump, team, n, goal, scratch, 0, 0, 4)
        thresholds = [int(t) for t in scratch[0, :4]]
        for _ in range(3):
            other = relabel_below(hands, thresholds, rng)
            moved += other != hands
            assert min(q, goal) <= naive.max_tricks(other, trump, leader, team), (
                hands, other, trump, team, leader, goal, thresholds)
    assert moved


def test_quick_tricks_rely_only_on_the_rounds_the_goal_needs() -> None:
    """N cashes ♠AKQ at no trump: for one trick the count relies on the ace alone (the owners
    of the king and queen do not matter), for all three on the queen and above."""
    def spades(*ranks: int) -> int:
        return sum(1 << r for r in ranks)  # spades are suit 0: bit = rank

    hands = [spades(14, 13, 12), spades(5, 4, 3), spades(8, 7, 6), spades(11, 10, 9)]
    for goal, lowest in ((1, 14), (2, 13), (3, 12)):
        scratch = np.zeros((1, 8), dtype=np.int64)
        q = team_quick_tricks(lanes(hands), 0, 4, 0b0001, 3, goal, scratch, 0, 0, 4)
        assert q >= goal
        assert int(scratch[0, 0]) == lowest, (goal, scratch[0, :4])


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ruff_trick_is_a_trick_for_the_leaders_team(n: int) -> None:
    """Where ``ruff_trick`` says the leader's team wins the trick by a ruff, the team takes at
    least one trick however the others play, in the position itself and in those the table
    would treat as the same (the trumps below the reported rank dealt out again)."""
    rng = random.Random(2300 + n)
    scratch = np.zeros((1, 4), dtype=np.int64)
    seen = ranked = 0
    while seen < (60 if n < 5 else 20):
        hands = naive.random_ending(rng, n)
        trump = rng.randrange(4)
        team = rng.choice((0b0101, 0b1010, 0b0011, 0b1100, 0b0110, 0b1001, 0b1110, 0b1101))
        leader = rng.choice([s for s in range(4) if (team >> s) & 1])
        if not ruff_trick(lanes(hands), leader, trump, team, scratch, 0, 0):
            continue
        seen += 1
        thresholds = [int(t) for t in scratch[0, :4]]
        ranked += thresholds[trump] < 16
        for other in [hands] + [relabel_below(hands, thresholds, rng) for _ in range(3)]:
            assert naive.max_tricks(other, trump, leader, team) >= 1, (
                hands, other, trump, team, leader, thresholds)
    assert ranked  # some cut-offs relied on trump ranks (an opponent void in the suit)


def test_ruff_trick_needs_a_ruff_no_opponent_can_beat() -> None:
    """Spades trumps, N leads to S, who is void in hearts with the nine of spades. E, void in
    hearts and clubs too, holds the ten and plays before S: no sure trick. With the ten in W's
    hand instead (he follows to hearts) the heart lead is one."""
    from boston_sim.cards import parse_deal

    def ruff(pbn: str) -> int:
        hands = [int(h) for h in parse_deal(pbn)]
        return ruff_trick(lanes(hands), 0, 0, 0b0101, np.zeros((1, 4), np.int64), 0, 0)

    assert ruff("N:.2..2 T..3. 9...4 .4..5") == 0
    assert ruff("N:.2..2 ..3.3 9...4 T.4..") == 1


def _split_top_endings(rng: random.Random, n: int, count: int):
    """Random endings (trump, side, hands) in which ``split_top_trumps`` holds."""
    out = []
    while len(out) < count:
        trump = rng.randrange(4)
        hands = naive.random_ending(rng, n, must_hold=(trump * 16 + 14, trump * 16 + 13))
        side = rng.choice(SIDES)
        if split_top_trumps(lanes(hands), trump, side):
            out.append((trump, side, hands))
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_split_top_trumps_give_the_other_side_two_tricks(n: int) -> None:
    """When the other side holds the top two trumps in two hands, one with a spare trump, the
    counted side takes at most n - 2 tricks however it plays, whoever leads."""
    rng = random.Random(1100 + n)
    for trump, side, hands in _split_top_endings(rng, n, 30 if n < 5 else 10):
        for leader in range(4):
            assert naive.max_tricks(hands, trump, leader, side) <= n - 2, (hands, trump, side)


def test_split_top_trumps_needs_a_spare_trump() -> None:
    """Two singleton honours fall together on a trump lead: the test must not claim two tricks
    (N leads the trump queen; E's ace and W's king are both singletons)."""
    t = 0  # spades
    card = {"SA": t * 16 + 14, "SK": t * 16 + 13, "SQ": t * 16 + 12, "HA": 16 + 14, "HK": 16 + 13,
            "H2": 16 + 2, "H3": 16 + 3}
    hands = [1 << card["SQ"] | 1 << card["HA"], 1 << card["SA"] | 1 << card["H2"],
             1 << card["HK"] | 1 << card["H3"], 1 << card["SK"] | 1 << (16 + 4)]
    assert not split_top_trumps(lanes(hands), t, 0b0101)
    assert naive.max_tricks(hands, t, 0, 0b0101) == 1  # so two tricks are not theirs


@pytest.mark.parametrize("n", [3, 4, 5])
def test_solver_agrees_with_minimax_where_the_top_trumps_are_split(n: int) -> None:
    """The search's use of the test (a cut-off when the side needs all tricks but one)."""
    from boston_sim.solver.kernels import new_workspace, solve_lanes

    rng = random.Random(1200 + n)
    ws = new_workspace(16)
    for trump, side, hands in _split_top_endings(rng, n, 25 if n < 5 else 8):
        leader = rng.randrange(4)
        got = solve_lanes(lanes(hands), trump, leader, side, ws)
        assert got == naive.max_tricks(hands, trump, leader, side), (hands, trump, side, leader)


ONE_TRICK_TESTS = [trump_behind_rho, second_and_third_trumps]


def _second_over_top_endings(rng: random.Random, n: int, count: int, test=trump_behind_rho):
    """Random endings (trump, side, leader, hands) in which ``test`` (one of
    ``ONE_TRICK_TESTS``) holds and the other side is on lead."""
    out = []
    while len(out) < count:
        trump = rng.randrange(4)
        top = tuple(trump * 16 + r for r in (14, 13, 12))
        hands = naive.random_ending(rng, n, must_hold=top)
        side = rng.choice(SIDES + (0b0100, 0b1000))
        if test(lanes(hands), trump, side):
            leader = rng.choice([s for s in range(4) if not (side >> s) & 1])
            out.append((trump, side, leader, hands))
    return out


@pytest.mark.parametrize("test", ONE_TRICK_TESTS)
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_second_trump_tests_take_a_trick(n: int, test) -> None:
    """The second trump with a spare, sitting just after the top trump (or with the third
    trump also on its side), takes a trick for its side when the other side is on lead,
    however the other side plays."""
    rng = random.Random(1300 + n)
    for trump, side, leader, hands in _second_over_top_endings(rng, n, 40 if n < 5 else 12,
                                                               test):
        assert naive.max_tricks(hands, trump, leader, side) >= 1, (hands, trump, side, leader)


def test_trump_behind_rho_with_two_higher_trumps_takes_a_trick() -> None:
    """Q-x-x behind A-K: the generalised test (two higher trumps, both with the right-hand
    opponent, and two spares) on random endings, against the naive minimax."""
    rng = random.Random(1500)
    seen = 0
    for n in (3, 4, 5):
        while seen < 12 * (n - 2):
            trump = rng.randrange(4)
            top = tuple(trump * 16 + r for r in (14, 13, 12))
            hands = naive.random_ending(rng, n, must_hold=top)
            side = rng.choice(SIDES + (0b0100, 0b1000))
            if trump_behind_rho(lanes(hands), trump, side) >= 3:
                seen += 1
                for leader in [s for s in range(4) if not (side >> s) & 1]:
                    got = naive.max_tricks(hands, trump, leader, side)
                    assert got >= 1, (hands, trump, side, leader)


def test_trump_behind_rho_needs_as_many_spares_as_higher_trumps() -> None:
    """W holds Q-4 of spades, S (just before him) A-K: N leads his three of spades, S wins
    with the ace and leads the king, and W's queen falls. One spare is not enough against two
    higher trumps."""
    hands = [1 << 3 | 1 << (16 + 2), 1 << (16 + 14) | 1 << (16 + 13), 1 << 14 | 1 << 13,
             1 << 12 | 1 << 4]
    assert not trump_behind_rho(lanes(hands), 0, 0b1000)
    assert naive.max_tricks(hands, 0, 0, 0b1000) == 0
    hands[3] = 1 << 12 | 1 << 4 | 1 << 2
    hands[0] |= 1 << (16 + 3)
    hands[1] |= 1 << (16 + 4)
    hands[2] |= 1 << (16 + 5)
    assert trump_behind_rho(lanes(hands), 0, 0b1000) == 3  # a second spare: Q-4-2
    assert naive.max_tricks(hands, 0, 0, 0b1000) >= 1


def test_trump_behind_rho_needs_the_other_side_on_lead() -> None:
    """On lead with nothing but trumps, the holder of K-3 must lead into the ace: W holds
    the king and the three of spades, S (just before him) the ace and the six; W alone takes
    no trick when he leads, so the test must only be used with the other side on lead."""
    spade = {r: r for r in range(2, 15)}  # spades are suit 0: card = rank
    hands = [1 << (48 + 11) | 1 << (16 + 14), 1 << (32 + 13) | 1 << (32 + 11),
             1 << spade[14] | 1 << spade[6], 1 << spade[13] | 1 << spade[3]]
    assert trump_behind_rho(lanes(hands), 0, 0b1000)
    assert naive.max_tricks(hands, 0, 3, 0b1000) == 0  # W on lead: no trick
    assert naive.max_tricks(hands, 0, 0, 0b1000) >= 1  # N on lead: the king scores


@pytest.mark.parametrize("test", ONE_TRICK_TESTS)
@pytest.mark.parametrize("n", [3, 4, 5])
def test_solver_agrees_with_minimax_where_a_second_trump_test_applies(n: int, test) -> None:
    """The search's use of the tests (a cut-off when the side needs one trick, and its
    mirror when the side on lead needs every trick)."""
    from boston_sim.solver.kernels import new_workspace, solve_lanes

    rng = random.Random(1400 + n)
    ws = new_workspace(16)
    for trump, side, leader, hands in _second_over_top_endings(rng, n, 25 if n < 5 else 8,
                                                               test):
        for s, ld in ((side, leader), (15 ^ side, leader)):
            got = solve_lanes(lanes(hands), trump, ld, s, ws)
            assert got == naive.max_tricks(hands, trump, ld, s), (hands, trump, s, ld)


def _stopper_endings(rng: random.Random, n: int, count: int):
    """Random endings (trump, side on lead, leader, hands) in which ``stoppers`` holds."""
    out = []
    scratch = np.zeros((1, 8), dtype=np.int64)
    while len(out) < count:
        trump = rng.choice([4, 4, 0, 1, 2, 3])
        hands = naive.random_ending(rng, n)
        side = rng.choice(SIDES + (0b0100, 0b1000, 0b1010))
        if stoppers(lanes(hands), trump, side, n, scratch, 0, 0):
            leader = rng.choice([s for s in range(4) if (side >> s) & 1])
            out.append((trump, side, leader, hands))
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_stoppers_leave_the_other_side_a_trick(n: int) -> None:
    """With a stopper kept in each hand of the other side, the side on lead (holding no
    trump) cannot take every trick, however it plays."""
    rng = random.Random(1600 + n)
    for trump, side, leader, hands in _stopper_endings(rng, n, 40 if n < 5 else 12):
        assert naive.max_tricks(hands, trump, leader, side) <= n - 1, (hands, trump, side, leader)


def test_stoppers_need_the_side_on_lead_without_trumps() -> None:
    """N (6 of spades, 7 of hearts, 6 of clubs) and E (3 of spades, 9 of hearts, 6 of
    diamonds), E on lead, against S's Q-J of clubs and W's 10-4 of diamonds: at no trump the
    stoppers hold them to two tricks, but with spades trumps they ruff both stoppers and take
    all three. So the test must not be used when the side on lead holds a trump."""
    card = {"S": 0, "H": 16, "D": 32, "C": 48}
    hands = [1 << (card["S"] + 6) | 1 << (card["H"] + 7) | 1 << (card["C"] + 6),
             1 << (card["S"] + 3) | 1 << (card["H"] + 9) | 1 << (card["D"] + 6),
             1 << (card["H"] + 5) | 1 << (card["C"] + 12) | 1 << (card["C"] + 11),
             1 << (card["D"] + 10) | 1 << (card["D"] + 4) | 1 << (card["C"] + 7)]
    scratch = np.zeros((1, 8), dtype=np.int64)
    assert stoppers(lanes(hands), 4, 0b0011, 3, scratch, 0, 0)
    assert naive.max_tricks(hands, 4, 1, 0b0011) <= 2
    assert not stoppers(lanes(hands), 0, 0b0011, 3, scratch, 0, 0)
    assert naive.max_tricks(hands, 0, 1, 0b0011) == 3


@pytest.mark.parametrize("n", [3, 4, 5])
def test_solver_agrees_with_minimax_where_stoppers_apply(n: int) -> None:
    """The search's use of the test: a cut-off when the counted side is on lead and needs
    every trick, and when it needs one trick against the other side's lead."""
    from boston_sim.solver.kernels import new_workspace, solve_lanes

    rng = random.Random(1700 + n)
    ws = new_workspace(16)
    for trump, side, leader, hands in _stopper_endings(rng, n, 25 if n < 5 else 8):
        for s in (side, 15 ^ side):
            got = solve_lanes(lanes(hands), trump, leader, s, ws)
            assert got == naive.max_tricks(hands, trump, leader, s), (hands, trump, s, leader)


def _low_declarer_endings(rng: random.Random, n: int, count: int):
    """Random endings (trump, declarer, hands) in which ``escapes`` holds; half of them
    with the declarer's cards replaced by the lowest of their suits, so that the test holds
    often enough to find."""
    out = []
    scratch = np.zeros((1, 8), dtype=np.int64)
    while len(out) < count:
        hands = naive.random_ending(rng, n)
        d = rng.randrange(4)
        trump = rng.choice([4, 4, 0, 1, 2, 3])
        if rng.random() < 0.5:
            # swap each of the declarer's cards with the lowest card of its suit held elsewhere
            for bit in naive.cards_in(hands[d]):
                others = [(b, i) for i in range(4) if i != d for b in naive.cards_in(hands[i])
                          if b // 16 == bit // 16]
                if others and min(others)[0] < bit:
                    low, owner = min(others)
                    hands[owner] ^= (1 << low) | (1 << bit)
                    hands[d] ^= (1 << low) | (1 << bit)
        if escapes(lanes(hands), trump, d, scratch, 0, 0, MEMO):
            out.append((trump, d, hands))
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_escapes_keeps_the_declarer_out_of_every_trick(n: int) -> None:
    """Whichever defender leads, a lone declarer whose cards pass the test takes no trick."""
    rng = random.Random(1900 + n)
    for trump, d, hands in _low_declarer_endings(rng, n, 30 if n < 5 else 8):
        for leader in range(4):
            if leader != d:
                got = naive.min_tricks(hands, trump, leader, 1 << d)
                assert got == 0, (hands, trump, d, leader)


def test_escapes_needs_the_declarer_without_trumps() -> None:
    """N (2 of spades, 3 of hearts) against E (4 of hearts, 3 of diamonds), S (5 of hearts, 4
    of diamonds) and W (6 of hearts, 5 of diamonds), E on lead: at no trump N plays under
    every trick, but with spades trumps a diamond lead leaves him a trump he must play, and
    nobody can beat it. So the test must not be used when the declarer holds a trump."""
    card = {"S": 0, "H": 16, "D": 32, "C": 48}
    hands = [1 << (card["S"] + 2) | 1 << (card["H"] + 3),
             1 << (card["H"] + 4) | 1 << (card["D"] + 3),
             1 << (card["H"] + 5) | 1 << (card["D"] + 4),
             1 << (card["H"] + 6) | 1 << (card["D"] + 5)]
    scratch = np.zeros((1, 8), dtype=np.int64)
    assert escapes(lanes(hands), 4, 0, scratch, 0, 0, MEMO)
    assert naive.min_tricks(hands, 4, 1, 0b0001) == 0
    assert not escapes(lanes(hands), 0, 0, scratch, 0, 0, MEMO)
    assert naive.min_tricks(hands, 0, 1, 0b0001) == 1


@pytest.mark.parametrize("n", [3, 4, 5])
def test_solver_agrees_with_minimax_where_escapes_applies(n: int) -> None:
    """The search's use of the test: a cut-off in the misère game (the lone declarer
    minimises) at every trick boundary with a defender on lead, checked from positions where
    it holds at once and, with the declarer on lead, one lead before."""
    from boston_sim.solver.kernels import ask_lanes, new_workspace, solve_lanes

    rng = random.Random(2000 + n)
    ws = new_workspace(16)
    for trump, d, hands in _low_declarer_endings(rng, n, 20 if n < 5 else 6):
        for leader in range(4):
            want = naive.min_tricks(hands, trump, leader, 1 << d)
            assert solve_lanes(lanes(hands), trump, leader, 1 << d, ws, mode="min") == want, (
                hands, trump, d, leader)
            misere = ask_lanes(lanes(hands), trump, leader, 1 << d, ws, kind="at_most", target=0)
            assert misere == (want == 0)


def _winners(hands: list[int], leader: int, played: list[int], trump: int) -> set[int]:
    """The seats that win the trick in some way of finishing it."""
    if len(played) == 4:
        return {naive.trick_winner(leader, tuple(played), trump)}
    seat = (leader + len(played)) % 4
    out: set[int] = set()
    for card in naive.legal_cards(hands[seat], played[0] // 16):
        rest = list(hands)
        rest[seat] &= ~(1 << card)
        out |= _winners(rest, leader, played + [card], trump)
    return out


def _side_wins(hands, leader, played, trump, team, card) -> bool:
    """Does ``team`` win the trick whatever happens, the player to move playing ``card`` if
    it is not one of the cards already played?"""
    if card not in played:
        seat = (leader + len(played)) % 4
        assert (hands[seat] >> card) & 1
        assert card in naive.legal_cards(hands[seat], played[0] // 16)
        hands = list(hands)
        hands[seat] &= ~(1 << card)
        played = played + [card]
    return all((team >> w) & 1 for w in _winners(hands, leader, played, trump))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_sure_trick_names_a_side_that_wins_the_trick_whatever_the_others_play(n: int) -> None:
    rng = random.Random(2600 + n)
    fr = np.zeros((MAX_PLY, F_SIZE), dtype=np.int64)
    seen = {True: 0, False: 0}  # the card: one already played / the player to move's
    for _ in range(1500):
        hands, leader, played = naive.trick_under_way(rng, n)
        trump = rng.randrange(5)
        side = rng.choice(SIDES)
        both_win = rng.random() < 0.5
        for i, card in enumerate(played):
            fr[i, F_CARD] = card
        pos = len(played)
        bp = int(winning_pos(fr, 0, pos, trump))
        c = int(sure_trick(lanes(hands), fr, pos, leader, pos, trump, side, both_win, bp))
        if c < 0:
            continue
        card = c & 63
        team = side if c >= 64 else 15 ^ side
        seen[card in played] += 1
        assert both_win or card in played
        case = (hands, leader, played, trump, side, c)
        assert _side_wins(hands, leader, played, trump, team, card), case
        # the table's generalisation: only the owners of the cards above it in its suit count
        thresholds = [16] * 4
        thresholds[card // 16] = card % 16
        for _ in range(2):
            other = relabel_below(hands, thresholds, rng)
            assert _side_wins(other, leader, played, trump, team, card), (case, other)
    assert seen[True] and seen[False]
