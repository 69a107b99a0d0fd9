"""Real PBN files: tags over several lines, ``{}`` and ``;`` comments, empty lines between
games, ``[Board]``, ``[Dealer]`` and a ``[Deal]`` whose first seat is any compass seat;
cross-checked against endplay's parser (a test-only dependency)."""

from __future__ import annotations

import io

import pytest

from boston_sim.cards import NotationError
from boston_sim.pbn import TAG_MAX, deal_hands, iter_games, read_games, same_board

DEAL_N = "N:AKQJT98.AK.A2.32 73.9864.J863.A75 64.JT5.KQ4.KQ964 52.Q732.T975.JT8"
DEAL_E = "E:73.9864.J863.A75 64.JT5.KQ4.KQ964 52.Q732.T975.JT8 AKQJT98.AK.A2.32"

MULTI = f"""% PBN 2.1
% EXPORT
[Event "club night"]
[Site "here"] ; a line comment [Board "99"]
[Board "1"]
[Dealer "N"]
{{ a comment
   over two lines [Deal "S:- - - -"] }}
[Deal "{DEAL_N}"]
[Auction "N"]
1S Pass 2C ; calls are section data, not tags
Pass

[Event "#"]
[Board
 "2"]
[Dealer "E"] {{ comment }} [Vulnerable "None"]
[Deal "E:73.9864.J863.A75 64.JT5.KQ4.KQ964
       52.Q732.T975.JT8 AKQJT98.AK.A2.32"]

[Event "no deal here"]
[Board "3"]
[Dealer "S"]

[Event "club night"]
[Board "4"]
[Dealer "W"]
[Deal "W:- 73.9864.J863.A75 - -"]
"""


def test_a_multi_game_file_with_comments_and_tags_over_several_lines() -> None:
    games = read_games(io.StringIO(MULTI))
    assert [g.board for g in games] == ["1", "2", "4"]
    assert [g.line for g in games] == [9, 18, 28]
    assert [g.dealer() for g in games] == [0, 1, 3]
    assert games[1].tags["Event"] == "club night"  # "#": the previous game's value
    assert games[1].tags["Vulnerable"] == "None"
    assert deal_hands(games[0].deal) == deal_hands(games[1].deal)  # same deal, first seat E
    assert deal_hands(games[2].deal) == {0: "73.9864.J863.A75"}
    everything = list(iter_games(io.StringIO(MULTI), without_deal=True))
    assert [(g.board, g.has_deal) for g in everything] == [
        ("1", True), ("2", True), ("3", False), ("4", True)]


def test_games_are_read_one_at_a_time() -> None:
    def lines():
        yield from MULTI.splitlines(keepends=True)[:13]  # up to the empty line
        raise AssertionError("read past the first game")

    first = next(iter_games(lines()))
    assert first.board == "1"


def test_escaped_quotes_and_backslashes_in_a_value() -> None:
    (game,) = read_games(['[Event "the \\"big\\" one \\\\ x"]', f'[Deal "{DEAL_N}"]'])
    assert game.tags["Event"] == 'the "big" one \\ x'


@pytest.mark.parametrize("text, where", [
    (f'[Deal "{DEAL_N}"]\n{{ never closed\n', "line 2: a { comment"),
    (f'[Board "1"]\n[Deal "{DEAL_N}\n', "line 2: a [ tag"),
    ('[Event "x"\n', "line 1: a [ tag"),
])
def test_a_comment_or_tag_left_open_is_an_error(text: str, where: str) -> None:
    with pytest.raises(NotationError, match=where.replace("[", r"\[").replace("{", r"\{")):
        read_games(io.StringIO(text))


def test_a_tag_is_bounded_however_many_lines_it_spans() -> None:
    lines = ['[Event "x', *(["y" * 100 + "\n"] * (TAG_MAX // 100 + 2))]
    with pytest.raises(NotationError, match="longer than"):
        read_games(lines)


def test_board_numbers_compare_as_numbers() -> None:
    assert same_board("01", "1") and same_board(" 7", "7")
    assert not same_board("1", "10") and not same_board("1a", "1")


PLAIN = f"""[Event "club night"]
[Board "1"]
[Dealer "N"]
[Deal "{DEAL_N}"]

[Event "club night"]
[Board "2"]
[Dealer "E"]
[Deal "{DEAL_E}"]
"""


def test_endplay_reads_the_plain_file_as_we_read_the_decorated_one() -> None:
    """endplay reads neither tags over several lines nor comments between tags: it gets the
    same boards written plainly."""
    pbn = pytest.importorskip("endplay.parsers.pbn")
    ours = [g for g in read_games(io.StringIO(MULTI)) if "-" not in g.deal]
    theirs = pbn.load(io.StringIO(PLAIN))
    assert [str(b.board_num) for b in theirs] == [g.board for g in ours]
    assert [b.dealer.abbr for b in theirs] == ["NESW"[g.dealer()] for g in ours]
    for b, g in zip(theirs, ours, strict=True):
        hands = deal_hands(g.deal)
        for c in range(4):
            assert b.deal[c].to_pbn() == hands[c]


def test_select_game_and_seat_hand() -> None:
    from boston_sim.pbn import seat_hand, select_game

    games = list(iter_games(io.StringIO(MULTI), without_deal=True))
    game = select_game(games, "02")
    assert game.board == "2"
    # dealer E: S is eldest, W second, N third, E dealer; rightward: N eldest, W second
    assert seat_hand(game, "S") == ("64.JT5.KQ4.KQ964", 0)
    assert seat_hand(game, "dealer") == ("73.9864.J863.A75", 3)
    assert seat_hand(game, "N", rightward=True)[1] == 0
    with pytest.raises(NotationError, match="choose one with --board"):
        select_game(games, None)
    with pytest.raises(NotationError, match="has no"):
        select_game(games, "3")
    with pytest.raises(NotationError, match="no game in"):
        select_game([], None)


def test_the_tag_limit_is_the_line_limit() -> None:
    from boston_sim.limits import LINE_MAX

    assert TAG_MAX == LINE_MAX
