"""The solver from positions in the middle of a trick (``solve_positions_value`` /
``solve_positions_target``).

* Against the naive minimax of ``tests/naive.py`` (every legal card, no pruning) on seeded
  random endings of 2 to 4 cards a hand with 0 to 4 cards of the current trick played
  (sometimes a revoke in the trick's history, sometimes the boston card): every trump, every
  lone declarer and every pair, both value modes and both question kinds at every need.
* From a trick boundary (no card played) and after a complete trick, against
  ``solve_batch`` / ``solve_batch_target`` on random 13-card deals.
* N-S against E-W after 1 to 3 cards of the first trick, against DDS (``endplay``).
* The same answers with 1 and 2 numba threads, and without the search's card grouping and
  move ordering; clear errors for bad positions.
"""

from __future__ import annotations

import random

import naive
import numpy as np
import pytest
from conftest import import_or_skip

from boston_sim import cards
from boston_sim.errors import SolverInputError
from boston_sim.solver import (
    _run_positions,
    solve_batch,
    solve_batch_target,
    solve_positions_target,
    solve_positions_value,
)

SEED = 20261204
PAIRS = [0b0011, 0b0110, 0b1100, 0b1001, 0b0101, 0b1010]
SIDES = [0b0001, 0b0010, 0b0100, 0b1000, *PAIRS]
PER_GROUP = 6  # positions per (trump, side) group: 5 x 10 groups, 300 positions
REVOKE_RATE = 0.1  # a trick's follower sometimes did not follow suit although he could
PAD = -1


def _position(rng: random.Random, trump: int) -> tuple[list[int], list[int], int]:
    """A random ending (2-4 cards a hand, the boston card in half the trump endings) with
    0 to 4 cards of its trick played: (hands left, the trick padded with -1, its leader)."""
    n = rng.randint(2, 4)
    boston = trump != cards.NT and rng.random() < 0.5
    hands = naive.random_ending(rng, n, (naive.BOSTON_SOURCE[trump],) if boston else ())
    if boston:
        hands = [int(h) for h in cards.boston_card_transform(np.array(hands, np.uint64), trump)]
    leader = rng.randrange(4)
    played: list[int] = []
    for i in range(rng.choice([0, 1, 1, 2, 2, 3, 3, 4])):
        seat = (leader + i) % 4
        led = played[0] // 16 if played and rng.random() > REVOKE_RATE else None
        card = rng.choice(naive.legal_cards(hands[seat], led))
        hands[seat] &= ~(1 << card)
        played.append(card)
    return hands, played + [PAD] * (4 - len(played)), leader


def _naive_value(hands, trick, leader, trump, side, maximise: bool) -> int:
    played = tuple(c for c in trick if c >= 0)
    return naive._play(tuple(hands), leader, played, trump, side, maximise)


def _groups():
    rng = random.Random(SEED)
    for trump in range(5):
        for side in SIDES:
            yield trump, side, [_position(rng, trump) for _ in range(PER_GROUP)]


GROUPS = list(_groups())


def _arrays(positions):
    hands = np.array([p[0] for p in positions], dtype=np.uint64)
    trick = np.array([p[1] for p in positions], dtype=np.int64)
    leader = np.array([p[2] for p in positions], dtype=np.int64)
    return hands, trick, leader


def test_plan_covers_every_kind_of_position() -> None:
    ks = {sum(c >= 0 for c in p[1]) for _, _, ps in GROUPS for p in ps}
    assert ks == {0, 1, 2, 3, 4}
    assert sum(len(ps) for _, _, ps in GROUPS) >= 300
    revokes = 0
    for _, _, ps in GROUPS:
        for hands, trick, leader in ps:
            led = trick[0] // 16
            for i in range(1, 4):
                if trick[i] >= 0 and trick[i] // 16 != led:
                    revokes += (hands[(leader + i) % 4] >> (16 * led)) & 0xFFFF != 0
    assert revokes > 0
    assert any(c >= 0 and c % 16 == 15 for _, _, ps in GROUPS for p in ps for c in p[1])


@pytest.mark.parametrize("trump, side, positions", GROUPS,
                         ids=[f"{cards.STRAINS[t]}-{s:04b}" for t, s, _ in GROUPS])
