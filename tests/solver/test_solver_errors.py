"""Bad input to the solver is refused with a one-line user error, never solved.

Text input fails in the notation layer (``NotationError``), arrays and arguments that are not
a legal position fail in the solver wrappers (``SolverInputError``); both are user errors that
the CLI prints as ``error: ...``.
"""

from __future__ import annotations

import numpy as np
import pytest

from boston_sim import cards
from boston_sim.errors import USER_ERRORS, NotationError, SolverInputError
from boston_sim.solver import solve, solve_batch, solve_batch_target, solve_target

GOOD = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
GOOD_HANDS = cards.parse_deal(GOOD)


def _one_line(exc: pytest.ExceptionInfo) -> None:
    msg = str(exc.value)
    assert msg and "\n" not in msg


def _card(text: str) -> int:
    return 1 << cards.parse_card(text)


def test_the_good_deal_is_solved() -> None:
    """Sanity: the deal the bad inputs are made from is fine (N's 13 top cards make 13)."""
    assert solve(GOOD, "NT", "E", "N") == 13


# ---------------------------------------------------------------------------- text deals


@pytest.mark.parametrize(
    "deal, why",
    [
        ("N:AKQJ.AKQ.AKQ.AK T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432", "12 cards in N"),
        ("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543Q", "duplicate ♣Q"),
        ("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876", "three hands"),
        ("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432.2", "five suits"),
        ("N:AKQJ.AKQ.AKQ.AKQX T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432", "bad rank"),
        ("AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432", "no seat"),
        ("N:A... K... Q... ", "three hands of one card"),
        ("N:A... K... Q.2.. J...", "unequal ending"),
        ("N:... ... ... ...", "no cards at all"),
        ("", "empty"),
    ],
)
def test_bad_text_deal_is_refused(deal: str, why: str) -> None:
    with pytest.raises(NotationError) as exc:
        solve(deal, "S", "E", "N")
    _one_line(exc)
    with pytest.raises(NotationError):
        solve_target(deal, "S", "E", "N", kind="at_least", target=7)


# ---------------------------------------------------------------------------- array deals


def _bad_arrays() -> list[tuple[list[int], str]]:
    h = [int(x) for x in GOOD_HANDS]
    dup = list(h)
    dup[1] = (dup[1] & ~_card("C9")) | _card("SA")  # E gets N's ♠A instead of the ♣9
    unequal = list(h)
    unequal[3] &= ~_card("C2")  # W has 12 cards
    no_card_bit = list(h)
    no_card_bit[0] = (no_card_bit[0] & ~_card("SA")) | (1 << 0)  # rank 0 of spades is no card
    empty = [0, 0, 0, 0]
    over = [h[0] | _card("C9"), h[1], h[2], h[3]]  # 14 cards and a duplicate
    return [(dup, "duplicate card"), (unequal, "unequal hands"), (no_card_bit, "not a card"),
            (empty, "no cards"), (over, "14 cards")]


@pytest.mark.parametrize("hands, why", _bad_arrays(), ids=[w for _, w in _bad_arrays()])
def test_bad_array_deal_is_refused(hands: list[int], why: str) -> None:
    with pytest.raises(USER_ERRORS) as exc:
        solve(hands, "S", "E", "N")
    _one_line(exc)
    batch = np.array([GOOD_HANDS, hands], dtype=np.uint64)
    with pytest.raises(SolverInputError) as exc:
        solve_batch(batch, 0, 1, 0b0001)
    _one_line(exc)
    with pytest.raises(SolverInputError):
        solve_batch_target(batch, 0, 1, 0b0001, "at_least", 7)


def test_boston_card_outside_the_trump_suit_is_refused() -> None:
    hands = cards.boston_card_transform(cards.parse_deal("N:..J. A... K... Q..."), 0)  # ♠ boston
    assert solve(hands, "S", "E", "N") == 1  # fine in spades: the boston card beats the ace
    with pytest.raises(SolverInputError) as exc:
        solve(hands, "H", "E", "N")  # a rank-15 spade when hearts are trumps
    _one_line(exc)
    with pytest.raises(SolverInputError):
        solve(hands, "NT", "E", "N")  # there is no boston card in no trump
    with pytest.raises(SolverInputError):
        solve_batch(hands.reshape(1, 4), 4, 1, 0b0001)


