"""The bracket's play engine: layouts a player may imagine, equal cards, and play-outs whose
results obey the bounds that double-dummy play sets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from boston_sim import solver
from boston_sim.analysis.layouts import Knowledge, draw_layouts
from boston_sim.analysis.playout import Game, Players, Table, choices, play_out, step
from boston_sim.cards import parse_card

TRICKS = np.arange(14, dtype=float)  # net = the side's tricks: the side maximises them


def _ending(rng: np.random.Generator, n: int) -> np.ndarray:
    deck = np.array([s * 16 + r for s in range(4) for r in range(2, 15)])
    cards = rng.permutation(deck)[: 4 * n]
    hands = np.zeros(4, np.uint64)
    for seat in range(4):
        for c in cards[seat * n:(seat + 1) * n]:
            hands[seat] |= np.uint64(1) << np.uint64(int(c))
    return hands


def _endings(seed: int, m: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([_ending(rng, n) for _ in range(m)])


def _players(policy, layouts: int = 6, seed: int = 3) -> Players:
    return Players(policy, layouts, Knowledge(), seed, solver.solve_positions_value,
                   solver.solve_positions_target)


def _bit(text: str) -> int:
    return parse_card(text)


def test_choices_are_legal_and_group_equal_cards():
    hand = sum(1 << _bit(c) for c in ("SA", "SK", "SQ", "S5", "H2"))
    outstanding = 1 << _bit("SJ") | 1 << _bit("S9")
    # on lead: AKQ are one card (the J is out), the 5 another, the H2 a third
    assert choices(hand, -1, outstanding) == [_bit("H2"), _bit("S5"), _bit("SQ")]
    # following spades: no heart; with the J gone too, Q-5 still differ (the 9 is out)
    assert choices(hand, 0, 1 << _bit("S9")) == [_bit("S5"), _bit("SQ")]
    # nothing out between them: all spades are one card
    assert choices(hand, 0, 0) == [_bit("S5")]
    # void in the suit led: any card
    assert len(choices(hand, 2, outstanding)) == 3


def test_layouts_keep_what_the_viewer_has_seen():
    rng = np.random.default_rng(5)
    deals = _endings(11, 30, 6)
    for hands in deals:
        viewer, exposed = int(rng.integers(4)), int(rng.integers(4))
        voids = 0
        for s in range(4):  # a seat "showed out" of a suit it does not hold
            if s != viewer and not (int(hands[s]) >> 16) & 0xFFFF:
                voids |= 1 << (s * 4 + 1)
        worlds = draw_layouts(hands, np.zeros(4, np.uint64), viewer, 1 << exposed, voids, 20,
                              rng, Knowledge())
        assert worlds.shape == (20, 4)
        assert (worlds[:, viewer] == hands[viewer]).all()
        assert (worlds[:, exposed] == hands[exposed]).all()
        assert (np.bitwise_or.reduce(worlds, axis=1) == np.bitwise_or.reduce(hands)).all()
        assert (np.bitwise_count(worlds) == np.bitwise_count(hands)[None, :]).all()
        for s in range(4):
            if voids >> (s * 4 + 1) & 1:
                assert ((worlds[:, s] >> np.uint64(16)) & np.uint64(0xFFFF) == 0).all()


def test_layouts_are_uniform_given_a_void():
    # N sees his hand; E, S, W hold 2 cards each of 6 unseen; E has shown out of spades.
    unseen = [_bit(c) for c in ("SA", "SK", "S2", "H2", "H3", "D4")]
    hands = np.zeros(4, np.uint64)
    hands[0] = np.uint64(1 << _bit("C2") | 1 << _bit("C3"))
    seats = [1, 2, 3]
    valid = []
    for assign in itertools.product(seats, repeat=len(unseen)):
        if all(assign.count(s) == 2 for s in seats) and all(
                not (a == 1 and c // 16 == 0) for a, c in zip(assign, unseen, strict=True)):
            valid.append(assign)
    for c, a in zip(unseen, valid[0], strict=True):
        hands[a] |= np.uint64(1 << c)
    worlds = draw_layouts(hands, np.zeros(4, np.uint64), 0, 0, 1 << (1 * 4 + 0), 3000,
                          np.random.default_rng(8), Knowledge())
    index = {v: i for i, v in enumerate(valid)}
    counts = np.zeros(len(valid))
    for w in worlds:
        key = tuple(next(s for s in seats if int(w[s]) >> c & 1) for c in unseen)
        counts[index[key]] += 1
    assert counts.sum() == 3000
    expected = counts.sum() / len(valid)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = len(valid) - 1
    assert chi2 < df + 6 * np.sqrt(2 * df)  # about p > 1e-4


@pytest.mark.parametrize("trump,side,mode", [(0, 1, "max"), (4, 2, "max"), (1, 5, "max"),
                                             (4, 1, "min"), (2, 10, "min")])
def test_double_dummy_play_keeps_the_double_dummy_value(trump, side, mode):
    deals = _endings(trump * 7 + side, 12, 4)
    leader = 1
    dd = solver.solve_batch(deals, trump, leader, side, mode=mode)
    net = TRICKS if mode == "max" else -TRICKS
    t = Table.start(deals, np.full(len(deals), side), leader, misere=mode == "min")
    won = play_out(t, Game(trump, leader, mode, net, 0), _players(lambda d, p: False))
    # a misère is played until the declarer's first trick: escaped (0) or caught (1)
    assert (won == (dd if mode == "max" else np.minimum(dd, 1))).all()


@pytest.mark.parametrize("trump,mode", [(0, "max"), (4, "max"), (4, "min")])
def test_single_dummy_play_is_bounded_by_double_dummy(trump, mode):
    """Against a double-dummy defence the declarer can only do worse than double-dummy, and
    against a double-dummy declarer the defence can only do worse, deal by deal."""
    deals = _endings(40 + trump, 10, 5)
    leader, side = 1, 1
    net = TRICKS if mode == "max" else -TRICKS
    game = Game(trump, leader, mode, net, 0)
    dd = solver.solve_batch(deals, trump, leader, side, mode=mode)
    sign = 1 if mode == "max" else -1
    if mode == "min":
        dd = np.minimum(dd, 1)

    def run(policy):
        return play_out(Table.start(deals, np.full(len(deals), side), leader,
                                    misere=mode == "min"), game, _players(policy))

    decl, defe = run(lambda d, p: d), run(lambda d, p: not d)
    assert (sign * decl <= sign * dd).all()
    assert (sign * defe >= sign * dd).all()


def test_blind_lead_only_helps_the_other_side_and_sometimes_costs():
    """A defender leading blind never does better than double-dummy, and on some deals the
    only winning lead is found double-dummy and missed blind."""
    deals = _endings(77, 40, 4)
    leader, side = 1, 1  # E leads against N
    game = Game(4, leader, "max", TRICKS, 0)
    dd = solver.solve_batch(deals, 4, leader, side)
    t = Table.start(deals, np.full(len(deals), side), leader)
    step(t, game, _players(lambda d, plays: plays == 0, layouts=8))
    after = solver.solve_positions_value(t.hands, t.trick, t.trick_leader, 4, side)
    assert (after >= dd).all()
    assert (after > dd).any()


def test_one_history_one_choice():
    """The layouts come from what the seat knows: two deals that look the same to the
    declarer on lead get the same lead."""
    deals = _endings(90, 2, 4)
    deals[1] = deals[0][[0, 3, 2, 1]]  # E and W swap hands: N cannot tell
    t = Table.start(deals, np.ones(2, np.int64), 0)
    step(t, Game(4, 0, "max", TRICKS, 0), _players(lambda d, p: d, layouts=5))
    assert t.trick[0, 0] == t.trick[1, 0]


def _hand(*cards: str) -> np.uint64:
    return np.uint64(sum(1 << _bit(c) for c in cards))


def test_spread_misere_defence_sees_the_exposed_hand():
    """N's spread misère: a heart lead from E gives him both tricks; a diamond none.
    Seeing the exposed hand, single-dummy E finds it, as double-dummy does."""
    deal = np.array([[_hand("HA", "S2"), _hand("H2", "D4"), _hand("D2", "D3"),
                      _hand("C2", "C3")]])
    leader, side = 1, 1
    dd = solver.solve_batch(deal, 4, leader, side, mode="min")
    assert dd[0] == 2  # the heart lead: N wins it with the ace, then his spade
    game = Game(4, leader, "min", -TRICKS, 0, exposed="before_first_lead")
    t = Table.start(deal, np.array([side]), leader, misere=True)
    won = play_out(t, game, _players(lambda declaring, plays: not declaring, layouts=8))
    assert won[0] == 1  # caught at the first trick, as double-dummy


def test_single_dummy_shift_se_is_calibrated():
    """The bracket's paired shift and its SE, as statistics: over 30 seeds of 24 random
    endings each, the SD of the shift across seeds over its mean reported SE is about 1."""
    from boston_sim.analysis.bracket import BracketInput, _stats, replay

    solvers = (solver.solve_positions_value, solver.solve_positions_target)
    shifts, ses = [], []
    for seed in range(30):
        deals = _endings(1000 + seed, 24, 4)
        game = Game(4, 1, "max", TRICKS, 0)
        bi = BracketInput({"rung": "r", "kind": "at_least", "target": 2}, None, deals,
                          np.ones(len(deals), np.int64), game, Knowledge())
        won = replay(bi, seed, 4, solvers)
        st = _stats(bi, won["single_dummy"], TRICKS[won["double_dummy"]])
        shifts.append(st["ev_diff"])
        ses.append(st["ev_diff_se"])
    ratio = float(np.std(shifts, ddof=1) / np.mean(ses))
    assert 0.75 <= ratio <= 1.33, ratio