def test_agrees_with_naive_minimax(trump: int, side: int, positions) -> None:
    hands, trick, leader = _arrays(positions)
    best = [_naive_value(*p, trump, side, True) for p in positions]
    least = [_naive_value(*p, trump, side, False) for p in positions]
    naive.clear_caches()
    assert solve_positions_value(hands, trick, leader, trump, side).tolist() == best
    assert solve_positions_value(hands, trick, leader, trump, side, "min").tolist() == least
    # every need from -1 to one more than the tricks left, in one batch per kind
    m = len(positions)
    needs = np.arange(-1, 7)
    rep = np.repeat(np.arange(m), len(needs))
    need = np.tile(needs, m)
    yes = solve_positions_target(hands[rep], trick[rep], leader[rep], trump, side, "at_least",
                                 need)
    assert yes.tolist() == [need[j] <= best[rep[j]] for j in range(len(rep))]
    yes = solve_positions_target(hands[rep], trick[rep], leader[rep], trump, side, "at_most",
                                 need)
    assert yes.tolist() == [need[j] >= least[rep[j]] for j in range(len(rep))]


@pytest.mark.parametrize("flags", [0, 1, 2, 3])
def test_search_options_never_change_an_answer(flags: int) -> None:
    """Without the search's move generator, with or without grouping equivalent cards and
    ordering moves, the answers are the same: the options only save work."""
    for trump, side, positions in GROUPS[::3]:
        hands, trick, leader = _arrays(positions)
        zero = np.zeros(len(positions), dtype=np.int64)
        for mode in (0, 1):
            plain = _run_positions(hands, trick, leader, trump, side, 0, mode, zero, flags=flags)
            fast = _run_positions(hands, trick, leader, trump, side, 0, mode, zero)
            assert (plain == fast).all()


