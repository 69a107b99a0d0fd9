"""PBN files: games and their tags, the known hands of a deal, and each compass seat's
playing-order seat (the batch reader's PBN input is tested in tests/batch)."""

from __future__ import annotations

import pytest

from boston_sim.cards import PLAY_SEATS, NotationError, parse_deal, split_deal
from boston_sim.pbn import DEFAULT_DEALER, deal_hands, play_seat_of, read_games

DEAL = "N:AKQJT98.AK.A2.32 73.9864.J863.A75 64.JT5.KQ4.KQ964 52.Q732.T975.JT8"


def test_games_end_at_an_event_and_a_second_deal_keeps_the_other_tags() -> None:
    text = ['% a comment [Deal "S:- - - -"]', '[Event "a"]', '[Board "1"]', '[Dealer "N"]',
            f'[Deal "{DEAL}"]', f'[Deal "E:{DEAL[2:]}"]', "", '[Event "b"]', f'[Deal "{DEAL}"]']
    games = read_games(text)
    assert [g.line for g in games] == [5, 6, 9]
    assert [g.board for g in games] == ["1", "", ""]  # the board belongs to one deal only
    assert [g.dealer() for g in games] == [0, 0, DEFAULT_DEALER]
    assert games[1].deal.startswith("E:")


def test_unknown_dealer_raises() -> None:
    (game,) = read_games(['[Dealer "X"]', f'[Deal "{DEAL}"]'])
    with pytest.raises(NotationError):
        game.dealer()


def test_deal_hands_by_compass_seat_leaving_out_unknown_ones() -> None:
    hands = deal_hands("E:AKQJT98.AK.A2.32 - 64.JT5.KQ4.KQ964 -")
    assert hands == {1: "AKQJT98.AK.A2.32", 3: "64.JT5.KQ4.KQ964"}
    for bad in ("AKQJT98.AK.A2.32", "N:a b c"):
        with pytest.raises(NotationError):
            deal_hands(bad)


def test_split_deal_is_what_parse_deal_reads() -> None:
    first, texts = split_deal(f'[Deal "{DEAL}"]')
    assert (first, len(texts)) == (0, 4)
    assert parse_deal(DEAL).tolist() == parse_deal(f'"{DEAL}"').tolist()


@pytest.mark.parametrize("dealer", range(4))
def test_eldest_sits_after_the_dealer_in_the_order_of_play(dealer: int) -> None:
    left = [PLAY_SEATS[play_seat_of((dealer + k) % 4, dealer)] for k in range(4)]
    assert left == ["dealer", "eldest", "second", "third"]
    right = [PLAY_SEATS[play_seat_of((dealer - k) % 4, dealer, rightward=True)]
             for k in range(4)]
    assert right == ["dealer", "eldest", "second", "third"]
