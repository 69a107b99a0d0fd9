"""Property-based tests (hypothesis) of the notation layer over random hands, deals and endings."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boston_sim.cards import (
    HAND_STYLES,
    NotationError,
    boston_card_transform,
    format_deal,
    format_hand,
    parse_deal,
    parse_hand,
    validate_deal,
)

ALL_CARDS = [s * 16 + r for s in range(4) for r in range(2, 15)]
# Local settings, not a global profile: other test files keep their own.
SETTINGS = settings(max_examples=150, deadline=None)


@st.composite
def hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 13) -> int:
    picked = draw(
        st.lists(st.sampled_from(ALL_CARDS), min_size=min_size, max_size=max_size, unique=True)
    )
    return sum(1 << b for b in picked)


@st.composite
def deals(draw: st.DrawFn) -> tuple[np.ndarray, list[list[int]]]:
    """Random deal or ending: a shuffled pack, n cards to each seat (the card lists too)."""
    n = draw(st.integers(1, 13))
    pack = draw(st.permutations(ALL_CARDS))
    per_seat = [list(pack[i * n : (i + 1) * n]) for i in range(4)]
    arr = np.array([sum(1 << b for b in cards) for cards in per_seat], dtype=np.uint64)
    return arr, per_seat


@SETTINGS
@given(hands(), st.sampled_from(HAND_STYLES), st.sampled_from(["T", "10"]))
def test_hand_round_trip_every_style(hand: int, style: str, ten: str) -> None:
    text = format_hand(hand, style, ten=ten)
    assert parse_hand(text, cards=None) == hand
    # formatting is canonical: the text reads back to itself
    assert format_hand(parse_hand(text, cards=None), style, ten=ten) == text


@SETTINGS
@given(hands(min_size=13, max_size=13))
def test_full_hand_formats_agree(hand: int) -> None:
    texts = {style: format_hand(hand, style) for style in HAND_STYLES}
    assert {parse_hand(t) for t in texts.values()} == {hand}
    assert texts["pbn"].count(".") == 3


@SETTINGS
@given(hands(), st.permutations(range(4)), st.booleans(), st.sampled_from([" ", ",", "; ", ""]))
def test_letter_form_any_suit_order_and_case(
    hand: int, order: list[int], lower: bool, sep: str
) -> None:
    parts = format_hand(hand, "letters").split(" ")
    text = sep.join(parts[i] for i in order)
    if lower:
        text = text.lower()
    assert parse_hand(text, cards=None) == hand


@SETTINGS
@given(hands(min_size=1))
def test_hand_text_mentions_each_card_once(hand: int) -> None:
    pbn = format_hand(hand)
    assert len(pbn.replace(".", "")) == hand.bit_count()


@SETTINGS
@given(deals(), st.sampled_from("NESW"))
def test_deal_round_trip_every_first_seat(
    deal: tuple[np.ndarray, list[list[int]]], first: str
) -> None:
    arr, per_seat = deal
    text = format_deal(arr, first)
    assert text.startswith(first + ":")
    back = parse_deal(text)
    assert back.dtype == np.uint64 and back.tolist() == arr.tolist()
    # hands are listed clockwise from the first seat
    f = "NESW".index(first)
    for i, h in enumerate(text[2:].split(" ")):
        assert parse_hand(h, cards=None) == int(arr[(f + i) % 4])
    # masks disjoint, counts right, nothing lost
    n = len(per_seat[0])
    assert [int(h).bit_count() for h in back] == [n] * 4
    union = 0
    for h in back:
        assert union & int(h) == 0
        union |= int(h)
    assert union == sum(1 << b for cards in per_seat for b in cards)


@SETTINGS
@given(deals())
def test_different_first_seats_same_deal(deal: tuple[np.ndarray, list[list[int]]]) -> None:
    arr, _ = deal
    decoded = {tuple(parse_deal(format_deal(arr, f)).tolist()) for f in "NESW"}
    assert decoded == {tuple(arr.tolist())}


@SETTINGS
@given(deals(), st.integers(0, 3), st.sampled_from(ALL_CARDS))
def test_moving_one_card_breaks_the_deal(
    deal: tuple[np.ndarray, list[list[int]]], seat: int, card: int
) -> None:
    arr, _ = deal
    broken = [int(h) for h in arr]
    broken[seat] |= 1 << card  # either a card now in two hands, or one hand too long
    if broken[seat] == int(arr[seat]):
        return
    try:
        validate_deal(broken)
    except NotationError as e:
        assert "two hands" in str(e) or "unequal" in str(e)
    else:
        raise AssertionError("a deal with an extra card was accepted")


@SETTINGS
@given(deals(), st.integers(0, 4))
def test_boston_transform_properties(deal: tuple[np.ndarray, list[list[int]]], trump: int) -> None:
    arr, _ = deal
    out = boston_card_transform(arr, trump)
    assert [int(h).bit_count() for h in out] == [int(h).bit_count() for h in arr]
    validate_deal(out)
    assert parse_deal(format_deal(out), boston=True).tolist() == out.tolist()
    b_cards = sum(((int(h) >> (16 * s + 15)) & 1) for h in out for s in range(4))
    source = (1 << (16 + 11)) if trump == 2 else (1 << (32 + 11))
    holds_source = any(int(h) & source for h in arr)
    assert b_cards == (1 if trump != 4 and holds_source else 0)
    # the batch form agrees with deal-by-deal application
    batch = np.stack([arr, np.roll(arr, 1)])
    assert boston_card_transform(batch, trump)[1].tolist() == np.roll(out, 1).tolist()


@SETTINGS
@given(st.text(max_size=40))
def test_arbitrary_text_never_crashes(text: str) -> None:
    """Any text either parses or raises NotationError with a one-line message."""
    for parse in (lambda t: parse_hand(t, cards=None), parse_deal):
        try:
            parse(text)
        except NotationError as e:
            assert "\n" not in str(e) and str(e)


@SETTINGS
@given(st.text(alphabet="AKQJT98765432.-SHDCshdc:, 10♠♥♦♣", max_size=40))
def test_notation_like_text_never_crashes(text: str) -> None:
    try:
        m = parse_hand(text, cards=None)
    except NotationError as e:
        assert "\n" not in str(e) and str(e)
    else:
        assert parse_hand(format_hand(m), cards=None) == m