def _random_deals(m: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deck = np.array(cards.cards_of(cards.FULL_DECK), dtype=np.uint64)
    out = np.zeros((m, 4), dtype=np.uint64)
    for i in range(m):
        perm = deck[rng.permutation(52)]
        for seat in range(4):
            out[i, seat] = np.bitwise_or.reduce(np.uint64(1) << perm[13 * seat:13 * seat + 13])
    return out


def _first_trick(deal: np.ndarray, leader: int, rng: random.Random) -> tuple[list[int], list[int]]:
    """Play a whole random legal first trick: (hands left, its four cards)."""
    hands = [int(h) for h in deal]
    played: list[int] = []
    for i in range(4):
        seat = (leader + i) % 4
        card = rng.choice(naive.legal_cards(hands[seat], played[0] // 16 if played else None))
        hands[seat] &= ~(1 << card)
        played.append(card)
    return hands, played


@pytest.mark.parametrize("trump, side", [(0, 0b0101), (4, 0b0001), (2, 0b0010)])
def test_trick_boundary_and_complete_trick_agree_with_solve_batch(trump: int, side: int) -> None:
    deals = _random_deals(4, SEED + trump)
    leader = 1
    m = len(deals)
    no_trick = np.full((m, 4), PAD, dtype=np.int64)
    leaders = np.full(m, leader, dtype=np.int64)
    want = solve_batch(deals, trump, leader, side)
    assert (solve_positions_value(deals, no_trick, leaders, trump, side) == want).all()
    need = want.astype(np.int64)
    got = solve_positions_target(deals, no_trick, leaders, trump, side, "at_least", need + 1)
    assert not got.any()
    got = solve_positions_target(deals, no_trick, leaders, trump, side, "at_least", need)
    assert got.all()
    # after a complete first trick: its winner leads the 12 cards left
    rng = random.Random(SEED)
    rows = [_first_trick(d, leader, rng) for d in deals]
    hands = np.array([r[0] for r in rows], dtype=np.uint64)
    trick = np.array([r[1] for r in rows], dtype=np.int64)
    winners = [naive.trick_winner(leader, tuple(r[1]), trump) for r in rows]
    won = np.array([(side >> w) & 1 for w in winners])
    rest = np.array([solve_batch(hands[i:i + 1], trump, winners[i], side)[0] for i in range(m)])
    assert solve_positions_value(hands, trick, leaders, trump, side).tolist() == \
        (rest + won).tolist()
    for i in range(m):
        t = int(rest[i])
        assert solve_batch_target(hands[i:i + 1], trump, winners[i], side, "at_least", t)[0]
    got = solve_positions_target(hands, trick, leaders, trump, side, "at_least", rest + won)
    assert got.all()
    got = solve_positions_target(hands, trick, leaders, trump, side, "at_least", rest + won + 1)
    assert not got.any()


DDS_DEALS = 6


def test_partnership_agrees_with_dds() -> None:
    """N-S against E-W, 1 to 3 cards of the first trick played: for every card the seat to
    play may play, DDS's tricks for the side to move against ours after that card."""
    endplay_types = import_or_skip("endplay.types")
    endplay_dds = import_or_skip("endplay.dds")
    Deal, Denom, Player = endplay_types.Deal, endplay_types.Denom, endplay_types.Player
    denoms = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
    players = [Player.north, Player.east, Player.south, Player.west]
    rng = random.Random(SEED)
    deals = _random_deals(DDS_DEALS, SEED)
    rows, expected = [], []
    for i, deal in enumerate(deals):
        trump = i % 5
        leader = rng.randrange(4)
        d = Deal(cards.format_deal(deal))
        d.trump = denoms[trump]
        d.first = players[leader]
        hands = [int(h) for h in deal]
        played: list[int] = []
        for j in range(rng.randint(1, 3)):
            seat = (leader + j) % 4
            card = rng.choice(naive.legal_cards(hands[seat], played[0] // 16 if played else None))
            hands[seat] &= ~(1 << card)
            played.append(card)
            d.play(_endplay_card(endplay_types, card))
        seat = (leader + len(played)) % 4
        for card_obj, tricks in endplay_dds.solve_board(d):
            card = int(card_obj.suit) * 16 + int(card_obj.rank).bit_length() - 1
            left = list(hands)
            left[seat] &= ~(1 << card)
            rows.append((left, played + [card] + [PAD] * (3 - len(played)), leader, trump))
            ns = tricks if seat % 2 == 0 else 13 - tricks
            expected.append(ns)
    for trump in range(5):
        sel = [r for r in rows if r[3] == trump]
        want = [e for r, e in zip(rows, expected, strict=True) if r[3] == trump]
        if not sel:
            continue
        hands, trick, leader = _arrays([r[:3] for r in sel])
        assert solve_positions_value(hands, trick, leader, trump, 0b0101).tolist() == want


def _endplay_card(endplay_types, card: int):
    suit = [endplay_types.Denom.spades, endplay_types.Denom.hearts,
            endplay_types.Denom.diamonds, endplay_types.Denom.clubs][card // 16]
    return endplay_types.Card(suit=suit, rank=endplay_types.Rank(1 << (card % 16)))


def test_answers_do_not_depend_on_thread_count() -> None:
    import numba

    rng = random.Random(SEED + 1)
    positions = [_position(rng, 1) for _ in range(24)]
    hands, trick, leader = _arrays(positions)
    need = np.array([rng.randint(0, 3) for _ in positions], dtype=np.int64)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve_positions_value(hands, trick, leader, 1, 0b0001)
        one_q = solve_positions_target(hands, trick, leader, 1, 0b0101, "at_most", need)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = solve_positions_value(hands, trick, leader, 1, 0b0001)
        two_q = solve_positions_target(hands, trick, leader, 1, 0b0101, "at_most", need)
    finally:
        numba.set_num_threads(before)
    assert (one == two).all() and (one_q == two_q).all()


# --------------------------------------------------------------------------- errors

S, H = 0, 1


def _bit(suit: int, rank: int) -> int:
    return suit * 16 + rank


def _ok_position():
    """N led the spade ace; E, S, W each hold two cards, N one."""
    hands = np.array([[1 << _bit(H, 2), (1 << _bit(S, 3)) | (1 << _bit(H, 3)),
                       (1 << _bit(S, 4)) | (1 << _bit(H, 4)),
                       (1 << _bit(S, 5)) | (1 << _bit(H, 5))]], dtype=np.uint64)
    trick = np.array([[_bit(S, 14), PAD, PAD, PAD]], dtype=np.int64)
    return hands, trick, np.array([0], dtype=np.int64)


def test_ok_position_is_answered() -> None:
    hands, trick, leader = _ok_position()
    assert solve_positions_value(hands, trick, leader, 4, 0b0001).tolist() == [1]
    # a revoke in the trick's history is allowed: E discarded a heart holding a spade
    hands[0, 1] = 1 << _bit(S, 3)
    trick[0, 1] = _bit(H, 3)
    assert solve_positions_value(hands, trick, leader, 4, 0b0001).tolist() == [1]


@pytest.mark.parametrize("change, message", [
    (lambda h, t, ld: (h[:, :3], t, ld), "shape"),
    (lambda h, t, ld: (h, t[:, :3], ld), "trick must be an integer array"),
    (lambda h, t, ld: (h, t, np.array([4])), "trick_leader must be a seat"),
    (lambda h, t, ld: (h, t.astype(float), ld), "trick must be an integer array"),
    (lambda h, t, ld: (h, np.array([[PAD, _bit(S, 14), PAD, PAD]]), np.array([3])),
     "must come first"),
    (lambda h, t, ld: (h, np.array([[_bit(S, 14), _bit(S, 14), PAD, PAD]]), ld), "twice"),
    (lambda h, t, ld: (h, np.array([[_bit(S, 1), PAD, PAD, PAD]]), ld), "not a card"),
    (lambda h, t, ld: (h, np.array([[_bit(S, 15), PAD, PAD, PAD]]), ld), "not a card"),
    (lambda h, t, ld: (h, np.array([[_bit(S, 3), PAD, PAD, PAD]]), ld),
     "both in the trick and in a hand"),
    (lambda h, t, ld: (h | np.array([[0, 0, 1 << _bit(S, 3), 0]], np.uint64), t, ld),
     "in two hands"),
    (lambda h, t, ld: (h, t, np.array([1])), "do not fit a trick"),
    (lambda h, t, ld: (h, np.full((1, 4), PAD), ld), "do not fit a trick"),
])
def test_bad_positions_are_clear_errors(change, message: str) -> None:
    hands, trick, leader = change(*_ok_position())
    with pytest.raises(SolverInputError, match=message):
        solve_positions_value(hands, trick, leader, 4, 0b0001)


def test_bad_arguments_are_clear_errors() -> None:
    hands, trick, leader = _ok_position()
    with pytest.raises(SolverInputError, match="at_least or at_most"):
        solve_positions_target(hands, trick, leader, 4, 1, "exactly", np.array([1]))
    with pytest.raises(SolverInputError, match="need"):
        solve_positions_target(hands, trick, leader, 4, 1, "at_least", np.array([1, 2]))
    with pytest.raises(SolverInputError, match="mode"):
        solve_positions_value(hands, trick, leader, 4, 1, "least")
    with pytest.raises(SolverInputError, match="mode"):
        solve_positions_value(hands, trick, leader, 4, 1, ["max"])  # type: ignore[arg-type]
    with pytest.raises(SolverInputError, match="kind"):
        solve_positions_target(hands, trick, leader, 4, 1, ["at_least"], np.array([1]))
    with pytest.raises(SolverInputError, match="side_mask"):
        solve_positions_value(hands, trick, leader, 4, 15)
    with pytest.raises(SolverInputError, match="trump"):
        solve_positions_value(hands, trick, leader, 5, 1)
    # the boston card is a card of the trump suit only
    trick[0, 0] = _bit(S, 15)
    assert solve_positions_value(hands, trick, leader, S, 0b0001).tolist() == [1]


def test_last_trick_and_empty_batch() -> None:
    """A complete last trick (every hand empty) and an empty batch need no search."""
    hands = np.zeros((1, 4), dtype=np.uint64)
    trick = np.array([[_bit(S, 2), _bit(S, 14), _bit(H, 14), _bit(S, 3)]])
    assert solve_positions_value(hands, trick, np.array([0]), 4, 0b0010).tolist() == [1]
    assert solve_positions_value(hands, trick, np.array([0]), H, 0b0010).tolist() == [0]
    assert solve_positions_value(hands, trick, np.array([0]), H, 0b0100, "min").tolist() == [1]
    empty = solve_positions_value(np.zeros((0, 4), np.uint64), np.zeros((0, 4), np.int64),
                                  np.zeros(0, np.int64), 4, 1)
    assert empty.shape == (0,)


def test_first_compile_notice_and_work_counters(monkeypatch) -> None:
    """The mid-trick batch has its own kernel: the first-compile callback runs before it when
    that kernel is not compiled yet; its work is counted with every batch's."""
    from boston_sim import solver

    hands, trick, leader = _ok_position()
    calls: list[int] = []
    monkeypatch.setattr(solver, "_kernel_cached", lambda kernel: False)  # a fresh install
    solver.on_first_compile(lambda: calls.append(1))
    solver.reset_work_counters()
    solve_positions_value(hands, trick, leader, 4, 0b0001)
    assert calls == [1]
    assert solver.work_counters().jobs == 1 and solver.work_counters().nodes > 0
