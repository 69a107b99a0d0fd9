"""PBN files -> games (their tags) -> the hand and playing-order seat of each compass seat.

The notation of one deal string (``"N:hand hand hand hand"``) is :func:`cards.split_deal`
and :func:`cards.parse_deal`; this module reads whole PBN files: the tag pairs
``[Name "value"]`` of each game, the known hands of a deal (``-`` marks an unknown hand), and
which playing-order seat a compass seat holds given the ``[Dealer "X"]`` tag. Nothing here
imports numba, numpy or pandas.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .cards import (
    COMPASS,
    NotationError,
    cards_of,
    format_card,
    parse_compass,
    parse_hand,
    split_deal,
)

TAG = re.compile(r'\[\s*(\w+)\s+"([^"]*)"\s*\]')
UNKNOWN_HAND = "-"
# With no [Dealer] tag the dealer is taken to be W, the analysis convention of cards.py
# (so N is eldest).
DEFAULT_DEALER = COMPASS.index("W")
_COMMENT_STARTS = ("%", ";")
# Tags that belong to one deal: a second [Deal] in the same game does not inherit them.
_PER_DEAL_TAGS = ("Deal", "Board")


@dataclass(frozen=True)
class Game:
    """One deal of a PBN file: its tags and the line of its ``[Deal]`` tag."""

    line: int
    tags: dict[str, str]

    @property
    def deal(self) -> str:
        return self.tags["Deal"]

    @property
    def board(self) -> str:
        return self.tags.get("Board", "").strip()

    def dealer(self) -> int:
        """Compass seat of the dealer (``[Dealer]``, else :data:`DEFAULT_DEALER`); an unknown
        seat raises NotationError."""
        text = self.tags.get("Dealer", "").strip()
        return parse_compass(text) if text else DEFAULT_DEALER


def read_games(lines: Iterable[str]) -> list[Game]:
    """Every game of a PBN file that has a ``[Deal]`` tag, in file order (:func:`iter_games`)."""
    return list(iter_games(lines))


def iter_games(lines: Iterable[str]) -> Iterator[Game]:
    """The games of a PBN file that have a ``[Deal]`` tag, in file order, each as soon as
    its end is read.

    A game ends at the next ``[Event]`` tag; a second ``[Deal]`` before it starts a new game
    that keeps the other tags (event, dealer, ...). ``%`` and ``;`` lines are comments.
    """
    tags: dict[str, str] = {}
    deal_line = 0
    for n, raw in enumerate(lines, 1):
        s = raw.strip()
        if s.startswith(_COMMENT_STARTS):
            continue
        for m in TAG.finditer(s):
            name, value = m.group(1), m.group(2)
            if name == "Event" and "Deal" in tags:
                yield Game(deal_line, tags)
                tags = {}
            if name == "Deal":
                if "Deal" in tags:  # a second deal without an Event tag between
                    yield Game(deal_line, tags)
                    tags = {k: v for k, v in tags.items() if k not in _PER_DEAL_TAGS}
                deal_line = n
            tags[name] = value
    if "Deal" in tags:
        yield Game(deal_line, tags)


def deal_hands(deal: str) -> dict[int, str]:
    """``"N:h h h h"`` -> {compass seat: hand text}; unknown (``-``) hands are left out.
    A malformed deal, or one with a card in two hands, raises NotationError (a hand that
    cannot be read is left for its own row to report)."""
    first, hands = split_deal(deal)
    out = {(first + i) % 4: h for i, h in enumerate(hands) if h != UNKNOWN_HAND}
    _check_no_card_twice(out)
    return out


def _check_no_card_twice(hands: dict[int, str]) -> None:
    seen: dict[int, int] = {}  # card bit -> compass seat holding it
    for seat, text in hands.items():
        try:
            mask = parse_hand(text, cards=None)
        except NotationError:
            continue
        for bit in cards_of(mask):
            if bit in seen:
                raise NotationError(f"{format_card(bit)} is in two hands "
                                    f"({COMPASS[seen[bit]]} and {COMPASS[seat]})")
            seen[bit] = seat


def play_seat_of(compass: int, dealer: int, *, rightward: bool = False) -> int:
    """Playing-order seat (0 = eldest .. 3 = dealer) of compass seat ``compass``.

    Eldest is the dealer's left-hand neighbour, the next seat clockwise (cards.py); a rule
    set that plays to the right (A-41, Russian Boston) has eldest on the dealer's right and
    play running anticlockwise.
    """
    return (dealer - compass - 1) % 4 if rightward else (compass - dealer - 1) % 4
