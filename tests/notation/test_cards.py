"""Hand, deal, seat and strain notation (boston_sim.cards), example by example.

Expected masks are built here from the representation documented in ARCHITECTURE.md
(bit = suit * 16 + rank, S=0 H=1 D=2 C=3, A=14), never from the parser under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from boston_sim import cards
from boston_sim.cards import (
    NotationError,
    boston_card_transform,
    compass_to_play_seat,
    format_card,
    format_deal,
    format_hand,
    format_strain,
    parse_card,
    parse_compass,
    parse_deal,
    parse_hand,
    parse_play_seat,
    parse_strain,
    play_seat_to_compass,
    validate_deal,
)
from boston_sim.errors import BostonSimError

RANK = {
    "A": 14,
    "K": 13,
    "Q": 12,
    "J": 11,
    "T": 10,
    "9": 9,
    "8": 8,
    "7": 7,
    "6": 6,
    "5": 5,
    "4": 4,
    "3": 3,
    "2": 2,
}


def mask_of(spades: str = "", hearts: str = "", diamonds: str = "", clubs: str = "") -> int:
    """Independent reference: a mask from per-suit rank strings (T for ten)."""
    m = 0
    for suit, ranks in enumerate((spades, hearts, diamonds, clubs)):
        for ch in ranks:
            m |= 1 << (suit * 16 + RANK[ch])
    return m


EXAMPLE = mask_of("AKQ2", "JT9", "876", "543")


# --------------------------------------------------------------------------- hands


@pytest.mark.parametrize(
    "text",
    [
        "AKQ2.JT9.876.543",
        "akq2.jt9.876.543",
        "AKQ2.J109.876.543",
        "  AKQ2.JT9.876.543  ",
        "S:AKQ2 H:JT9 D:876 C:543",
        "s:akq2 h:jt9 d:876 c:543",
        "S:AKQ2,H:JT9,D:876,C:543",
        "S:AKQ2; H:JT9; D:876; C:543",
        "SAKQ2 HJT9 D876 C543",
        "SAKQ2HJT9D876C543",
        "S AKQ2 H JT9 D 876 C 543",
        "S : AKQ2 H : J109 D : 876 C : 543",
        "C:543 D:876 H:JT9 S:AKQ2",  # the letter form names its suits, so any order
        "♠AKQ2 ♥JT9 ♦876 ♣543",
        "♠AKQ2 ♥J109 ♦876 ♣543",
        "♤AKQ2 ♡JT9 ♢876 ♧543",
        # emoji-style symbols as pasted from a phone
        "♠\ufe0fAKQ2 ♥\ufe0fJT9 ♦\ufe0f876 ♣\ufe0f543",
        "S:2QKA H:9TJ D:678 C:345",  # ranks in any order within a suit
    ],
)
def test_every_notation_reads_the_same_hand(text: str) -> None:
    assert parse_hand(text) == EXAMPLE


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AKQJT98765432...", mask_of("AKQJT98765432")),
        ("-.-.-.AKQJT98765432", mask_of(clubs="AKQJT98765432")),
        ("..AKQJT98765432.", mask_of(diamonds="AKQJT98765432")),
        (".—.AKQJT98765432.", mask_of(diamonds="AKQJT98765432")),
        ("S:AKQJT98765432", mask_of("AKQJT98765432")),  # a suit left out is a void
        ("S:- H:AKQJT98765432 D: C:-", mask_of(hearts="AKQJT98765432")),
        ("S- HAKQJT98765432 D- C-", mask_of(hearts="AKQJT98765432")),
        ("♠- ♥- ♦- ♣AKQJT98765432", mask_of(clubs="AKQJT98765432")),
        ("AK10.QJ10.1098.10", mask_of("AKT", "QJT", "T98", "T")),
    ],
)
def test_voids_and_tens(text: str, expected: int) -> None:
    assert parse_hand(text, cards=None) == expected


def test_card_count_is_checked_only_when_asked() -> None:
    assert parse_hand("AK.Q.J.T", cards=5) == mask_of("AK", "Q", "J", "T")
    assert parse_hand("AK.Q.J.T", cards=None) == mask_of("AK", "Q", "J", "T")
    with pytest.raises(NotationError, match="has 5 cards, expected 13"):
        parse_hand("AK.Q.J.T")


@pytest.mark.parametrize(
    "style, text",
    [
        ("pbn", "AKQ2.JT9.876.543"),
        ("letters", "S:AKQ2 H:JT9 D:876 C:543"),
        ("compact", "SAKQ2 HJT9 D876 C543"),
        ("symbols", "♠AKQ2 ♥JT9 ♦876 ♣543"),
    ],
)
def test_format_hand_each_style_and_back(style: str, text: str) -> None:
    assert format_hand(EXAMPLE, style) == text
    assert parse_hand(text) == EXAMPLE


@pytest.mark.parametrize(
    "style, text",
    [
        ("pbn", "AKQT98765432.J.."),
        ("letters", "S:AKQT98765432 H:J D:- C:-"),
        ("compact", "SAKQT98765432 HJ D- C-"),
        ("symbols", "♠AKQT98765432 ♥J ♦- ♣-"),
    ],
)
def test_format_hand_voids(style: str, text: str) -> None:
    m = mask_of("AKQT98765432", "J")
    assert format_hand(m, style) == text
    assert parse_hand(text) == m


def test_format_hand_ten_as_10() -> None:
    assert format_hand(EXAMPLE, "letters", ten="10") == "S:AKQ2 H:J109 D:876 C:543"
    assert format_hand(EXAMPLE, ten="10") == "AKQ2.J109.876.543"
    assert parse_hand(format_hand(EXAMPLE, "symbols", ten="10")) == EXAMPLE


def test_format_hand_accepts_numpy_integers() -> None:
    assert format_hand(np.uint64(EXAMPLE)) == "AKQ2.JT9.876.543"


def test_format_hand_rejects_non_card_bits() -> None:
    with pytest.raises(NotationError, match="not cards"):
        format_hand(EXAMPLE | 1)  # rank 0 of spades is not a card
    with pytest.raises(NotationError, match="unknown hand style"):
        format_hand(EXAMPLE, "html")


# The brief's table of malformed hands: each gives a one-line message naming the problem.
BAD_HANDS = [
    ("", ["empty hand"]),
    ("   ", ["empty hand"]),
    ("AKQA.JT9.876.543", ["duplicate card SA"]),
    ("S:AKQ2 H:JT9 D:876 C:5433", ["duplicate card C3"]),
    ("AKQ2.JT9.876.10T", ["duplicate card CT"]),
    ("AKQ2.JT9.876.54X", ["unknown rank 'X'", "clubs"]),
    ("AKQ2.JT9.876.541", ["unknown rank '1'", "T or 10"]),
    ("1.AKQJT98765.2.3", ["unknown rank '1'"]),
    ("AKQ2.JT9.876.54", ["has 12 cards, expected 13"]),
    ("AKQ2.JT9.876.5432", ["has 14 cards, expected 13"]),
    ("AKQ2.JT9.876", ["4 suits", "found 3"]),
    ("AKQ2.JT9.876.543.2", ["4 suits", "found 5"]),
    ("AKQ2.JT9.876.543 KJ.AQ.KQ.AJT98765", ["4 suits", "seat first"]),
    ("AK-2.JT9.876.5432", ["void", "spades"]),
    ("AKQJ2.--.876.5432", ["void", "hearts", "'--'"]),
    ("S:AKQ2 S:JT9 D:876 C:543", ["suit S appears twice"]),
    ("S:AKQ2 H:JT9 D:876 C:543 X", ["unexpected character 'X'"]),
    ("S:AKQ2 H:JT9 D:8*6 C:543", ["unexpected character '*'"]),
    ("S:AKZ2 H:JT9 D:876 C:543", ["unknown rank 'Z'", "spades"]),
    ("AKQ2 JT9 876 543", ["without a suit"]),
    ("S.AKQ2.JT9.876", ["suit letter 'S'", "dotted"]),
    ("AKQ2.J T9.876.543", ["space inside", "hearts"]),
    ("B.AKQJT9876543..", ["'B'", "boston"]),
    ("♠AKQ2 ♥JT9 ♦876 ♣543 ♠3", ["suit S appears twice"]),
]


@pytest.mark.parametrize("text, fragments", BAD_HANDS)
def test_malformed_hands_give_one_clear_line(text: str, fragments: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    msg = str(info.value)
    assert "\n" not in msg
    for frag in fragments:
        assert frag in msg, (text, msg)


def test_non_text_hand() -> None:
    with pytest.raises(NotationError, match="must be text"):
        parse_hand(EXAMPLE)  # type: ignore[arg-type]


def test_notation_error_is_a_user_error_and_a_value_error() -> None:
    assert issubclass(NotationError, BostonSimError)
    assert issubclass(NotationError, ValueError)
    import boston_sim

    assert boston_sim.NotationError is NotationError


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    "text, bit",
    [
        ("SA", 14),
        ("as", 14),
        ("♠A", 14),
        ("S:A", 14),
        ("HT", 16 + 10),
        ("10H", 16 + 10),
        ("h10", 16 + 10),
        ("♥10", 16 + 10),
        ("D2", 32 + 2),
        ("CJ", 48 + 11),
        ("jc", 48 + 11),
        ("TS", 10),
        ("ST", 10),
    ],
)
def test_parse_card(text: str, bit: int) -> None:
    assert parse_card(text) == bit


@pytest.mark.parametrize("text", ["", "S", "1S", "SS", "A", "SAK", "X2", "S11", "SB"])
def test_parse_card_rejects(text: str) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


def test_format_card() -> None:
    assert format_card(14) == "SA"
    assert format_card(16 + 10, "symbols") == "♥T"
    assert format_card(2 * 16 + 15) == "DB"
    for bad in (0, 1, 16, 64, -1):
        with pytest.raises(NotationError):
            format_card(bad)


def test_cards_of_counts_and_points() -> None:
    assert cards.cards_of(mask_of("A2", "", "", "K")) == [14, 2, 48 + 13]
    assert cards.count_cards(EXAMPLE) == 13
    assert [cards.suit_length(EXAMPLE, s) for s in range(4)] == [4, 3, 3, 3]
    assert cards.hcp(EXAMPLE) == 4 + 3 + 2 + 1  # AKQ of spades, J of hearts
    assert cards.hcp(mask_of("AKQJ", "AKQJ", "AKQJ", "A")) == 34
    assert cards.deal_remaining([cards.FULL_DECK]) == 0
    assert cards.deal_remaining([EXAMPLE]).bit_count() == 39


# --------------------------------------------------------------------------- deals

N_HAND = mask_of("AKQ2", "JT9", "876", "543")
E_HAND = mask_of("JT9", "876", "543", "AKQ2")
S_HAND = mask_of("876", "543", "AKQ2", "JT9")
W_HAND = mask_of("543", "AKQ2", "JT9", "876")
DEAL = [N_HAND, E_HAND, S_HAND, W_HAND]
DEAL_N = "N:AKQ2.JT9.876.543 JT9.876.543.AKQ2 876.543.AKQ2.JT9 543.AKQ2.JT9.876"


@pytest.mark.parametrize(
    "text",
    [
        DEAL_N,
        "E:JT9.876.543.AKQ2 876.543.AKQ2.JT9 543.AKQ2.JT9.876 AKQ2.JT9.876.543",
        "S:876.543.AKQ2.JT9 543.AKQ2.JT9.876 AKQ2.JT9.876.543 JT9.876.543.AKQ2",
        "W:543.AKQ2.JT9.876 AKQ2.JT9.876.543 JT9.876.543.AKQ2 876.543.AKQ2.JT9",
        "n:akq2.jt9.876.543 jt9.876.543.akq2 876.543.akq2.jt9 543.akq2.jt9.876",
        '"' + DEAL_N + '"',
        '[Deal "' + DEAL_N + '"]',
        "N: AKQ2.JT9.876.543   JT9.876.543.AKQ2 876.543.AKQ2.JT9 543.AKQ2.J109.876 ",
    ],
)
def test_parse_deal_any_first_seat(text: str) -> None:
    hands = parse_deal(text)
    assert hands.dtype == np.uint64 and hands.shape == (4,)
    assert hands.tolist() == DEAL


def test_format_deal_every_first_seat() -> None:
    assert format_deal(DEAL) == DEAL_N
    assert format_deal(DEAL, "W") == (
        "W:543.AKQ2.JT9.876 AKQ2.JT9.876.543 JT9.876.543.AKQ2 876.543.AKQ2.JT9"
    )
    for first in "NESW":
        assert parse_deal(format_deal(np.array(DEAL, dtype=np.uint64), first)).tolist() == DEAL


def test_ending_with_voids() -> None:
    text = "S:A.K.. Q.-.J. .2.A. T.-.-.K"
    hands = parse_deal(text)
    assert hands.tolist() == [
        mask_of(hearts="2", diamonds="A"),  # N
        mask_of("T", clubs="K"),  # E
        mask_of("A", "K"),  # S (first seat)
        mask_of("Q", diamonds="J"),  # W
    ]
    assert format_deal(hands, "S") == "S:A.K.. Q..J. .2.A. T...K"


def test_one_card_ending() -> None:
    hands = parse_deal("N:A... K... Q... J...")
    assert hands.tolist() == [mask_of("A"), mask_of("K"), mask_of("Q"), mask_of("J")]


BAD_DEALS = [
    ("", ["empty deal"]),
    ("AKQ2.JT9.876.543 JT9.876.543.AKQ2 876.543.AKQ2.JT9 543.AKQ2.JT9.876", ["seat and a colon"]),
    ("X:AKQ2.JT9.876.543", ["seat and a colon"]),
    ("N:AKQ2.JT9.876.543 JT9.876.543.AKQ2 876.543.AKQ2.JT9", ["4 hands", "found 3"]),
    ("N:A... A... Q... J...", ["card SA is in two hands"]),
    ("N:AKQ2.JT9.876.543 JT9.876.543.AKQ2 876.543.AKQ2.JT9 543.AKQ2.JT9.87", ["unequal", "W 12"]),
    ("N:AK... Q... J... T...", ["unequal", "N 2"]),
    ("N:... ... ... ...", ["1 to 13", "found 0"]),
    ("N:A... K... Q... SJ", ["W hand", "dotted"]),
    ("E:A... K... Q... J.X..", ["N hand", "unknown rank 'X'"]),
    ("N:AKQ2.JT9.876.5432 JT9.876.543.AKQ 876.543.AKQ2.JT9 543.AKQ2.JT9.876", ["unequal"]),
]


@pytest.mark.parametrize("text, fragments", BAD_DEALS)
def test_malformed_deals(text: str, fragments: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        parse_deal(text)
    msg = str(info.value)
    assert "\n" not in msg
    for frag in fragments:
        assert frag in msg, (text, msg)


def test_validate_deal_on_arrays() -> None:
    validate_deal(DEAL)
    with pytest.raises(NotationError, match="4 hands"):
        validate_deal(DEAL[:3])
    with pytest.raises(NotationError, match="not a card"):
        validate_deal([N_HAND | 1 << 1, E_HAND, S_HAND, W_HAND])
    with pytest.raises(NotationError, match="two hands"):
        validate_deal([N_HAND, N_HAND, S_HAND, W_HAND])


# --------------------------------------------------------------------------- seats, strains


@pytest.mark.parametrize(
    "text, seat",
    [("N", 0), ("e", 1), ("South", 2), (" WEST ", 3), (0, 0), (3, 3), (np.int64(2), 2)],
)
def test_parse_compass(text: object, seat: int) -> None:
    assert parse_compass(text) == seat  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["X", "", "NE", 4, -1, True])
def test_parse_compass_rejects(text: object) -> None:
    with pytest.raises(NotationError):
        parse_compass(text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text, seat",
    [
        ("eldest", 0),
        ("Eldest hand", 0),
        ("P0", 0),
        ("second", 1),
        ("p1", 1),
        ("THIRD", 2),
        ("dealer", 3),
        ("fourth", 3),
        (2, 2),
    ],
)
def test_parse_play_seat(text: object, seat: int) -> None:
    assert parse_play_seat(text) == seat  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["N", "youngest", "", 4])
def test_parse_play_seat_rejects(text: object) -> None:
    with pytest.raises(NotationError, match="seat"):
        parse_play_seat(text)  # type: ignore[arg-type]


def test_documented_seat_mapping_dealer_west() -> None:
    # ARCHITECTURE.md / cards docstring: eldest = N, second = E, third = S, dealer = W.
    assert [play_seat_to_compass(p) for p in ("eldest", "second", "third", "dealer")] == [
        0,
        1,
        2,
        3,
    ]
    assert cards.format_play_seat(0) == "eldest" and cards.format_compass(3) == "W"


def test_seat_mapping_other_dealers() -> None:
    # eldest sits next after the dealer in the order of play N -> E -> S -> W -> N
    assert play_seat_to_compass("eldest", dealer="N") == 1
    assert play_seat_to_compass("dealer", dealer="S") == 2
    assert play_seat_to_compass("second", dealer="E") == 3
    for dealer in range(4):
        for p in range(4):
            assert compass_to_play_seat(play_seat_to_compass(p, dealer), dealer) == p


@pytest.mark.parametrize(
    "text, strain",
    [
        ("S", 0),
        ("h", 1),
        ("Diamonds", 2),
        ("club", 3),
        ("♣", 3),
        ("♥\ufe0f", 1),
        ("NT", 4),
        ("nt", 4),
        ("no trump", 4),
        ("No-Trumps", 4),
        (4, 4),
        (0, 0),
    ],
)
def test_parse_strain(text: object, strain: int) -> None:
    assert parse_strain(text) == strain  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["X", "", "SH", 5, -1])
def test_parse_strain_rejects(text: object) -> None:
    with pytest.raises(NotationError):
        parse_strain(text)  # type: ignore[arg-type]


def test_format_strain() -> None:
    assert [format_strain(s) for s in range(5)] == ["S", "H", "D", "C", "NT"]
    assert format_strain("d", "symbols") == "♦" and format_strain(4, "symbols") == "NT"


# --------------------------------------------------------------------------- boston card

JD = 2 * 16 + 11  # the jack of diamonds
JH = 1 * 16 + 11  # the jack of hearts


def _holder(hands: np.ndarray, bit: int) -> int:
    return next(i for i in range(4) if int(hands[i]) >> bit & 1)


@pytest.mark.parametrize("trump", [0, 1, 3, "S", "H", "C"])
def test_boston_card_is_jack_of_diamonds_moved_to_trump_lane(trump: object) -> None:
    deal = parse_deal(DEAL_N)
    t = parse_strain(trump)  # type: ignore[arg-type]
    who = _holder(deal, JD)
    out = boston_card_transform(deal, trump)  # type: ignore[arg-type]
    assert int(out[who]) == int(deal[who]) - (1 << JD) + (1 << (t * 16 + 15))
    for seat in range(4):
        if seat != who:
            assert out[seat] == deal[seat]
    assert deal.tolist() == DEAL  # input untouched
    validate_deal(out)


def test_boston_card_with_diamond_trumps_is_jack_of_hearts() -> None:
    deal = parse_deal(DEAL_N)
    who = _holder(deal, JH)
    out = boston_card_transform(deal, "D")
    assert int(out[who]) == int(deal[who]) - (1 << JH) + (1 << (2 * 16 + 15))
    # J♦ stays an ordinary diamond
    assert sum(int(h) >> JD & 1 for h in out) == 1
    assert cards.suit_length(int(out[who]), 2) == cards.suit_length(int(deal[who]), 2) + 1


def test_no_boston_card_in_no_trump() -> None:
    deal = parse_deal(DEAL_N)
    assert boston_card_transform(deal, "NT").tolist() == DEAL


def test_boston_card_batch_shape() -> None:
    deal = parse_deal(DEAL_N)
    rotated = np.roll(deal, 1)
    batch = np.stack([deal, rotated, deal])
    out = boston_card_transform(batch, 0)
    assert out.shape == (3, 4) and out.dtype == np.uint64
    for i in range(3):
        assert out[i].tolist() == boston_card_transform(batch[i], 0).tolist()
    assert out[0].tolist() != deal.tolist()


def test_boston_card_written_as_b() -> None:
    deal = boston_card_transform(parse_deal(DEAL_N), "H")
    text = format_deal(deal)
    assert "B" in text
    assert parse_deal(text, boston=True).tolist() == deal.tolist()
    with pytest.raises(NotationError, match="boston"):
        parse_deal(text)
    assert parse_card("HB", boston=True) == 16 + 15
    # a B together with the jack it replaces is not a position
    with pytest.raises(NotationError, match="replaces"):
        parse_hand("A.B.J.-", cards=None, boston=True)  # B of hearts trumps is J♦
    assert parse_hand("AKQJ.B..", cards=None, boston=True) == mask_of("AKQJ") | 1 << 31


def test_validate_deal_rejects_two_boston_cards() -> None:
    deal = boston_card_transform(parse_deal(DEAL_N), "S")
    spare = [int(h) for h in deal]
    who = _holder(deal, JH)
    spare[who] = spare[who] - (1 << JH) + (1 << (3 * 16 + 15))  # a second B, in clubs
    with pytest.raises(NotationError, match="more than one boston card"):
        validate_deal(spare)
