"""The misère declarer's move order, and the misère search against a second code path.

The order (``_moves``) never changes an answer, only the cost of an escape proof: on lead he
first tries a card some defender must beat (the highest first, from a suit he cannot duck
every round of before the others); following suit, a card a later seat must beat counts as a
duck. The misère yes/no search ("at most 0 tricks?", with its escape tests, probes and
orders) is checked against the same question put as a plain game the search has no misère
shortcuts for: the declarer maximises the tricks the three others take, and must let them
take every one.
"""

from __future__ import annotations

import random

import naive
import numpy as np

from boston_sim.cards import parse_deal, parse_hand
from boston_sim.sampler import Sampler
from boston_sim.solver import _driver, to_lanes
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
from boston_sim.solver._search import search
from boston_sim.solver._trick import winning_pos
from boston_sim.solver.kernels import ask_lanes, new_workspace

NT = 4
NORTH = 0
DEFENDERS = 0b1110
HANDS = ("T9532.642.53.742", ".T5.J9854.JT9752", "Q9732.KT76.74.A3", "97432.7.763.QT52")
# an escape whose proof cost 15.6 million nodes while the declarer led his lowest card first
ESCAPE = "N:T9532.642.53.742 AK64.983.AJ7.J93 7.AQ5.KT986.AKT8 QJ8.KJT7.Q42.Q65"
CARD = {"S": 0, "H": 16, "D": 32, "C": 48}
RANK = {r: i + 2 for i, r in enumerate("23456789TJQKA")}


def _card(text: str) -> int:
    return CARD[text[0]] + RANK[text[1]]


def _first_move(hands: list[int], leader: int, played: list[int], seat: int) -> int:
    """The card ``gen_moves`` offers first to ``seat`` (N, the misère declarer)."""
    fr = np.zeros((MAX_PLY, F_SIZE), dtype=np.int64)
    mv = np.zeros((MAX_PLY, 3 * MOVE_SLOTS), dtype=np.int64)
    P = np.zeros(P_SIZE, dtype=np.int64)
    tm = 0
    for i, card in enumerate(played):
        fr[i, F_CARD] = card
        tm |= 1 << card
        fr[i, F_TM] = tm
        fr[i, F_BP] = winning_pos(fr, 0, i + 1, NT)
    pos = len(played)
    fr[pos, F_R] = bin(hands[seat]).count("1")
    fr[pos, F_NEED] = 1
    P[P_TRUMP], P[P_MAXMASK], P[P_COUNTMASK] = NT, DEFENDERS, 1 << NORTH
    k = int(gen_moves(naive.lanes(hands), fr, P, seat, pos, leader, mv, pos))
    assert k > 1
    return int(mv[pos, 0])


def test_misere_declarer_leads_the_highest_card_a_defender_must_beat() -> None:
    """Diamonds: East holds only cards above the five (he must beat it), N cannot duck
    every round of diamonds (his three tops West's two), and they are his shortest suit:
    the five first, not a deuce."""
    hands = [int(h) for h in parse_deal(ESCAPE)]
    assert _first_move(hands, NORTH, [], NORTH) == _card("D5")


def test_misere_declarer_follows_with_a_card_a_later_seat_must_beat() -> None:
    """West leads the three of hearts; N's queen is beaten for sure (East holds only the ace
    and king), so it goes before the two, which keeps a low card for later."""
    hands = [
        (1 << _card("HQ")) | (1 << _card("H2")) | (1 << _card("S2")),
        (1 << _card("HA")) | (1 << _card("HK")) | (1 << _card("S3")),
        (1 << _card("S4")) | (1 << _card("S5")) | (1 << _card("S6")),
        (1 << _card("H4")) | (1 << _card("S7")),
    ]
    w = 3
    assert _first_move(hands, w, [_card("H3")], NORTH) == _card("HQ")
    hands[1] = (1 << _card("H5")) | (1 << _card("HK")) | (1 << _card("S3"))
    assert _first_move(hands, w, [_card("H3")], NORTH) == _card("H2")  # East may duck


def test_an_escape_with_a_sure_losing_lead_is_proved_cheaply() -> None:
    ws = new_workspace(20)
    hl = to_lanes(parse_deal(ESCAPE).reshape(1, 4))[0]
    assert ask_lanes(hl, NT, NORTH, 1 << NORTH, ws, kind="at_most", target=0) == 1
    assert ws.stats().nodes < 3_000_000  # 15.6 million when the deuces were led first


def _reference(ws, hl: np.ndarray, leader: int) -> int:
    """1 if N can lose every trick, as the plain game: N maximises the others' tricks."""
    ttk, ttd, mv, fr, P, tk, td = ws
    _driver._forget_killers(fr)
    _driver._setup(P, ttd, NT, np.int64(1 << NORTH), np.int64(DEFENDERS), np.int64(0))
    n = sum(bin(int(hl[NORTH * 4 + s])).count("1") for s in range(4))
    return int(search(hl, ttk, ttd, mv, fr, P, tk, td, np.int64(leader), np.int64(n)))


def _play_down(rng: random.Random, hands: list[int], cards_left: int) -> tuple[list[int], int]:
    """Random tricks from N's lead that N does not win, until he holds ``cards_left``."""
    leader = NORTH
    while bin(hands[NORTH]).count("1") > cards_left:
        for _ in range(100):
            h = list(hands)
            played: list[int] = []
            for i in range(4):
                seat = (leader + i) % 4
                card = rng.choice(naive.legal_cards(h[seat], played[0] // 16 if played else None))
                h[seat] ^= 1 << card
                played.append(card)
            winner = naive.trick_winner(leader, tuple(played), NT)
            if winner != NORTH:
                hands, leader = h, winner
                break
        else:
            return hands, -1
    return hands, leader


def test_misere_search_agrees_with_the_plain_game_on_deals_of_misere_hands() -> None:
    """240 deals of misère-like hands, played down at random (N loses each trick) to 6-8
    cards: the misère yes/no search and the plain game agree, on escapes and catches."""
    ws = new_workspace(18)
    seen = {0: 0, 1: 0}
    for hand in HANDS:
        rng = random.Random(hand)
        for deal in Sampler(hand=parse_hand(hand), declarer=NORTH, seed=5).draw(60).deals:
            hands, leader = _play_down(rng, [int(h) for h in deal], rng.randint(6, 8))
            if leader < 0:
                continue
            hl = naive.lanes(hands)
            got = ask_lanes(hl.copy(), NT, leader, 1 << NORTH, ws, kind="at_most", target=0)
            assert got == _reference(ws, hl.copy(), leader), (hands, leader)
            seen[got] += 1
    assert seen[0] + seen[1] >= 200
    assert seen[1] >= 20 and seen[0] >= 20