def test_batch_shape_and_type_are_checked() -> None:
    with pytest.raises(SolverInputError):
        solve_batch(np.zeros((3, 3), dtype=np.uint64), 0, 0, 1)
    with pytest.raises(SolverInputError):
        solve_batch(GOOD_HANDS, 0, 0, 1)  # one deal, not a batch
    with pytest.raises(SolverInputError):
        solve_batch(np.array([["a", "b", "c", "d"]]), 0, 0, 1)
    with pytest.raises(SolverInputError):
        solve_batch(np.array([[-1, 0, 0, 0]]), 0, 0, 1)
    batch = GOOD_HANDS.reshape(1, 4)
    with pytest.raises(SolverInputError):
        solve_batch(batch, 0, 0, 1, out=np.zeros(1, dtype=np.int64))  # wrong out dtype
    with pytest.raises(SolverInputError):
        solve_batch(batch, 0, 0, 1, out=np.zeros(2, dtype=np.int8))  # wrong out length
    with pytest.raises(SolverInputError):
        solve_batch_target(batch, 0, 0, 1, "at_least", 7, out=np.zeros(1, dtype=np.int8))


# ---------------------------------------------------------------------------- other arguments


@pytest.mark.parametrize(
    "kwargs",
    [
        {"trump": "X"}, {"trump": "5"}, {"trump": 5}, {"trump": -1}, {"trump": ""},
        {"leader": "Q"}, {"leader": 4}, {"leader": -1}, {"leader": "NE"},
        {"declarer": "north-east"}, {"declarer": 7},
        {"partner": "Z"}, {"partner": 9},
    ],
    ids=lambda kw: f"{next(iter(kw))}={next(iter(kw.values()))!r}",
)
def test_bad_trump_or_seat_is_refused(kwargs: dict) -> None:
    args = {"trump": "S", "leader": "E", "declarer": "N", "partner": None} | kwargs
    with pytest.raises(NotationError) as exc:
        solve(GOOD, args["trump"], args["leader"], args["declarer"], args["partner"])
    _one_line(exc)


@pytest.mark.parametrize("seat", ["N", 0, "north"])
def test_partner_equal_to_declarer_is_refused(seat) -> None:
    with pytest.raises(SolverInputError) as exc:
        solve(GOOD, "S", "E", "N", seat)
    _one_line(exc)
    with pytest.raises(SolverInputError):
        solve_target(GOOD, "S", "E", "N", seat, kind="at_least", target=1)


@pytest.mark.parametrize(
    "kind, target",
    [("most", 1), ("", 0), ("at_least", "3"), ("exactly", 1.5), ("at_most", None)],
)
def test_bad_question_is_refused(kind, target) -> None:
    with pytest.raises(SolverInputError) as exc:
        solve_target(GOOD, "S", "E", "N", kind=kind, target=target)
    _one_line(exc)
    with pytest.raises(SolverInputError):
        solve_batch_target(GOOD_HANDS.reshape(1, 4), 0, 1, 1, kind, target)


@pytest.mark.parametrize(
    "trump, leader, side_mask, mode",
    [(5, 0, 1, "max"), (-1, 0, 1, "max"), (0, 4, 1, "max"), (0, -1, 1, "max"),
     (0, 0, 0, "max"), (0, 0, 15, "max"), (0, 0, 16, "max"), (0, 0, 1, "maximum"), (0, 0, 1, "")],
)
def test_bad_batch_scalars_are_refused(trump, leader, side_mask, mode) -> None:
    with pytest.raises(SolverInputError) as exc:
        solve_batch(GOOD_HANDS.reshape(1, 4), trump, leader, side_mask, mode=mode)
    _one_line(exc)


def test_user_errors_are_value_errors() -> None:
    """Callers that catch ValueError (e.g. a batch runner) also catch every solver refusal."""
    assert issubclass(NotationError, ValueError) and issubclass(SolverInputError, ValueError)
